// The other agents' real CLIs, installed from npm (pinned), read what `lore init codex|gemini|
// opencode` wrote, offline: each lists lore's MCP server as lore wrote it (Gemini CLI and
// OpenCode also start it and report it connected). Cursor has no CLI on npm: its file is checked
// by tests/e2e/init_agents_test.cpp only.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, 'node_modules', '.bin');
const LORE_DIR = process.env.LORE_BUILD_DIR || path.resolve(here, '../../build/release');
const LORE = path.join(LORE_DIR, 'lore');

function run(cmd, args, { cwd, env, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = ''; let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, timeoutMs);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, out, err }); });
  });
}

// A world: its own HOME and XDG folders, a git project, lore on PATH; no network is needed.
function world() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-agents-'));
  const w = { root, home: path.join(root, 'home'), project: path.join(root, 'widget') };
  fs.mkdirSync(w.home, { recursive: true });
  fs.mkdirSync(w.project, { recursive: true });
  spawnSync('git', ['init', '-q', w.project]);
  spawnSync('git', ['-C', w.project, 'remote', 'add', 'origin', 'https://example.org/acme/widget.git']);
  w.env = {
    PATH: `${LORE_DIR}:/usr/local/bin:/usr/bin:/bin`, HOME: w.home, LORE_HOME: path.join(root, 'stores'),
    XDG_CONFIG_HOME: path.join(w.home, '.config'), XDG_DATA_HOME: path.join(w.home, '.local/share'),
    XDG_CACHE_HOME: path.join(w.home, '.cache'), XDG_STATE_HOME: path.join(w.home, '.local/state'),
    TMPDIR: process.env.TMPDIR || os.tmpdir(), LANG: 'C.UTF-8', TZ: 'UTC',
    // No update checks, telemetry or other traffic.
    NO_UPDATE_NOTIFIER: '1', CODEX_HOME: path.join(w.home, '.codex'), GEMINI_CLI_NO_RELAUNCH: 'true',
    OPENCODE_DISABLE_AUTOUPDATE: 'true', OPENCODE_DISABLE_MODELS_FETCH: 'true',
  };
  return w;
}

async function init(w, ...args) {
  const r = await run(LORE, ['init', ...args, '--project', w.project], { cwd: w.project, env: w.env });
  assert.equal(r.code, 0, `lore init ${args.join(' ')}: ${r.out}${r.err}`);
  const again = await run(LORE, ['init', ...args, '--project', w.project], { cwd: w.project, env: w.env });
  assert.match(again.out, /up to date/, 'a second lore init changed something');
  return r;
}

describe('the other agents read what lore init wrote', () => {
  let w;
  before(() => { w = world(); });
  after(() => { fs.rmSync(w.root, { recursive: true, force: true }); });

  test('Codex lists lore\'s server from ~/.codex/config.toml', async () => {
    await init(w, 'codex', '--scope', 'user');
    const r = await run(path.join(BIN, 'codex'), ['mcp', 'list', '--json'], { cwd: w.project, env: w.env });
    assert.equal(r.code, 0, r.err);
    const servers = JSON.parse(r.out);
    const lore = servers.find((s) => s.name === 'lore');
    assert.ok(lore, `no lore in: ${r.out}`);
    assert.equal(lore.enabled, true);
    assert.equal(lore.transport.command, 'lore');
    assert.deepEqual(lore.transport.args, ['mcp']);
    // A config.toml lore refuses, Codex refuses too.
    const bad = path.join(w.root, 'bad-home');
    fs.mkdirSync(path.join(bad, '.codex'), { recursive: true });
    fs.writeFileSync(path.join(bad, '.codex', 'config.toml'), '[mcp_servers\n');
    const refused = await run(path.join(BIN, 'codex'), ['mcp', 'list', '--json'],
      { cwd: w.project, env: { ...w.env, HOME: bad, CODEX_HOME: path.join(bad, '.codex') } });
    assert.notEqual(refused.code, 0, 'codex accepted a malformed config.toml');
  });

  test('Gemini CLI lists lore\'s server from .gemini/settings.json and connects to it', async () => {
    await init(w, 'gemini');
    // Gemini CLI starts a project's servers only in a folder the person trusts.
    fs.mkdirSync(path.join(w.home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(w.home, '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [fs.realpathSync(w.project)]: 'TRUST_FOLDER' }));
    const r = await run(path.join(BIN, 'gemini'), ['mcp', 'list'], { cwd: w.project, env: w.env });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out + r.err, /lore: lore mcp \(stdio\) - Connected/, r.out + r.err);
  });

  test('OpenCode lists lore\'s server from opencode.json and connects to it', async () => {
    await init(w, 'opencode');
    const r = await run(path.join(BIN, 'opencode'), ['mcp', 'list'], { cwd: w.project, env: w.env });
    assert.equal(r.code, 0, r.err);
    const text = r.out.replace(/\x1b\[[0-9;]*m/g, '');
    assert.match(text, /lore\s+connected/, text);
  });
});
