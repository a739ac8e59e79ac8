// The driver of the real-client tests: a throwaway world (HOME, a git project, lore's store
// root), lore set up in it by `lore init claude-code`, the scripted model server, and the real
// `claude` CLI run headless against that server. Nothing here reaches the network: the client's
// only endpoint is the loopback server, and its non-essential traffic is switched off.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer, readLog } from './model_server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CLAUDE_BIN = process.env.LORE_TEST_CLAUDE || path.join(here, 'node_modules', '.bin', 'claude');
// The lore build folder (lore, lore-llm, ...): run.mjs sets it from its argument.
export const LORE_DIR = process.env.LORE_BUILD_DIR || path.resolve(here, '../../build/release');
export const LORE_BIN = path.join(LORE_DIR, 'lore');

const OUTPUT_CAP = 4 * 1024 * 1024;   // stdout/stderr kept per child
export const CLAUDE_TIMEOUT_MS = 60_000;  // one `claude -p` run; a scripted one takes about 1 s
const SHORT_TIMEOUT_MS = 20_000;      // git, lore

export function haveClaude() { return fs.existsSync(CLAUDE_BIN); }

// Runs a program to its end with a timeout; the process group is killed when it runs over.
export function run(cmd, args, { cwd, env, input, timeoutMs = SHORT_TIMEOUT_MS } = {}) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    // stdin is /dev/null unless input is given: `claude -p` reads a piped stdin into its prompt.
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const out = []; const err = [];
    let outN = 0; let errN = 0; let timedOut = false;
    child.stdout.on('data', (c) => { if (outN < OUTPUT_CAP) { out.push(c); outN += c.length; } });
    child.stderr.on('data', (c) => { if (errN < OUTPUT_CAP) { err.push(c); errN += c.length; } });
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); resolve({ code: -1, stdout: '', stderr: String(e), ms: 0, timedOut }); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms, timedOut });
    });
    if (input !== undefined) {
      child.stdin.on('error', () => { /* the child may exit without reading: its result says why */ });
      child.stdin.end(input);
    }
  });
}

function git(cwd, ...args) {
  const r = spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.org', ...args],
    { cwd, encoding: 'utf8', timeout: SHORT_TIMEOUT_MS });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

// The project every scripted session works on: a check script that fails until widget.conf
// names a port, committed in a repository whose origin gives lore its store key.
export const PROJECT_FILES = {
  'check.sh': '#!/bin/sh\n# Checks the widget configuration.\ngrep -q "^port *= *[0-9]" widget.conf || { echo "check: widget.conf has no port (add: port = 8080)" >&2; exit 1; }\necho "check: ok"\n',
  'widget.conf': 'name = widget\n',
};
export const REMOTE = 'https://example.org/acme/widget.git';
export const STORE_KEY = 'example.org_acme_widget';

// A world: its own HOME (so ~/.claude and ~/.claude.json are the test's), a git project and a
// store root. With `lore: true` the project is set up by `lore init claude-code`.
export async function makeWorld({ lore = true } = {}) {
  if (!fs.existsSync(LORE_BIN)) throw new Error(`no lore binary at ${LORE_BIN}: set LORE_BUILD_DIR (run.mjs takes it as its argument)`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-claude-'));
  const w = { root, home: path.join(root, 'home'), project: path.join(root, 'widget'),
    loreHome: path.join(root, 'stores'), logs: path.join(root, 'logs') };
  for (const d of [w.home, w.project, w.loreHome, w.logs]) fs.mkdirSync(d, { recursive: true });
  w.store = path.join(w.loreHome, STORE_KEY);
  try {
    await setUp(w, lore);
  } catch (e) {
    fs.rmSync(root, { recursive: true, force: true });  // a world that failed to be made
    throw e;
  }
  return w;
}

async function setUp(w, lore) {
  git(w.project, 'init', '-q', '-b', 'main');
  git(w.project, 'remote', 'add', 'origin', REMOTE);
  for (const [f, text] of Object.entries(PROJECT_FILES)) fs.writeFileSync(path.join(w.project, f), text);
  fs.chmodSync(path.join(w.project, 'check.sh'), 0o755);
  git(w.project, 'add', '.');
  git(w.project, 'commit', '-q', '-m', 'The widget and its check');
  if (lore) {
    const r = await run(LORE_BIN, ['init', 'claude-code'], { cwd: w.project, env: worldEnv(w) });
    if (r.code !== 0) throw new Error(`lore init claude-code failed: ${r.stdout}${r.stderr}`);
    w.initOutput = r.stdout;
  }
}

// Removes the world once no process of it is left. A process still there after 10 s (a lore
// child that hangs) is killed, by its pid, and reported: a test must not leave one behind.
export async function removeWorld(w) {
  if (!w) return [];
  const deadline = Date.now() + 10_000;
  let left = processesOf(w);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesOf(w);
  }
  for (const p of left) { try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ } }
  if (!process.env.LORE_TEST_KEEP) fs.rmSync(w.root, { recursive: true, force: true });
  if (left.length) throw new Error(`processes left running by the test, killed: ${JSON.stringify(left)}`);
  return left;
}

// The environment of every child: only what it needs, nothing inherited that could point the
// client at a real account or endpoint (ANTHROPIC_*, CLAUDE_*, proxies).
export function worldEnv(w, extra = {}) {
  const env = {
    PATH: `${LORE_DIR}:${process.env.PATH || '/usr/bin:/bin'}`,  // the hooks run `lore` from PATH
    HOME: w.home,
    LORE_HOME: w.loreHome,
    XDG_CONFIG_HOME: path.join(w.home, '.config'),
    XDG_CACHE_HOME: path.join(w.home, '.cache'),
    TMPDIR: process.env.TMPDIR || os.tmpdir(),
    LANG: 'C.UTF-8',
    TZ: 'UTC',
  };
  // CI, and the sanitizer settings of the ASan build's run (scripts/test.sh), reach lore's hooks.
  for (const k of ['CI', 'ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS']) if (process.env[k]) env[k] = process.env[k];
  return { ...env, ...extra };
}

// The client's environment against the scripted server at `url`.
export function claudeEnv(w, url, extra = {}) {
  return worldEnv(w, {
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'test-key',
    // No telemetry, error reporting, auto-update or other traffic besides the model requests.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // MCP tools are offered to the model directly, not behind the ToolSearch tool (which the
    // client turns on for a first-party-looking endpoint): the script calls mcp__lore__search.
    ENABLE_TOOL_SEARCH: 'false',
    // A hung answer is given up quickly; faults are retried at once (retry-after-ms).
    API_TIMEOUT_MS: '15000',
    CLAUDE_CODE_MAX_RETRIES: '3',
    ...extra,
  });
}

// The tools a session may use without a permission prompt (there is nobody to answer one): what
// a person would allow in their settings, given on the command line. `allowedTools` replaces it
// for one run (day.test.mjs leaves mcp__lore out: lore init's settings allow it).
export const ALLOWED_TOOLS = 'Bash Read Edit Write mcp__lore';

// One `claude -p` run against the server at `url`. Resolves to the run with `json`, the parsed
// --output-format json result (null when stdout is not one JSON object).
export async function claude(w, url, prompt, { resume, extraArgs = [], env = {}, timeoutMs = CLAUDE_TIMEOUT_MS, format = 'json', allowedTools = ALLOWED_TOOLS } = {}) {
  const args = ['-p', prompt, '--output-format', format, '--allowedTools', allowedTools, '--max-turns', '12'];
  if (format === 'stream-json') args.push('--verbose');
  if (resume) args.push('--resume', resume);
  args.push(...extraArgs);
  const r = await run(CLAUDE_BIN, args, { cwd: w.project, env: claudeEnv(w, url, env), timeoutMs });
  r.json = null;
  if (format === 'json') { try { r.json = JSON.parse(r.stdout); } catch { /* left null */ } }
  if (format === 'stream-json') r.events = r.stdout.split('\n').filter(Boolean).flatMap((l) => { try { return [JSON.parse(l)]; } catch { return []; } });
  return r;
}

// Starts a model server for one scripted session; its request log is in the world's logs.
export async function serve(w, script, name = 'requests') {
  const logPath = path.join(w.logs, `${name}.jsonl`);
  const s = await startModelServer({ script, logPath });
  s.logPath = logPath;
  s.requests = () => readLog(logPath);
  return s;
}

// The transcript Claude Code wrote for a session under the world's HOME.
export function transcriptPath(w, sessionId) {
  const projects = path.join(w.home, '.claude', 'projects');
  if (!fs.existsSync(projects)) return null;
  for (const d of fs.readdirSync(projects)) {
    const p = path.join(projects, d, `${sessionId}.jsonl`);
    if (fs.existsSync(p)) return p;
  }
  return null;
}

export const lines = (p) => fs.readFileSync(p, 'utf8').split('\n').filter(Boolean);

export async function lore(w, args, opts = {}) {
  return run(LORE_BIN, args, { cwd: w.project, env: worldEnv(w), ...opts });
}

// Waits until lore's detached work for a session has settled: its extract cursor stands at the
// transcript's last line, nothing is staged and no consolidation runs. The hooks return at once
// and leave the extraction and consolidation to a detached child, so this is how a test knows
// the session's effects are all in the store. Resolves to the cursor, or throws after timeoutMs.
export async function settled(w, sessionId, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  const cursorPath = path.join(w.store, 'extract', `${sessionId}.json`);
  let why = '';
  while (Date.now() < deadline) {
    const t = transcriptPath(w, sessionId);
    const total = t ? lines(t).length : -1;
    let cursor = null;
    try { cursor = JSON.parse(fs.readFileSync(cursorPath, 'utf8')); } catch { /* not yet */ }
    if (cursor && cursor.line === total) {
      // The cursor moves after the entry is written aside (staging/.pending) and before it is
      // published and consolidated; a range with nothing to extract moves the cursor and stages
      // nothing. So: settled when nothing is aside, nothing staged, no consolidation running and
      // no lore process of this world is left (the distill that follows a consolidation).
      const pendingDir = path.join(w.store, 'staging', '.pending');
      const aside = fs.existsSync(pendingDir) ? fs.readdirSync(pendingDir).length : 0;
      const st = await lore(w, ['status', w.project, '--json']);
      let s = null;
      try { s = JSON.parse(st.stdout); } catch { /* retried */ }
      const procs = processesOf(w);
      if (s && aside === 0 && s.running === null && s.staged.files === 0 && procs.length === 0) {
        return { cursor, status: s, transcriptLines: total };
      }
      why = `aside ${aside}, processes ${JSON.stringify(procs)}, status ${st.stdout.trim()}`;
    } else {
      why = `cursor at line ${cursor ? cursor.line : 'none'}, transcript has ${total} lines`;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`lore did not settle for session ${sessionId} within ${timeoutMs} ms: ${why}`);
}

// The processes still running whose command line names the world's folder (lore's detached
// extract, consolidate and distill children, a `lore mcp` the client left): [{pid, cmd}].
export function processesOf(w) {
  const found = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    let cmd = '';
    try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '); } catch { continue; }
    let cwd = '';
    try { cwd = fs.readlinkSync(`/proc/${pid}/cwd`); } catch { /* not ours to read */ }
    if (cmd.includes(w.root) || cwd.startsWith(w.root)) found.push({ pid: Number(pid), cmd: cmd.slice(0, 200) });
  }
  return found;
}

// The text of every tool_result block in a request's messages.
export function toolResults(request) {
  const out = [];
  for (const m of request.body?.messages || []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      const c = typeof b.content === 'string' ? b.content
        : Array.isArray(b.content) ? b.content.map((x) => x.text || '').join('\n') : '';
      out.push({ id: b.tool_use_id, isError: !!b.is_error, text: c });
    }
  }
  return out;
}

// Everything a request carries as text (system prompt and messages), for "does it contain X".
export function requestText(request) {
  return JSON.stringify([request.body?.system ?? null, request.body?.messages ?? null]);
}

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };

// The hook events Claude Code reports with --include-hook-events: each hook command's run and
// exit code, by event.
export function hookRuns(events) {
  const runs = {};
  for (const e of events) {
    if (e.type !== 'system' || e.subtype !== 'hook_response') continue;
    (runs[e.hook_event] ||= []).push(e);
  }
  return runs;
}
