// A day with lore (issue 40), through the real client: what a person who ran only
// `lore init claude-code` meets. lore's MCP tools are allowed by the settings init wrote, so a
// headless session's propose_learning call succeeds with no --allowedTools naming lore, and the
// proposal is queued.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeWorld, removeWorld, serve, claude, settled, haveClaude, toolResults, lore } from './harness.mjs';

const skip = haveClaude() ? false : 'tests/claude/node_modules is missing: run npm ci in tests/claude';
const tool = (name, input) => ({ type: 'tool_use', name, input });
const PROPOSAL = {
  type: 'recurring-issue',
  subject: 'widget.conf needs a port line',
  insight: 'check.sh fails until widget.conf sets port = 8080, which the load balancer probes.',
  evidence: 'check.sh failed with "widget.conf has no port", then passed once the port was set.',
  confidence: 0.9,
};

describe('a day with lore', { skip }, () => {
  let w;
  before(async () => { w = await makeWorld(); });
  after(async () => { await removeWorld(w); });

  test('lore init allowed lore\'s MCP tools in the settings it wrote', () => {
    const settings = JSON.parse(fs.readFileSync(path.join(w.project, '.claude', 'settings.json'), 'utf8'));
    assert.deepEqual(settings.permissions.allow, ['mcp__lore']);
    assert.match(w.initOutput, /lore's MCP tools run without a permission prompt/);
  });

  test('a headless session\'s propose_learning succeeds without --allowedTools naming lore', async () => {
    const server = await serve(w, [
      { content: [{ type: 'text', text: 'Proposing the lesson.' }, tool('mcp__lore__propose_learning', PROPOSAL)] },
      { content: [{ type: 'text', text: 'Queued for review.' }] },
    ], 'day-propose');
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
    assert.match(result.text, /queued/, result.text);
    const queued = await lore(w, ['proposals', w.project, '--json']);
    assert.equal(queued.code, 0, queued.stderr);
    const queue = JSON.parse(queued.stdout).queue;
    assert.equal(queue.length, 1, queued.stdout);
    assert.equal(queue[0].subject, PROPOSAL.subject);
    await settled(w, r.json.session_id);
  });
});
