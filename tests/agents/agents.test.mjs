// The other agents' real CLIs, installed from npm (pinned), read what `lore init codex|gemini|
// opencode` wrote, offline: each lists lore's MCP server as lore wrote it (Gemini CLI and
// OpenCode also start it and report it connected); Codex and Gemini CLI ignore it in a folder
// not trusted, as lore init and --check say, and read it once the entry lore printed is added. Cursor has no CLI on npm: its file is checked
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

  test('Gemini CLI shows lore Disabled in an untrusted folder, as lore init says, and connects once trusted', async () => {
    const first = await init(w, 'gemini');
    assert.match(first.out, /Gemini CLI ignores lore's MCP server until this folder is trusted/, first.out);
    assert.match(first.out, /trustedFolders\.json/, first.out);
    const untrusted = await run(path.join(BIN, 'gemini'), ['mcp', 'list'], { cwd: w.project, env: w.env });
    assert.match(untrusted.out + untrusted.err, /lore: lore mcp \(stdio\) - Disabled/, untrusted.out + untrusted.err);
    const check = await run(LORE, ['init', '--check', 'gemini', '--project', w.project], { cwd: w.project, env: w.env });
    assert.equal(check.code, 1, check.out);
    assert.match(check.out, /untrusted folder/, check.out);
    // The entry lore init printed, added as the person would.
    const entry = first.out.split('\n').map((l) => l.trim()).find((l) => l.endsWith('"TRUST_FOLDER"'));
    assert.ok(entry, first.out);
    fs.mkdirSync(path.join(w.home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(w.home, '.gemini', 'trustedFolders.json'), `{\n  ${entry}\n}\n`);
    const r = await run(path.join(BIN, 'gemini'), ['mcp', 'list'], { cwd: w.project, env: w.env });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out + r.err, /lore: lore mcp \(stdio\) - Connected/, r.out + r.err);
    const trusted = await run(LORE, ['init', '--check', 'gemini', '--project', w.project], { cwd: w.project, env: w.env });
    assert.equal(trusted.code, 0, trusted.out);
    assert.match(trusted.out, /trusted +folder/, trusted.out);
  });

  test('Codex lists nothing from an untrusted project\'s .codex/, and lore once trusted as lore init says', async () => {
    const p = world();
    try {
      const first = await init(p, 'codex', '--scope', 'project');
      assert.match(first.out, /Codex ignores lore's project entries/, first.out);
      fs.mkdirSync(path.join(p.home, '.codex'), { recursive: true });  // CODEX_HOME must exist
      const codex = () => run(path.join(BIN, 'codex'), ['mcp', 'list', '--json'], { cwd: p.project, env: p.env });
      const before = await codex();
      assert.equal(before.code, 0, before.err);
      assert.equal(JSON.parse(before.out).find((s) => s.name === 'lore'), undefined, before.out);
      const check = await run(LORE, ['init', '--check', 'codex', '--project', p.project], { cwd: p.project, env: p.env });
      assert.equal(check.code, 1, check.out);
      assert.match(check.out, /untrusted folder/, check.out);
      // The table lore init printed, added to ~/.codex/config.toml as the person would.
      const lines = first.out.split('\n').map((l) => l.trim());
      const at = lines.findIndex((l) => l.startsWith('[projects.'));
      assert.ok(at >= 0, first.out);
      fs.mkdirSync(path.join(p.home, '.codex'), { recursive: true });
      fs.appendFileSync(path.join(p.home, '.codex', 'config.toml'), `${lines[at]}\n${lines[at + 1]}\n`);
      const after = await codex();
      assert.equal(after.code, 0, after.err);
      const lore = JSON.parse(after.out).find((s) => s.name === 'lore');
      assert.ok(lore, `no lore once trusted: ${after.out}`);
      assert.equal(lore.enabled, true);
      const trusted = await run(LORE, ['init', '--check', 'codex', '--project', p.project], { cwd: p.project, env: p.env });
      assert.equal(trusted.code, 0, trusted.out);
      assert.match(trusted.out, /trusted +folder/, trusted.out);
    } finally {
      fs.rmSync(p.root, { recursive: true, force: true });
    }
  });

  test('OpenCode lists lore\'s server from opencode.json and connects to it', async () => {
    await init(w, 'opencode');
    const r = await run(path.join(BIN, 'opencode'), ['mcp', 'list'], { cwd: w.project, env: w.env });
    assert.equal(r.code, 0, r.err);
    const text = r.out.replace(/\x1b\[[0-9;]*m/g, '');
    assert.match(text, /lore\s+connected/, text);
  });
});
