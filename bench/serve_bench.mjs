// bench/serve_bench.mjs: the page of `lore serve` (docs/serve.md) with a large store.
//
// Makes a store of 100,000 records (decisions, requests and knowledge pages in the proportions
// 60/20/20; --records N for another size), builds its index with `lore reindex`, starts
// `lore serve --port 0`, and with Debian's chromium (headless, puppeteer-core from
// tests/serve/node_modules) measures, over --runs fresh page loads (default 7):
//   - the first contentful paint of the main view (the briefing), and the time until the
//     briefing's text is on the page;
//   - a search typed into the Search view: from the submit to its hits on the page;
// then the server's resident memory once idle (VmRSS of lore-serve), and medians of each.
//
//   node bench/serve_bench.mjs [build/release] [--records N] [--runs N] [--keep]
// (--keep leaves the store in place and prints where it is)
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const valued = new Set(['--records', '--runs']);
const build = resolve(args.find((a, i) => !a.startsWith('--') && !(i > 0 && valued.has(args[i - 1]))) || join(root, 'build/release'));
const RECORDS = flag('--records', 100000);
const RUNS = flag('--runs', 7);
const LORE = join(build, 'lore');
const require = createRequire(join(root, 'tests/serve/package.json'));
const puppeteer = require('puppeteer-core');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => `${x.toFixed(1)} ms`;

const work = mkdtempSync(join(tmpdir(), 'lore-serve-bench-'));
const env = { ...process.env, HOME: join(work, 'home'), LORE_HOME: join(work, 'stores') };
delete env.XDG_CONFIG_HOME;
const repo = join(work, 'widgets');
mkdirSync(join(repo, '.git'), { recursive: true });
writeFileSync(join(repo, '.git/config'), '[remote "origin"]\n\turl = git@github.com:acme/widgets.git\n');
execFileSync(LORE, ['ensure', repo], { env });
const store = join(work, 'stores/github.com_acme_widgets');

// Words to make records of: a vocabulary wide enough that a search has to rank.
const words = ('cache locale build ninja deploy tuesday parser schema index token session hook ' +
  'review proposal learning memory budget prompt commit branch merge rebase test fixture mock ' +
  'server client socket timeout retry backoff queue worker lock journal shadow commit record ' +
  'linter yaml frontmatter slug knowledge decision request workflow summary archive import ' +
  'export team postgres cursor machine sync offline pull push conflict claim batch wave quota').split(' ');
let seed = 42;
const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const sentence = (n) => Array.from({ length: n }, () => words[rand(words.length)]).join(' ');

const t0 = Date.now();
const kinds = [['memory/decisions', 0.6], ['memory/requests', 0.2], ['knowledge', 0.2]];
for (const [dir] of kinds) mkdirSync(join(store, dir), { recursive: true, mode: 0o700 });
for (let i = 0; i < RECORDS; ++i) {
  const r = i / RECORDS;
  const dir = r < 0.6 ? kinds[0][0] : r < 0.8 ? kinds[1][0] : kinds[2][0];
  const day = String(1 + (i % 28)).padStart(2, '0');
  const front = dir === 'knowledge'
    ? `---\ncreated_at: 2026-11-${day}T10:00:00Z\nupdated_at: 2026-11-${day}T10:00:00Z\nkind: rule\ndescription: ${sentence(6)}\nlast_sources: []\n---\n`
    : `---\ncreated_at: 2026-11-${day}T10:00:00Z\nupdated_at: 2026-11-${day}T10:00:00Z\nstatus: open\nsources: []\n---\n`;
  writeFileSync(join(store, dir, `r-${i}.md`), `${front}# ${sentence(5)}\n\n${sentence(40)}\n`, { mode: 0o600 });
}
const made = Date.now() - t0;
const t1 = Date.now();
execFileSync(LORE, ['reindex', repo], { env });
const indexed = Date.now() - t1;
console.log(`store: ${RECORDS} records written in ${(made / 1000).toFixed(1)} s, indexed in ${(indexed / 1000).toFixed(1)} s`);

const server = spawn(LORE, ['serve', repo, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((ok, fail) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/(http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]+)/);
    if (m) ok(m[1]);
  });
  server.on('exit', (c) => fail(new Error(`lore serve exited ${c}`)));
});
const servePid = server.pid;  // lore replaces itself with lore-serve (exec): the same process

const rssKiB = () => Number(readFileSync(`/proc/${servePid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
await new Promise((r) => setTimeout(r, 500));
const rssStart = rssKiB();
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const paints = [], briefings = [], searches = [], apis = [];
const token = url.split('?t=')[1];
const origin = url.split('/?')[0];
try {
  for (let run = 0; run < RUNS; ++run) {
    const page = await browser.newPage();
    await page.setCacheEnabled(false);
    const start = Date.now();
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => {
      const b = document.querySelector('[data-test="briefing-text"]');
      return b && b.textContent.length > 0;
    }, { timeout: 60000 });
    briefings.push(Date.now() - start);
    const fcp = await page.evaluate(() => {
      const e = performance.getEntriesByName('first-contentful-paint')[0];
      return e ? e.startTime : NaN;
    });
    paints.push(fcp);
    await page.goto(`${url}#search`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('[data-test="search-input"]');
    const query = `${words[run % words.length]} ${words[(run * 7 + 3) % words.length]}`;
    // The same search asked of the server alone: what of the page's time is the search itself.
    const a0 = Date.now();
    await (await fetch(`${origin}/api/search?q=${encodeURIComponent(query)}`, { headers: { 'X-Lore-Token': token } })).json();
    apis.push(Date.now() - a0);
    await page.type('[data-test="search-input"]', query);
    const s0 = Date.now();
    await page.click('[data-test="search-submit"]');
    await page.waitForSelector('[data-test="search-hit"]', { timeout: 60000 });
    searches.push(Date.now() - s0);
    await page.close();
  }
  await new Promise((r) => setTimeout(r, 2000));
  const rss = rssKiB();
  console.log(`main view: first contentful paint median ${ms(median(paints))}, briefing on the page ${ms(median(briefings))} (${RUNS} loads)`);
  console.log(`search: submit to hits on the page median ${ms(median(searches))}; the same search answered by the server alone median ${ms(median(apis))} (${RUNS} searches)`);
  console.log(`server idle memory: ${(rssStart / 1024).toFixed(1)} MiB resident when started, ${(rss / 1024).toFixed(1)} MiB idle after the loads and searches (lore-serve)`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  if (args.includes('--keep')) console.log(`kept: ${work} (LORE_HOME=${env.LORE_HOME}, repo ${repo})`);
  else rmSync(work, { recursive: true, force: true });
}
