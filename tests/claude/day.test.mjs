// A day with lore (issue 40), through the real client: what a person who ran only
// `lore init claude-code` meets. lore's MCP tools are allowed by the settings init wrote, so a
// headless session's propose_learning call succeeds with no --allowedTools naming lore, and the
// proposal is queued. Claude Code applies the permission rules of a project's shared
// .claude/settings.json only in a folder the person has trusted (its first interactive start asks);
// those of the local scope (settings.local.json, the person's own) at once.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeWorld, removeWorld, serve, claude, settled, haveClaude, toolResults, lore, worldEnv, run, LORE_BIN } from './harness.mjs';

const skip = haveClaude() ? false : 'tests/claude/node_modules is missing: run npm ci in tests/claude';
const tool = (name, input) => ({ type: 'tool_use', name, input });
const PROPOSAL = {
  type: 'recurring-issue',
  subject: 'widget.conf needs a port line',
  insight: 'check.sh fails until widget.conf sets port = 8080, which the load balancer probes.',
  evidence: 'check.sh failed with "widget.conf has no port", then passed once the port was set.',
  confidence: 0.9,
};

// One headless session whose model calls propose_learning, with no mcp__lore in --allowedTools:
// the call must succeed and the proposal be queued.
async function proposeHeadless(w, subject) {
  const server = await serve(w, [
    { content: [{ type: 'text', text: 'Proposing the lesson.' }, tool('mcp__lore__propose_learning', { ...PROPOSAL, subject })] },
    { content: [{ type: 'text', text: 'Queued for review.' }] },
  ], `propose-${subject.length}`);
  let r;
  try {
    r = await claude(w, server.url, 'Remember the widget port lesson.', { allowedTools: 'Bash Read Edit Write' });
  } finally { await server.close(); }
  assert.equal(r.code, 0, `claude failed: ${r.stderr}`);
  assert.equal(r.json?.is_error, false, r.stdout);
  assert.deepEqual(r.json.permission_denials, [], JSON.stringify(r.json.permission_denials));
  const main = server.requests().filter((q) => q.kind === 'main');
  assert.equal(main.length, 2);
  const result = toolResults(main[1]).at(-1);
  assert.equal(result.isError, false, result.text);
  assert.match(result.text, /"status":"queued"/, result.text);
  const queued = await lore(w, ['proposals', w.project, '--json']);
  assert.equal(queued.code, 0, queued.stderr);
  assert.ok(JSON.parse(queued.stdout).queue.some((p) => p.subject === subject), queued.stdout);
  await settled(w, r.json.session_id);
}

describe('a day with lore', { skip }, () => {
  let w;
  before(async () => { w = await makeWorld(); });
  after(async () => { await removeWorld(w); });

  test('lore init allowed lore\'s MCP tools in the settings it wrote', () => {
    const settings = JSON.parse(fs.readFileSync(path.join(w.project, '.claude', 'settings.json'), 'utf8'));
    assert.deepEqual(settings.permissions.allow, ['mcp__lore']);
    assert.match(w.initOutput, /lore's MCP tools run without a permission prompt \(permissions\.allow "mcp__lore" in \.claude\/settings\.json\)/);
  });

  test('project scope, a trusted folder: propose_learning succeeds without --allowedTools naming lore', async () => {
    // What the first interactive start in the project records once the person trusts the folder.
    const state = path.join(w.home, '.claude.json');
    const json = fs.existsSync(state) ? JSON.parse(fs.readFileSync(state, 'utf8')) : {};
    json.projects = { ...(json.projects || {}), [fs.realpathSync(w.project)]: { hasTrustDialogAccepted: true } };
    fs.writeFileSync(state, JSON.stringify(json, null, 2));
    await proposeHeadless(w, 'widget.conf needs a port line');
  });
});

describe('a day with lore, the local scope', { skip }, () => {
  let w;
  before(async () => {
    w = await makeWorld({ lore: false });
    const r = await run(LORE_BIN, ['init', 'claude-code', '--scope', 'local'], { cwd: w.project, env: worldEnv(w) });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /permissions\.allow "mcp__lore" in \.claude\/settings\.local\.json/);
  });
  after(async () => { await removeWorld(w); });

  test('an untrusted folder: propose_learning succeeds without --allowedTools naming lore', async () => {
    await proposeHeadless(w, 'widget.conf needs a port line (local)');
  });
});
