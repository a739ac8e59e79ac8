// The flags a lore model run gives `claude -p` (the claude-code back end of issue 26), checked on
// the real client in a project where lore's hooks ARE installed and the person's own settings
// hold a hook and a CLAUDE.md: the run must offer the model only the given MCP server's tools,
// load no settings, run no hook (so it can never re-enter lore: the recursion guard), read no
// CLAUDE.md, use the given model, and stop at its turn limit.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeWorld, removeWorld, serve, run, claudeEnv, transcriptPath, CLAUDE_BIN, LORE_BIN, haveClaude } from './harness.mjs';

const skip = haveClaude() ? false : 'tests/claude/node_modules is missing: run npm ci in tests/claude';

// The back end's command line: no built-in tool, only this MCP config, no settings source, the
// MCP server's tools allowed (nobody answers a permission prompt), a turn limit, a model, and no
// transcript kept (the run is lore's, not the person's: nothing for /resume or for lore itself).
export function backendArgs(mcpConfig, { maxTurns = 4, model = 'scripted-consolidator' } = {}) {
  return ['-p', 'Consolidate the staged entries.', '--output-format', 'json',
    '--tools', '', '--mcp-config', JSON.stringify(mcpConfig), '--strict-mcp-config',
    '--setting-sources', '', '--allowedTools', 'mcp__run', '--max-turns', String(maxTurns), '--model', model,
    '--no-session-persistence'];
}

describe('the flags of a lore model run through claude -p', { skip }, () => {
  let w; let mcpConfig;
  before(async () => {
    w = await makeWorld({ lore: true });  // project hooks and .mcp.json: must all be ignored
    fs.writeFileSync(path.join(w.project, 'CLAUDE.md'), 'PROJECT-CLAUDE-MD-MARKER\n');
    fs.mkdirSync(path.join(w.home, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(w.home, '.claude', 'CLAUDE.md'), 'USER-CLAUDE-MD-MARKER\n');
    const marker = path.join(w.root, 'user-hook-ran');
    fs.writeFileSync(path.join(w.home, '.claude', 'settings.json'), JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }],
        Stop: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] } }));
    // Any stdio MCP server stands for lore's per-run tool server; lore's own one is at hand.
    mcpConfig = { mcpServers: { run: { command: LORE_BIN, args: ['mcp', '--repo', w.project] } } };
  });
  after(async () => { await removeWorld(w); });

  test('only the given MCP tools, no hook, no CLAUDE.md, the given model; the tool call runs', async () => {
    const server = await serve(w, [
      { content: [{ type: 'tool_use', name: 'mcp__run__status', input: {} }] },
      { content: [{ type: 'text', text: 'consolidated' }] }], 'backend');
    let r;
    try {
      r = await run(CLAUDE_BIN, backendArgs(mcpConfig), { cwd: w.project, env: claudeEnv(w, server.url), timeoutMs: 60_000 });
    } finally { await server.close(); }
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const out = JSON.parse(r.stdout);
    // The result object the back end reads.
    assert.equal(out.type, 'result');
    assert.equal(out.subtype, 'success');
    assert.equal(out.is_error, false);
    assert.equal(out.result, 'consolidated');
    assert.equal(out.num_turns, 2);
    assert.match(out.session_id, /^[0-9a-f-]{36}$/);
    assert.ok(out.usage.input_tokens > 0 && out.usage.output_tokens > 0, JSON.stringify(out.usage));
    assert.deepEqual(out.permission_denials, []);

    const main = server.requests().filter((q) => q.kind === 'main');
    assert.equal(main.length, 2);
    const tools = main[0].body.tools.map((t) => t.name).sort();
    assert.deepEqual(tools, ['capture_review', 'knowledge_search', 'memory_read', 'memory_search',
      'open', 'propose_learning', 'search', 'status'].map((t) => `mcp__run__${t}`));
    assert.equal(main[0].body.model, 'scripted-consolidator');
    const sent = JSON.stringify(main.map((q) => q.body));
    for (const absent of ['PROJECT-CLAUDE-MD-MARKER', 'USER-CLAUDE-MD-MARKER', 'lore memory for', 'mcp__lore__']) {
      assert.ok(!sent.includes(absent), `the run sent ${absent}`);
    }
    const result = main[1].body.messages.at(-1).content.find((b) => b.type === 'tool_result');
    assert.equal(result.is_error ?? false, false, JSON.stringify(result));
    assert.match(JSON.stringify(result.content), /exists/);

    // No hook ran: neither the person's (its marker) nor lore's (no store was created, which
    // SessionEnd's extraction would have done).
    assert.ok(!fs.existsSync(path.join(w.root, 'user-hook-ran')), 'a user hook ran');
    assert.ok(!fs.existsSync(w.store), 'a lore hook ran');
    assert.equal(transcriptPath(w, out.session_id), null, 'a transcript was kept');
  });

  test('the turn limit ends the run with error_max_turns', async () => {
    const server = await serve(w, Array(5).fill({ content: [{ type: 'tool_use', name: 'mcp__run__status', input: {} }] }), 'backend-turns');
    let r;
    try {
      r = await run(CLAUDE_BIN, backendArgs(mcpConfig, { maxTurns: 2 }), { cwd: w.project, env: claudeEnv(w, server.url), timeoutMs: 60_000 });
    } finally { await server.close(); }
    assert.equal(r.code, 1, r.stdout);
    const out = JSON.parse(r.stdout);
    assert.equal(out.subtype, 'error_max_turns');
    assert.equal(out.is_error, true);
    assert.equal(server.requests().filter((q) => q.kind === 'main').length, 2);
    assert.ok(!fs.existsSync(w.store), 'a lore hook ran');
  });
});
