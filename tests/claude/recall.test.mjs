// Recall at the moment it matters, through the real Claude Code client (docs/recall.md): the
// UserPromptSubmit hook's context reaches the model's request for a prompt about the project and
// stays out of one about anything else; the PostToolUse hook's context on a file the model reads
// reaches the next request, once per file per session.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeWorld, removeWorld, serve, claude, lore, requestText, haveClaude } from './harness.mjs';

const skip = haveClaude() ? false : 'tests/claude/node_modules is missing: run npm ci in tests/claude';
const text = (t) => ({ type: 'text', text: t });
const tool = (name, input) => ({ type: 'tool_use', name, input });

const DECISION = 'The load balancer probes port 8080, so widget.conf must set port = 8080 (agreed with ops in W-12).';
const PROMPT_HEADER = 'lore memory on this prompt';
const FILE_HEADER = 'lore memory on widget.conf';

const count = (haystack, needle) => haystack.split(needle).length - 1;

describe('recall through the real Claude Code client', { skip }, () => {
  let w;
  before(async () => {
    w = await makeWorld({ lore: true });
    const made = await lore(w, ['ensure', w.project]);
    assert.equal(made.code, 0, made.stderr);
    const dir = path.join(w.store, 'memory', 'decisions');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'widget-port.md'),
      `---\ncreated_at: 2026-11-02T03:04:05Z\nupdated_at: 2026-11-02T03:04:05Z\nstatus: open\n---\n# The widget's port\n\n${DECISION}\n`);
    const r = await lore(w, ['reindex', w.project]);
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => { await removeWorld(w); });

  test('a prompt about the project gets the decision; an unrelated one gets nothing', async () => {
    const server = await serve(w, [
      { content: [text('It is for the load balancer probe.')] },
      { content: [text('Leaves drift; the year turns.')] },
    ], 'prompt');
    let about; let other;
    try {
      about = await claude(w, server.url, 'Why must widget.conf set port 8080 for the load balancer?');
      other = await claude(w, server.url, 'Write a haiku about autumn leaves falling in the rain.');
    } finally { await server.close(); }
    assert.equal(about.code, 0, about.stderr);
    assert.equal(other.code, 0, other.stderr);
    const main = server.requests().filter((q) => q.kind === 'main');
    assert.equal(main.length, 2);
    const first = requestText(main[0]);
    assert.ok(first.includes(PROMPT_HEADER), `no prompt-time context in: ${first.slice(0, 3000)}`);
    assert.ok(first.includes('memory/decisions/widget-port.md'), 'the item id is not shown');
    assert.ok(first.includes('agreed with ops in W-12'), 'the decision is not in the request');
    const second = requestText(main[1]);
    assert.ok(!second.includes(PROMPT_HEADER), 'an unrelated prompt got lore context');
    // What was shown is counted.
    const stats = await lore(w, ['memory', 'stats', w.project, '--json']);
    const s = JSON.parse(stats.stdout);
    assert.ok(s.top.some((i) => i.id === 'memory/decisions/widget-port.md' && i.shown >= 1), stats.stdout);
  });

  test('reading a file brings what memory says about it, once per session', async () => {
    const conf = path.join(w.project, 'widget.conf');
    const server = await serve(w, [
      { content: [text('Reading the configuration.'), tool('Read', { file_path: conf })] },
      { content: [text('Reading it once more.'), tool('Read', { file_path: conf })] },
      { content: [text('Done reading.')] },
    ], 'file');
    let r;
    try {
      r = await claude(w, server.url, 'Show me the widget configuration.');
    } finally { await server.close(); }
    assert.equal(r.code, 0, r.stderr);
    const main = server.requests().filter((q) => q.kind === 'main');
    assert.equal(main.length, 3);
    const afterFirst = requestText(main[1]);
    assert.ok(afterFirst.includes(FILE_HEADER), `no file context after the Read: ${afterFirst.slice(-3000)}`);
    assert.ok(afterFirst.includes('agreed with ops in W-12'));
    // The second Read of the same file in the same session adds nothing: the context the
    // conversation carries is still the one of the first.
    assert.equal(count(requestText(main[2]), FILE_HEADER), count(afterFirst, FILE_HEADER));
  });
});
