// The real client against a server that fails: rate limits, server errors, a hung answer, a
// broken one. Each session must end within bounds, retried where the client retries, and lore's
// hooks must still have run and left a whole store.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeWorld, removeWorld, serve, claude, settled, lines, haveClaude } from './harness.mjs';
import { faultSession } from './scripts.mjs';

const skip = haveClaude() ? false : 'tests/claude/node_modules is missing: run npm ci in tests/claude';

describe('the real client against faults', { skip }, () => {
  let w;
  before(async () => { w = await makeWorld({ lore: true }); });
  after(async () => { await removeWorld(w); });

  // Plays faults then one good answer; returns the run, the main requests and the session.
  async function play(faults, prompt, env = {}) {
    const server = await serve(w, faultSession(faults), `faults-${Date.now()}`);
    let r;
    try { r = await claude(w, server.url, prompt, { env }); } finally { await server.close(); }
    return { r, main: server.requests().filter((q) => q.kind === 'main') };
  }

  // The session's lines are all in lore's session log and the store checks clean.
  async function hooksRan(sessionId) {
    const s = await settled(w, sessionId);
    const log = lines(path.join(w.store, 'sessions', `${sessionId}.jsonl`)).map((l) => JSON.parse(l));
    const spans = log.filter((e) => e.turn === 'span');
    assert.equal(spans.at(-1).lines[1], s.transcriptLines, JSON.stringify(spans));
    return log;
  }

  test('429 then 500 then a good answer: retried, the session completes, hooks ran', async () => {
    const started = Date.now();
    const { r, main } = await play([{ status: 429 }, { status: 500 }], 'Say something after the faults.');
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(r.json.is_error, false, r.stdout);
    assert.equal(r.json.result, 'recovered after the faults');
    assert.equal(main.length, 3);
    // The same request, retried by Claude Code's own loop (the SDK's x-stainless-retry-count
    // stays 0: the client retries above the SDK).
    assert.deepEqual(main[1].body.messages, main[0].body.messages);
    assert.deepEqual(main[2].body.messages, main[0].body.messages);
    assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
    const log = await hooksRan(r.json.session_id);
    assert.ok(log.some((e) => e.turn === 'agent' && e.text === 'recovered after the faults'));
  });

  test('a hung answer: the client gives up after API_TIMEOUT_MS and retries', async () => {
    const started = Date.now();
    const { r, main } = await play([{ hang: true }], 'Say something after the hang.', { API_TIMEOUT_MS: '3000' });
    const ms = Date.now() - started;
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(r.json.result, 'recovered after the faults');
    assert.equal(main.length, 2);
    assert.ok(ms >= 3000 && ms < 20_000, `took ${ms} ms`);
    await hooksRan(r.json.session_id);
  });

  test('a malformed event stream, then a good answer', async () => {
    const { r, main } = await play([{ malformed: true }], 'Say something after the broken answer.');
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(r.json.result, 'recovered after the faults');
    // A stream that cannot be parsed makes the client ask again without streaming: the
    // server's plain JSON answer is the one that completes the turn.
    assert.equal(main.length, 2);
    assert.equal(main[0].body.stream, true);
    assert.equal(main[1].body.stream, false);
    await hooksRan(r.json.session_id);
  });

  test('500 on every attempt: one error result within bounds; lore still captures the session', async () => {
    const started = Date.now();
    const { r, main } = await play(Array(10).fill({ status: 500 }), 'This one fails.', { CLAUDE_CODE_MAX_RETRIES: '2' });
    const ms = Date.now() - started;
    assert.equal(r.json?.is_error, true, r.stdout + r.stderr);
    assert.equal(r.json.api_error_status, 500, r.stdout);
    assert.equal(main.length, 3, 'the first attempt and two retries');
    assert.ok(ms < 20_000, `took ${ms} ms`);
    const log = await hooksRan(r.json.session_id);
    assert.ok(log.some((e) => e.turn === 'person' && e.text === 'This one fails.'));
    const check = await import('./harness.mjs').then((h) => h.lore(w, ['check', w.project]));
    assert.equal(check.code, 0, check.stdout + check.stderr);
  });
});
