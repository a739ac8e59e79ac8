// Drives `lore mcp` with the official MCP TypeScript SDK client, then with
// raw JSON-RPC lines for the errors a well-behaved client never sends.
//
//   node tests/mcp/client.mjs <path-to-lore>
//
// Exits 0 when every check passes; prints "N passed, N failed" last.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const lore = process.argv[2];
if (!lore) {
  console.error('usage: node client.mjs <path-to-lore>');
  process.exit(2);
}

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name} ${detail}`);
  }
}
async function expectThrow(name, fn, codeWanted) {
  try {
    await fn();
    check(name, false, 'no error');
  } catch (e) {
    check(name, e.code === codeWanted, `code ${e.code}: ${e.message}`);
  }
}

// A demonstration checkout and its store.
const base = mkdtempSync(join(tmpdir(), 'lore-mcp-'));
process.on('exit', () => rmSync(base, { recursive: true, force: true }));
const home = join(base, 'stores');
const repo = join(base, 'widgets');
mkdirSync(join(repo, '.git'), { recursive: true });
writeFileSync(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/widgets.git\n');
const env = { ...process.env, LORE_HOME: home };
delete env.LORE_WAVE;
const run = (args, input) => execFileSync(lore, args, { env, input, cwd: repo }).toString();
run(['append-review', repo], JSON.stringify({ ticket: 'W-1', finding: 'cache key ignores the locale', severity: 'major' }));
const store = join(home, 'github.com_acme_widgets');
mkdirSync(join(store, 'memory', 'decisions'), { recursive: true });
mkdirSync(join(store, 'knowledge'), { recursive: true });
writeFileSync(join(store, 'memory', 'summary.md'),
  '---\nupdated_at: 2026-10-01T00:00:00Z\n---\nThe widgets service caches rendered pages.\n');
writeFileSync(join(store, 'memory', 'decisions', 'use-sqlite.md'),
  '---\ncreated_at: 2026-10-01T00:00:00Z\nupdated_at: 2026-10-01T00:00:00Z\nsources: []\nstatus: open\n---\n' +
  '# Use SQLite for the search index\n\nFTS5 gives bm25 ranking without a server.\n');
writeFileSync(join(store, 'knowledge', 'migrations.md'),
  '---\ncreated_at: 2026-10-01T00:00:00Z\nupdated_at: 2026-10-01T00:00:00Z\nkind: rule\n' +
  'description: How schema migrations ship\nmodel_invokation: false\nuser_invocable: true\nlast_sources: []\n---\n' +
  'Ship every schema migration separately from the code that needs it.\n');
writeFileSync(join(store, 'learnings.jsonl'), JSON.stringify({
  id: '0b8f7a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', created_at: '2026-10-01T00:00:00.000Z', wave_id: 'W1',
  type: 'convention', subject: 'Locale belongs in every cache key', insight: 'Keys without the locale serve the wrong language',
  evidence: 'W-1', confidence: 0.9, schema_version: 1, source_session: 's1', scope: 'local', occurrences: 1,
  _provenance: 'agent-proposed@W1', expires_at: '2099-01-01T00:00:00.000Z', host_class: null, anonymized: false }) + '\n' +
  JSON.stringify({  // expired: counted apart, never offered
    id: '1c9e8b9f-2d3e-4f60-9bac-1d2e3f4a5b6c', created_at: '2026-01-01T00:00:00.000Z', wave_id: 'W0',
    type: 'gotcha', subject: 'An old workaround', insight: 'No longer needed', evidence: 'W-0', confidence: 0.5,
    schema_version: 1, source_session: 's0', scope: 'local', occurrences: 1, _provenance: 'agent-proposed@W0',
    expires_at: '2026-02-01T00:00:00.000Z', host_class: null, anonymized: false }) + '\n');
run(['distill', repo]);

// 1. The SDK client.
const transport = new StdioClientTransport({ command: lore, args: ['mcp', '--repo', repo], env, stderr: 'inherit' });
const client = new Client({ name: 'lore-test-client', version: '1.0.0' });
await client.connect(transport);
check('initialize: server name', client.getServerVersion()?.name === 'lore', JSON.stringify(client.getServerVersion()));
check('initialize: tools and resources capabilities',
  !!client.getServerCapabilities()?.tools && !!client.getServerCapabilities()?.resources);
check('initialize: instructions', (client.getInstructions() ?? '').includes('memory_search'));
await client.ping();
check('ping', true);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
check('tools/list names', JSON.stringify(names) === JSON.stringify(
  ['capture_review', 'knowledge_search', 'memory_read', 'memory_search', 'open', 'propose_learning', 'search', 'status']), JSON.stringify(names));
check('tools/list schemas', tools.every((t) => t.inputSchema?.type === 'object' && t.description));

const call = async (name, args) => client.callTool({ name, arguments: args });
let r = await call('memory_search', { query: 'sqlite ranking' });
check('memory_search finds the decision',
  !r.isError && r.structuredContent?.hits?.[0]?.slug === 'use-sqlite' && r.structuredContent.hits[0].kind === 'decision',
  JSON.stringify(r));
check('memory_search hit shape', JSON.stringify(Object.keys(r.structuredContent.hits[0])) === '["slug","kind","excerpt","id","size"]');
{
  const hit = r.structuredContent.hits[0];
  const opened = await call('open', { id: hit.id });
  check('open gives the hit whole by its id',
    !opened.isError && opened.structuredContent?.id === hit.id && opened.structuredContent.text.length === hit.size,
    JSON.stringify(opened));
  const refused = await call('open', { id: '../../etc/passwd' });
  check('open refuses an id outside the store', refused.isError === true, JSON.stringify(refused));
}
check('memory_search text content is the same JSON', JSON.parse(r.content[0].text).hits.length === r.structuredContent.hits.length);

r = await call('knowledge_search', { query: 'schema migration', kind: 'rule' });
const k = r.structuredContent?.hits?.[0];
check('knowledge_search', !r.isError && k?.slug === 'migrations' && k.description === 'How schema migrations ship' &&
  k.model_invokation === false, JSON.stringify(r));
r = await call('knowledge_search', { query: 'schema migration', kind: 'policy' });
check('knowledge_search kind filter', r.structuredContent?.hits?.length === 0, JSON.stringify(r));

r = await call('memory_read', { kind: 'decision', slug: 'use-sqlite' });
check('memory_read', !r.isError && r.structuredContent.text.includes('FTS5 gives bm25'), JSON.stringify(r));
r = await call('memory_read', { kind: 'summary' });
check('memory_read summary', !r.isError && r.structuredContent.text.includes('caches rendered pages'), JSON.stringify(r));
r = await call('memory_read', { kind: 'decision', slug: 'no-such-thing' });
check('memory_read missing record is a tool error', r.isError === true, JSON.stringify(r));

r = await call('propose_learning', {
  type: 'convention', subject: 'Bind SQL parameters', insight: 'never build SQL by concatenation',
  evidence: 'review W-1', confidence: 0.8, file_paths: ['src/db.cc'], wave: 'w1',
});
check('propose_learning queues', !r.isError && r.structuredContent.status === 'queued' && r.structuredContent.position === '1/5',
  JSON.stringify(r));
r = await call('propose_learning', {
  type: 'convention', subject: 's', insight: 'i', evidence: 'e', confidence: 0.1, wave: 'w1',
});
check('propose_learning below the floor', r.structuredContent?.status === 'rejected-low-confidence', JSON.stringify(r));
r = await call('propose_learning', { type: 'not-a-type', subject: 's', insight: 'i', evidence: 'e', confidence: 0.9 });
check('propose_learning bad type is a tool error', r.isError === true && r.content[0].text.includes('type'), JSON.stringify(r));

r = await call('capture_review', { record: { ticket: 'W-2', finding: 'retry loop never backs off', severity: 'minor' } });
check('capture_review appends', !r.isError && r.structuredContent.status === 'appended' && r.structuredContent.line === 2,
  JSON.stringify(r));

// The one search for agents: every scope, the hit shape of `lore search --json`.
r = await call('search', { query: 'cache key locale' });
const scopes = new Set((r.structuredContent?.hits ?? []).map((h) => h.scope));
check('search all finds raw and learnings', !r.isError && scopes.has('raw') && scopes.has('learnings'), JSON.stringify(r));
check('search hit shape', JSON.stringify(Object.keys(r.structuredContent.hits[0]).slice(0, 3)) === '["scope","slug","kind"]',
  JSON.stringify(r.structuredContent.hits[0]));
for (const [scope, query, want] of [['memory', 'sqlite', 'use-sqlite'], ['knowledge', 'migrations', 'migrations'],
  ['learnings', 'locale', '0b8f7a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b'], ['raw', 'retry loop', 'raw.jsonl:2'], ['okf', 'locale', null]]) {
  r = await call('search', { query, scope, limit: 5 });
  const hits = r.structuredContent?.hits ?? [];
  check(`search scope ${scope}`, !r.isError && hits.length > 0 && hits.every((h) => h.scope === undefined || h.scope === scope) &&
    (want === null || hits[0].slug === want), JSON.stringify(r));
}
r = await call('search', { query: 'x', scope: 'everything' });
check('search bad scope is a schema error', r.isError === true && r.content[0].text.includes('not one of'), JSON.stringify(r));
r = await call('search', { query: 'x', limit: 101 });
check('search limit over 100 is a schema error', r.isError === true && r.content[0].text.includes('maximum'), JSON.stringify(r));

r = await call('status', {});
const s = r.structuredContent;
check('status', !r.isError && s.key === 'github.com_acme_widgets' && s.raw_records === 2 && s.pending_proposals === 1 &&
  s.learnings === 1 && s.expired_learnings === 1 &&
  s.memory.decisions === 1 && s.memory.knowledge === 1 && s.okf_pages.includes('index.md'), JSON.stringify(r));
// One shape: the tool's consolidation is what `lore status --json` prints.
const cliStatus = JSON.parse(run(['status', repo, '--json']));
check('status consolidation is lore status --json',
  !r.isError && JSON.stringify(s.consolidation) === JSON.stringify(cliStatus) &&
  s.consolidation.running === null && s.consolidation.stale_lock === false &&
  s.consolidation.thresholds.files > 0 && 'failed_extract' in s.consolidation,
  JSON.stringify(s.consolidation) + ' vs ' + JSON.stringify(cliStatus));

const { resources } = await client.listResources();
const uris = resources.map((x) => x.uri);
check('resources/list', uris.includes('lore://okf/index.md') && uris.includes('lore://memory/summary.md') &&
  uris.includes('lore://okf/gotchas.md'), JSON.stringify(uris));
const page = await client.readResource({ uri: 'lore://okf/index.md' });
check('resources/read index', page.contents[0].text.startsWith('---\ntitle: github.com_acme_widgets memory\n') &&
  page.contents[0].mimeType === 'text/markdown');
await expectThrow('resources/read unknown', () => client.readResource({ uri: 'lore://okf/../raw.jsonl' }), -32002);

await expectThrow('unknown tool', () => call('no_such_tool', {}), -32602);
r = await call('memory_search', { query: 'x'.repeat(1000000) });
check('1 MB argument is a tool error', r.isError === true && r.content[0].text.includes('longer than 1000'), JSON.stringify(r).slice(0, 300));
r = await call('memory_search', {});
check('missing argument is a tool error', r.isError === true && r.content[0].text.includes("missing required argument 'query'"));
r = await call('memory_search', { query: 'sqlite' });
check('still serving after errors', !r.isError && r.structuredContent.hits.length > 0);
await client.close();

// 2. Raw lines: what the SDK never sends.
async function raw(lines, revision = '2025-11-25') {
  const child = spawn(lore, ['mcp', '--repo', repo], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const replies = [];
  const rl = createInterface({ input: child.stdout });
  rl.on('line', (l) => replies.push(JSON.parse(l)));
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  for (const l of [JSON.stringify(init), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), ...lines]) {
    child.stdin.write(l + '\n');
  }
  child.stdin.end();
  await new Promise((resolve) => child.on('close', resolve));
  return replies;
}
const ping = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
let out = await raw(['{"jsonrpc":"2.0","id":1,"method":', ping(2), '[1,2', '{"id":3,"method":"ping"}', ping(4),
  JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'no/such/method' }), ping(6),
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'nope' } }), ping(8),
  JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'status', arguments: 'x' } }),
  JSON.stringify([{ jsonrpc: '2.0', id: 10, method: 'ping' }]), ping(11)]);
const byId = (id) => out.find((m) => m.id === id);
check('raw: initialize answers 2025-11-25', byId(0)?.result?.protocolVersion === '2025-11-25', JSON.stringify(out[0]));
check('raw: parse error -32700', out.filter((m) => m.id === null && m.error?.code === -32700).length === 2, JSON.stringify(out));
check('raw: serving after a parse error', byId(2)?.result !== undefined && byId(4)?.result !== undefined);
check('raw: invalid request -32600', byId(3)?.error?.code === -32600, JSON.stringify(byId(3)));
check('raw: unknown method -32601', byId(5)?.error?.code === -32601, JSON.stringify(byId(5)));
check('raw: unknown tool -32602', byId(7)?.error?.code === -32602, JSON.stringify(byId(7)));
check('raw: bad params -32602', byId(9)?.error?.code === -32602, JSON.stringify(byId(9)));
check('raw: no batches in 2025-11-25', out.some((m) => m.id === null && m.error?.code === -32600 && m.error.message.includes('batch')));
check('raw: serving to the end', byId(11)?.result !== undefined, JSON.stringify(out.slice(-2)));

const huge = JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'memory_search', arguments: { query: 'y'.repeat(2 * 1024 * 1024) } }, id: 21 });
out = await raw([huge, ping(22)]);
check('raw: 2 MB message answered -32600 with its id', byId(21)?.error?.code === -32600, JSON.stringify(out).slice(0, 300));
check('raw: serving after a 2 MB message', byId(22)?.result !== undefined);

out = await raw([JSON.stringify([ping(31), { jsonrpc: '2.0', method: 'notifications/x' }, ping(32)].map((x) => (typeof x === 'string' ? JSON.parse(x) : x)))], '2025-03-26');
check('raw: 2025-03-26 negotiated', byId(0)?.result?.protocolVersion === '2025-03-26');
const batch = out.find((m) => Array.isArray(m));
check('raw: batch answered in 2025-03-26', Array.isArray(batch) && batch.length === 2 && batch[0].id === 31 && batch[1].id === 32, JSON.stringify(out));
out = await raw([], '1999-01-01');
check('raw: unknown revision answered with the latest', byId(0)?.result?.protocolVersion === '2025-11-25');
out = await raw([JSON.stringify({ jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 'memory_search', arguments: {} } })], '2025-06-18');
check('raw: invalid arguments are -32602 before 2025-11-25', byId(41)?.error?.code === -32602, JSON.stringify(byId(41)));

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
