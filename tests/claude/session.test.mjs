// The real Claude Code client in a project set up by `lore init claude-code`: a session whose
// hooks extract and consolidate, the next session briefed by lore and searching its memory
// over MCP, and /compact on the resumed session.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeWorld, removeWorld, serve, claude, settled, transcriptPath, lines, toolResults,
  requestText, haveClaude, hookRuns } from './harness.mjs';
import { fixSession, recallSession, LESSON } from './scripts.mjs';

const skip = haveClaude() ? false : 'tests/claude/node_modules is missing: run npm ci in tests/claude';
const LORE_TOOLS = ['capture_review', 'knowledge_search', 'memory_read', 'memory_search',
  'open', 'propose_learning', 'search', 'status'].map((t) => `mcp__lore__${t}`);

describe('a real Claude Code session with lore installed', { skip }, () => {
  let w; let session1; let s1;
  before(async () => { w = await makeWorld({ lore: true }); });
  after(async () => { await removeWorld(w); });

  test('session 1: a failing command, its fix, a lesson; lore\'s hooks run and capture it', async () => {
    const server = await serve(w, fixSession(w), 'session1');
    let r;
    try {
      // stream-json with hook events: the client itself reports every hook it ran.
      r = await claude(w, server.url, 'Make ./check.sh pass.', { format: 'stream-json',
        extraArgs: ['--include-hook-events'] });
    } finally { await server.close(); }
    assert.equal(r.code, 0, `claude failed: ${r.stderr}`);
    const result = r.events.find((e) => e.type === 'result');
    assert.ok(result, `no result event in: ${r.stdout.slice(-2000)}`);
    assert.equal(result.is_error, false, JSON.stringify(result));
    assert.ok(result.result.includes(LESSON), result.result);
    session1 = result.session_id;

    // The script was played to the end, and the client really ran the tools.
    const main = server.requests().filter((q) => q.kind === 'main');
    assert.equal(main.length, 5, 'one request per scripted step');
    const firstResult = toolResults(main[1]).at(-1);
    assert.equal(firstResult.isError, true);
    assert.match(firstResult.text, /widget\.conf has no port/);
    assert.match(toolResults(main[4]).at(-1).text, /check: ok/);
    assert.match(fs.readFileSync(path.join(w.project, 'widget.conf'), 'utf8'), /^port = 8080$/m);

    // lore's hooks as the client ran them (settings written by lore init): each exit 0.
    const runs = hookRuns(r.events);
    for (const ev of ['SessionStart', 'Stop']) {
      assert.ok(runs[ev]?.length, `no ${ev} hook ran; hook events: ${JSON.stringify(Object.keys(runs))}`);
      for (const h of runs[ev]) assert.equal(h.exit_code ?? 0, 0, JSON.stringify(h));
    }
    // The audit hook's `if` rule: the client starts it for neither ./check.sh (audit.test.mjs).
    assert.equal((runs.PreToolUse || []).length, 0, JSON.stringify(runs.PreToolUse));

    // The transcript is under the test's own HOME.
    const t = transcriptPath(w, session1);
    assert.ok(t && t.startsWith(path.join(w.home, '.claude', 'projects')), `no transcript for ${session1}`);

    // SessionEnd's detached extract and consolidation: the session log, the cursor at the
    // transcript's end, the briefing naming the session and its failing-then-passing check.
    s1 = await settled(w, session1);
    const log = lines(path.join(w.store, 'sessions', `${session1}.jsonl`)).map((l) => JSON.parse(l));
    const checks = log.filter((e) => e.turn === 'tool' && e.input === './check.sh');
    assert.equal(checks.length, 2, JSON.stringify(log));
    const outcomes = log.filter((e) => e.turn === 'result' && checks.some((c) => c.id === e.id)).map((e) => e.status);
    assert.equal(outcomes.length, 2, JSON.stringify(log));
    assert.equal(outcomes[0], 'failed');
    assert.notEqual(outcomes[1], 'failed');
    assert.ok(log.some((e) => e.turn === 'agent' && e.text.includes(LESSON)));
    const summary = fs.readFileSync(path.join(w.store, 'memory', 'summary.md'), 'utf8');
    assert.ok(summary.includes(session1.slice(0, 8)), summary);
    // The failure and its fix became a lesson of the briefing.
    // What the tool printed is quoted: evidence, never an instruction.
    assert.match(summary, /## Lessons\n- `\.\/check\.sh` failed with "check: widget\.conf has no port[^\n]*then worked: `\.\/check\.sh`/, summary);
    assert.equal(s1.status.last_run.outcome, 'ok');
  });

  test('session 2: the first request carries lore\'s briefing; mcp__lore__search returns the lesson', async (t) => {
    if (!session1) return t.skip('session 1 failed');
    const server = await serve(w, recallSession(w), 'session2');
    let r;
    try { r = await claude(w, server.url, 'What do we know about the widget check?'); } finally { await server.close(); }
    assert.equal(r.code, 0, `claude failed: ${r.stderr}`);
    assert.equal(r.json?.is_error, false, r.stdout);
    assert.notEqual(r.json.session_id, session1);
    const main = server.requests().filter((q) => q.kind === 'main');
    assert.equal(main.length, 3);

    // The first request: SessionStart's additionalContext (the briefing of session 1).
    const first = requestText(main[0]);
    assert.ok(first.includes('lore memory for example.org_acme_widget'), 'no lore context in the first request');
    assert.ok(first.includes(session1.slice(0, 8)), 'the briefing does not name session 1');
    assert.ok(first.includes('## Lessons\\n- `./check.sh` failed'), 'the briefing\'s lesson is not in the first request');
    // ... and lore's eight MCP tools offered directly.
    const tools = main[0].body.tools.map((x) => x.name);
    for (const name of LORE_TOOLS) assert.ok(tools.includes(name), `${name} not offered: ${tools.join(',')}`);

    // The search's answer, as the client sent it back to the model.
    const found = toolResults(main[1]).at(-1);
    assert.equal(found.isError, false, found.text);
    // lore's answer: {hits: [{scope, file, excerpt, ...}]}, the lesson and the failed run among
    // them, from session 1's log.
    const hits = JSON.parse(found.text).hits;
    const from1 = hits.filter((h) => h.file === `sessions/${session1}.jsonl`);
    assert.ok(from1.some((h) => h.excerpt.includes(LESSON)), found.text.slice(0, 2000));
    assert.ok(from1.some((h) => h.excerpt.includes('check: widget.conf has no port (add: port = 8080)')), found.text.slice(0, 2000));

    // PreToolUse audited the propose call made through the shell (the store exists now).
    const events = lines(path.join(w.store, 'events.jsonl')).map((l) => JSON.parse(l));
    const audit = events.find((e) => e.event === 'memory.propose_invoked' && e.session_id === r.json.session_id);
    assert.ok(audit, JSON.stringify(events));
    assert.equal(audit.wave, 'claude-test');
    assert.ok(audit.argv_truncated.includes('[REDACTED]'));
    await settled(w, r.json.session_id);
  });

  test('/compact on the resumed session 1 runs PreCompact and loses nothing', async (t) => {
    if (!session1) return t.skip('session 1 failed');
    const tPath = transcriptPath(w, session1);
    const before = lines(tPath);
    const logPath = path.join(w.store, 'sessions', `${session1}.jsonl`);
    const logBefore = lines(logPath);
    const server = await serve(w, [], 'compact');
    let r;
    try {
      r = await claude(w, server.url, '/compact', { resume: session1, format: 'stream-json',
        extraArgs: ['--include-hook-events'] });
    } finally { await server.close(); }
    assert.equal(r.code, 0, `claude failed: ${r.stderr}`);
    const result = r.events.find((e) => e.type === 'result');
    assert.equal(result?.is_error, false, JSON.stringify(result));
    assert.equal(result.session_id, session1);
    const kinds = server.requests().map((q) => q.kind);
    assert.ok(kinds.includes('compact'), `no summary request: ${kinds}`);
    assert.ok(!kinds.includes('main'), `a conversation turn was requested: ${kinds}`);

    // The client reports PreCompact hooks in the compaction's own output (not as hook events).
    const said = r.events.filter((e) => e.type === 'user').map((e) => JSON.stringify(e.message?.content ?? ''));
    assert.ok(said.some((x) => /PreCompact \[[^\]]*lore hook pre-compact\] completed successfully/.test(x)),
      `PreCompact did not run: ${said.join('\n')}`);
    const runs = hookRuns(r.events);
    // SessionStart(compact) re-injects lore's context after the compaction.
    assert.ok((runs.SessionStart || []).some((h) => /after the compaction/.test(h.output || '')),
      JSON.stringify(runs.SessionStart));

    // Nothing lost: the transcript keeps every line it had, the cursor reaches its new end,
    // and the session log keeps every event it had, in order, and has grown.
    const afterLines = lines(tPath);
    assert.ok(afterLines.length > before.length);
    assert.deepEqual(afterLines.slice(0, before.length), before);
    const s = await settled(w, session1);
    assert.equal(s.cursor.line, afterLines.length);
    const logAfter = lines(logPath);
    assert.deepEqual(logAfter.slice(0, logBefore.length), logBefore);
    assert.ok(logAfter.length > logBefore.length, 'the compaction\'s lines were not extracted');
  });
});
