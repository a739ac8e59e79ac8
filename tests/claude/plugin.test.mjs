// lore as a Claude Code plugin, through the real client (docs/agents.md, "The plugin"): the
// repository is a plugin marketplace; `claude plugin marketplace add <repo>` and `claude plugin
// install lore@lore` set lore up for every project of the world's HOME, with no `lore init`;
// then a headless session runs lore's hooks from the plugin and offers lore's MCP tools, and a
// tool call reaches lore's server. Without lore on PATH the same hooks do nothing, successfully.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeWorld, removeWorld, serve, claude, run, claudeEnv, worldEnv, CLAUDE_BIN, haveClaude,
  toolResults, lore, requestText, hookRuns } from './harness.mjs';

const skip = haveClaude() ? false : 'tests/claude/node_modules is missing: run npm ci in tests/claude';
const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, '../..');
const DECISION = 'The load balancer probes port 8080, so widget.conf must set port = 8080.';

async function plugin(w, args, env = {}) {
  const r = await run(CLAUDE_BIN, ['plugin', ...args], { cwd: w.project, env: worldEnv(w, env) });
  assert.equal(r.code, 0, `claude plugin ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r;
}

describe('lore installed as a Claude Code plugin', { skip }, () => {
  let w;
  before(async () => {
    w = await makeWorld({ lore: false });  // no lore init: the plugin is the whole set-up
    await plugin(w, ['validate', '--strict', REPO]);
    await plugin(w, ['validate', '--strict', path.join(REPO, 'share', 'claude-code')]);
    await plugin(w, ['marketplace', 'add', REPO]);
    await plugin(w, ['install', 'lore@lore']);
    // A briefing in the project's store, which lore's SessionStart hook gives the model.
    const made = await lore(w, ['ensure', w.project]);
    assert.equal(made.code, 0, made.stderr);
    fs.mkdirSync(path.join(w.store, 'memory'), { recursive: true });
    fs.writeFileSync(path.join(w.store, 'memory', 'summary.md'),
      `---\nupdated_at: 2026-11-02T03:04:05Z\n---\n# Briefing\n\n${DECISION}\n`);
  });
  after(async () => { await removeWorld(w); });

  test('the plugin is installed for the user, and nothing is written into the project', async () => {
    const list = await plugin(w, ['list']);
    assert.match(list.stdout, /lore@lore/);
    const settings = JSON.parse(fs.readFileSync(path.join(w.home, '.claude', 'settings.json'), 'utf8'));
    assert.equal(settings.enabledPlugins['lore@lore'], true);
    assert.ok(!fs.existsSync(path.join(w.project, '.claude')), 'the plugin wrote into the project');
    assert.ok(!fs.existsSync(path.join(w.project, '.mcp.json')));
  });

  test('a headless session runs lore\'s hooks and offers lore\'s MCP tools, which answer', async () => {
    let server = await serve(w, [{ content: [{ type: 'text', text: 'Hello.' }] }], 'plugin');
    let r;
    try {
      r = await claude(w, server.url, 'What does lore know about this project?', {
        format: 'stream-json', extraArgs: ['--include-hook-events'] });
    } finally { await server.close(); }
    assert.equal(r.code, 0, `claude failed: ${r.stderr}`);
    const main = server.requests().filter((q) => q.kind === 'main');
    assert.equal(main.length, 1);
    const tools = (main[0].body?.tools || []).map((t) => t.name);
    const loreTools = tools.filter((n) => /^mcp__.*lore.*__(search|status|open|memory_read)$/.test(n));
    assert.equal(loreTools.length, 4, `lore's MCP tools are not offered: ${tools.join(' ')}`);
    const runs = hookRuns(r.events);
    for (const ev of ['SessionStart', 'UserPromptSubmit']) {
      assert.ok(runs[ev]?.length, `no ${ev} hook ran: ${JSON.stringify(Object.keys(runs))}`);
      for (const h of runs[ev]) assert.equal(h.exit_code ?? 0, 0, JSON.stringify(h));
    }
    // The hooks that ran were lore's, from the plugin: the briefing reached the model.
    assert.ok(requestText(main[0]).includes(DECISION), 'lore\'s SessionStart briefing is not in the request');

    // A call of the plugin's status tool reaches lore's MCP server.
    const status = loreTools.find((n) => n.endsWith('__status'));
    server = await serve(w, [
      { content: [{ type: 'text', text: 'Asking lore.' }, { type: 'tool_use', name: status, input: {} }] },
      { content: [{ type: 'text', text: 'lore answered.' }] },
    ], 'plugin-tool');
    try {
      r = await claude(w, server.url, 'Ask lore for its status.', {
        extraArgs: ['--allowedTools', status.replace(/__status$/, '')] });
    } finally { await server.close(); }
    assert.equal(r.code, 0, `claude failed: ${r.stderr}`);
    const turns = server.requests().filter((q) => q.kind === 'main');
    assert.equal(turns.length, 2, 'the tool call did not come back');
    const answer = toolResults(turns[1]).at(-1);
    assert.equal(answer.isError, false, answer.text);
    assert.match(answer.text, /consolidation/, answer.text);
  });

  test('without lore on PATH the plugin\'s hooks do nothing, successfully', async () => {
    const server = await serve(w, [{ content: [{ type: 'text', text: 'Hello.' }] }], 'nolore');
    const hidden = fs.mkdtempSync(path.join(w.root, 'nolore-'));
    let r;
    try {
      r = await run(CLAUDE_BIN, ['-p', 'Hello', '--output-format', 'stream-json', '--verbose',
        '--include-hook-events', '--max-turns', '2'],
      { cwd: w.project, env: claudeEnv(w, server.url, { PATH: `${hidden}:/usr/bin:/bin` }), timeoutMs: 60_000 });
    } finally { await server.close(); }
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout.split('\n').filter(Boolean).flatMap((l) => { try { return [JSON.parse(l)]; } catch { return []; } });
    const runs = hookRuns(events);
    assert.ok(runs.SessionStart?.length, 'no SessionStart hook ran');
    for (const list of Object.values(runs)) for (const h of list) assert.equal(h.exit_code ?? 0, 0, JSON.stringify(h));
    // With lore, SessionStart would give the store's briefing: here it gives nothing.
    for (const h of runs.SessionStart) assert.equal(h.output ?? '', '', JSON.stringify(h));
    const main = server.requests().filter((q) => q.kind === 'main');
    assert.ok(main.length >= 1 && !requestText(main[0]).includes(DECISION), 'a lore ran although none is on PATH');
  });
});
