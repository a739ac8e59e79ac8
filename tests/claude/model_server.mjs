// A scripted Anthropic Messages API server on loopback, for running the real Claude Code CLI
// without a network. It plays a script (an ordered list of replies and faults) to the client's
// main conversation requests, answers its side requests (titles, topic checks, quota probes,
// token counts) with a short harmless text that consumes no step, and appends every request it
// receives to a log file, one JSON line each, so that tests can assert on what the client sent.
//
// As a module: `startModelServer({script, logPath})` resolves to {port, url, close()}.
// As a program: `node model_server.mjs --script FILE --log FILE [--port-file FILE]` prints
// `listening <port>` on stdout (and writes the port to --port-file), and serves until killed.
//
// Script (JSON): {"steps": [step, ...]} or just [step, ...]. A step is one of:
//   {"content": [{"type":"text","text":"..."},
//                {"type":"tool_use","name":"Bash","input":{"command":"false"}}, ...]}
//                               a reply; stop_reason is tool_use when it holds a tool_use
//   {"status": 429} / {"status": 500} / {"status": 529}   an error answer (with retry-after-ms: 1)
//   {"hang": true}               accept the request and never answer (until the client gives up)
//   {"malformed": true}          a 200 whose body is not valid JSON / not a valid event stream
// When the steps run out, every main request is answered "done" with stop_reason end_turn.
import http from 'node:http';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

const MAX_BODY = 8 * 1024 * 1024;  // Claude Code's requests are ~100 KB; 8 MiB is ample
const REQUEST_TIMEOUT_MS = 30_000; // a client that stalls mid-body is dropped
const HANG_CAP_MS = 120_000;       // a "hang" step still ends, so the server can always close
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie']);

// What kind of request this is. Claude Code sends, besides the conversation itself:
// - POST /v1/messages/count_tokens (token counting, by path);
// - small requests that offer no tools: session titles, "is this a new topic" checks, prompt
//   suggestions, and quota probes (max_tokens 1). The agent loop always offers its tools, so a
//   request without tools is never a turn of the conversation the script plays;
// - /compact's summary request. Claude Code 2.1.332 sends it with the same tools, headers and
//   options as a conversation turn (sharing the prompt cache), so it can only be told by what it
//   asks: its last user message ends with a text asking for the conversation's summary inside
//   <summary> tags, where a turn ends with the person's prompt or tool results. It is answered
//   with a summary and consumes no step. (Without a <summary> in the answer the client asks
//   again, once.)
export function classify(path, body) {
  if (path.endsWith('/count_tokens')) return 'count_tokens';
  if (!body || typeof body !== 'object' || !Array.isArray(body.messages)) return 'invalid';
  if (body.max_tokens === 1) return 'quota';
  const tools = Array.isArray(body.tools) ? body.tools : [];
  if (tools.length === 0) return 'side';
  if (asksForSummary(body.messages)) return 'compact';
  return 'main';
}

function asksForSummary(messages) {
  // The last user message: hook context (SessionStart after a resume) may follow it as a
  // message of role system.
  const last = [...messages].reverse().find((m) => m && m.role === 'user');
  if (!last) return false;
  const blocks = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  const tail = Array.isArray(blocks) ? blocks[blocks.length - 1] : null;
  if (!tail || tail.type !== 'text' || typeof tail.text !== 'string') return false;
  return tail.text.includes('<summary>') && /summary of the conversation/i.test(tail.text);
}

function loadScript(script) {
  const s = typeof script === 'string' ? JSON.parse(fs.readFileSync(script, 'utf8')) : script;
  const steps = Array.isArray(s) ? s : (s && Array.isArray(s.steps) ? s.steps : null);
  if (!steps) throw new Error('script must be an array of steps or {"steps": [...]}');
  return steps;
}

let idCounter = 0;
const newId = (prefix) => `${prefix}_${Date.now().toString(36)}${(idCounter++).toString(36).padStart(4, '0')}`;

// The blocks of a reply, with ids given to tool_use blocks that have none.
function replyBlocks(content) {
  return content.map((b) => {
    if (b.type === 'tool_use') return { type: 'tool_use', id: b.id || newId('toolu'), name: b.name, input: b.input || {} };
    if (b.type === 'text') return { type: 'text', text: String(b.text) };
    throw new Error(`unsupported block type in script: ${b.type}`);
  });
}

const approxTokens = (s) => Math.max(1, Math.ceil(Buffer.byteLength(s) / 4));

function messageOf(blocks, model, inputTokens) {
  const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const outputTokens = approxTokens(JSON.stringify(blocks));
  return {
    id: newId('msg'), type: 'message', role: 'assistant', model: model || 'scripted-model',
    content: blocks, stop_reason: stop, stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: outputTokens },
  };
}

function sendJson(res, status, obj, headers = {}) {
  const body = JSON.stringify(obj);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
    'request-id': newId('req'), ...headers });
  res.end(body);
}

// The event stream of a whole message, as the Messages API sends it: message_start (content
// empty, usage with input tokens), then per block content_block_start / _delta / _stop, then
// message_delta (stop_reason and the output token count) and message_stop.
function sendStream(res, msg) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache',
    connection: 'keep-alive', 'request-id': newId('req') });
  const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  ev('message_start', { message: { ...msg, content: [], stop_reason: null, stop_sequence: null,
    usage: { input_tokens: msg.usage.input_tokens, output_tokens: 1 } } });
  ev('ping', {});
  msg.content.forEach((b, index) => {
    if (b.type === 'text') {
      ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
      // Two deltas, so that the client's accumulation of text is exercised.
      const cut = Math.floor(b.text.length / 2);
      for (const part of [b.text.slice(0, cut), b.text.slice(cut)]) {
        if (part) ev('content_block_delta', { index, delta: { type: 'text_delta', text: part } });
      }
    } else {
      ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      const json = JSON.stringify(b.input);
      const cut = Math.floor(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)]) {
        ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
      }
    }
    ev('content_block_stop', { index });
  });
  ev('message_delta', { delta: { stop_reason: msg.stop_reason, stop_sequence: null },
    usage: { output_tokens: msg.usage.output_tokens } });
  ev('message_stop', {});
  res.end();
}

function sendError(res, status) {
  const type = { 400: 'invalid_request_error', 404: 'not_found_error', 413: 'request_too_large',
    429: 'rate_limit_error', 529: 'overloaded_error' }[status] || 'api_error';
  // retry-after-ms keeps the client's backoff short (the SDK reads it before retry-after).
  sendJson(res, status, { type: 'error', error: { type, message: `scripted ${status}` } },
    status === 429 || status >= 500 ? { 'retry-after-ms': '1', 'retry-after': '0' } : {});
}

export async function startModelServer({ script = [], logPath, host = '127.0.0.1', port = 0 } = {}) {
  const steps = loadScript(script);
  let next = 0;
  const hanging = new Set();
  const log = (rec) => { if (logPath) fs.appendFileSync(logPath, JSON.stringify(rec) + '\n'); };

  const server = http.createServer((req, res) => {
    const chunks = [];
    let size = 0;
    let tooBig = false;
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy());
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) { tooBig = true; return; }
      chunks.push(c);
    });
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      const headers = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = SECRET_HEADERS.has(k) ? '[secret]' : v;
      if (tooBig) { log({ method: req.method, path: url.pathname, headers, kind: 'too_big', size }); return sendError(res, 413); }
      let body = null;
      const text = Buffer.concat(chunks).toString('utf8');
      try { body = text ? JSON.parse(text) : null; } catch { body = null; }
      const rec = { t: Date.now(), method: req.method, path: url.pathname, headers, body };
      if (req.method !== 'POST') {
        log({ ...rec, kind: 'other' });
        // HEAD / GET probes (connectivity checks) get an empty 200.
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(req.method === 'HEAD' ? undefined : '{}');
      }
      if (!url.pathname.startsWith('/v1/messages')) { log({ ...rec, kind: 'other' }); return sendError(res, 404); }
      const kind = classify(url.pathname, body);
      const inputTokens = approxTokens(text);
      if (kind === 'invalid') { log({ ...rec, kind }); return sendError(res, 400); }
      if (kind === 'count_tokens') { log({ ...rec, kind }); return sendJson(res, 200, { input_tokens: inputTokens }); }
      let step;
      if (kind === 'main') {
        step = next < steps.length ? steps[next] : { content: [{ type: 'text', text: 'done' }] };
        log({ ...rec, kind, step: next < steps.length ? next : null });
        if (next < steps.length) next += 1;
      } else {
        log({ ...rec, kind });
        const text = kind === 'compact'
          ? '<analysis>Scripted.</analysis>\n<summary>Scripted summary of the conversation so far.</summary>'
          : kind === 'quota' ? 'ok' : 'Scripted session';
        step = { content: [{ type: 'text', text }] };
      }
      if (step.status) return sendError(res, step.status);
      if (step.hang) {
        hanging.add(res);
        const t = setTimeout(() => res.destroy(), HANG_CAP_MS);
        res.on('close', () => { clearTimeout(t); hanging.delete(res); });
        return;
      }
      if (step.malformed) {
        if (body.stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return res.end('event: message_start\ndata: {"type":"message_start","message":{not json\n\n');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"id": "msg_broken", "content": [');
      }
      const msg = messageOf(replyBlocks(step.content || []), body.model, inputTokens);
      return body.stream ? sendStream(res, msg) : sendJson(res, 200, msg);
    });
  });
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  await new Promise((resolve, reject) => { server.once('error', reject); server.listen(port, host, resolve); });
  const actual = server.address().port;
  return {
    port: actual,
    url: `http://${host}:${actual}`,
    stepsPlayed: () => next,
    close: () => new Promise((resolve) => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}

// Reads the request log written by a server: one object per line.
export function readLog(logPath) {
  if (!fs.existsSync(logPath)) return [];
  return fs.readFileSync(logPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
  const s = await startModelServer({ script: arg('--script') || [], logPath: arg('--log') });
  if (arg('--port-file')) fs.writeFileSync(arg('--port-file'), `${s.port}\n`);
  process.stdout.write(`listening ${s.port}\n`);
  const stop = () => s.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
