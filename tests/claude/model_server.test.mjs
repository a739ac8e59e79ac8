// The scripted server on its own (no client needed): the shapes it answers, what it counts as
// a script step, its faults and its bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startModelServer, readLog, classify } from './model_server.mjs';

const tools = [{ name: 'Bash', input_schema: { type: 'object' } }];
const turn = (extra = {}) => ({ model: 'm', max_tokens: 100, tools, messages: [{ role: 'user', content: 'hi' }], ...extra });

async function withServer(script, fn) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lore-model-server-'));
  const logPath = path.join(dir, 'log.jsonl');
  const s = await startModelServer({ script, logPath });
  try { await fn(s, logPath); } finally { await s.close(); fs.rmSync(dir, { recursive: true, force: true }); }
}
const post = (s, body, p = '/v1/messages', headers = {}) => fetch(s.url + p, { method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': 'sekrit', ...headers }, body: JSON.stringify(body),
  signal: AbortSignal.timeout(5000) });

// Parses an event stream into [{event, data}].
function events(text) {
  return text.split('\n\n').filter(Boolean).map((block) => {
    const ev = /^event: (.*)$/m.exec(block)[1];
    const data = JSON.parse(/^data: (.*)$/m.exec(block)[1]);
    assert.equal(data.type, ev);
    return { event: ev, data };
  });
}

test('a streamed reply: message_start, one start/delta/stop per block, message_delta, message_stop', async () => {
  const step = { content: [{ type: 'text', text: 'Running it.' }, { type: 'tool_use', name: 'Bash', input: { command: 'ls -l' } }] };
  await withServer([step], async (s) => {
    const res = await post(s, turn({ stream: true }));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /text\/event-stream/);
    const ev = events(await res.text());
    assert.deepEqual(ev.map((e) => e.event), ['message_start', 'ping',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop']);
    const start = ev[0].data.message;
    assert.deepEqual([start.role, start.content, start.stop_reason], ['assistant', [], null]);
    assert.ok(start.usage.input_tokens > 0);
    const text = ev.filter((e) => e.data.index === 0 && e.event === 'content_block_delta').map((e) => e.data.delta.text).join('');
    assert.equal(text, 'Running it.');
    assert.equal(ev[6].data.content_block.type, 'tool_use');
    assert.equal(ev[6].data.content_block.name, 'Bash');
    assert.match(ev[6].data.content_block.id, /^toolu_/);
    const json = ev.filter((e) => e.data.index === 1 && e.event === 'content_block_delta').map((e) => e.data.delta.partial_json).join('');
    assert.deepEqual(JSON.parse(json), { command: 'ls -l' });
    assert.equal(ev[10].data.delta.stop_reason, 'tool_use');
    assert.ok(ev[10].data.usage.output_tokens > 0);
  });
});

test('a plain reply, side requests that consume no step, the end of the script', async () => {
  await withServer([{ content: [{ type: 'text', text: 'first' }] }], async (s, logPath) => {
    const title = await (await post(s, { model: 'small', max_tokens: 50, messages: [{ role: 'user', content: 'title?' }] })).json();
    assert.equal(title.content[0].type, 'text');
    const count = await (await post(s, turn(), '/v1/messages/count_tokens')).json();
    assert.ok(count.input_tokens > 0);
    const first = await (await post(s, turn())).json();
    assert.deepEqual([first.type, first.role, first.content[0].text, first.stop_reason], ['message', 'assistant', 'first', 'end_turn']);
    assert.ok(first.usage.input_tokens > 0 && first.usage.output_tokens > 0);
    const after = await (await post(s, turn())).json();
    assert.equal(after.content[0].text, 'done');
    const log = readLog(logPath);
    assert.deepEqual(log.map((r) => r.kind), ['side', 'count_tokens', 'main', 'main']);
    assert.equal(log[2].headers['x-api-key'], '[secret]');
    assert.equal(log[2].body.messages[0].content, 'hi');
  });
});

test('faults: 429 and 500 with a short retry-after, a malformed body, a hang that the client ends', async () => {
  await withServer([{ status: 429 }, { status: 500 }, { malformed: true }, { hang: true }], async (s) => {
    const r429 = await post(s, turn());
    assert.equal(r429.status, 429);
    assert.equal(r429.headers.get('retry-after-ms'), '1');
    assert.equal((await r429.json()).error.type, 'rate_limit_error');
    assert.equal((await post(s, turn())).status, 500);
    const bad = await post(s, turn());
    assert.equal(bad.status, 200);
    await assert.rejects(bad.json());
    await assert.rejects(fetch(s.url + '/v1/messages', { method: 'POST', body: JSON.stringify(turn()), signal: AbortSignal.timeout(300) }));
  });
});

test('bounds: an oversized body is 413, an unknown path 404, a non-POST answered', async () => {
  await withServer([], async (s) => {
    const big = turn({ messages: [{ role: 'user', content: 'x'.repeat(9 * 1024 * 1024) }] });
    assert.equal((await post(s, big)).status, 413);
    assert.equal((await post(s, turn(), '/v1/other')).status, 404);
    assert.equal((await fetch(s.url + '/', { method: 'HEAD', signal: AbortSignal.timeout(5000) })).status, 200);
  });
});

test('classify: by what the request is, not by its wording', () => {
  assert.equal(classify('/v1/messages/count_tokens', turn()), 'count_tokens');
  assert.equal(classify('/v1/messages', { ...turn(), max_tokens: 1 }), 'quota');
  assert.equal(classify('/v1/messages', { ...turn(), tools: [] }), 'side');
  assert.equal(classify('/v1/messages', turn()), 'main');
  const compact = turn({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Your task is to create a detailed summary of the conversation so far ... <summary>' }] },
    { role: 'system', content: 'hook context' }] });
  assert.equal(classify('/v1/messages', compact), 'compact');
  assert.equal(classify('/v1/messages', { nope: 1 }), 'invalid');
});
