// The audit hook with the real client: lore init writes its PreToolUse hook with an `if` rule
// (`Bash(*lore propose*)`), so Claude Code starts it for a shell call that names `lore propose`,
// in whatever form (after a cd, a variable, an absolute path, in a chain or a pipe), and for no
// other call; each such call is audited once, and a call that only quotes the words is not.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeWorld, removeWorld, serve, claude, lines, hookRuns, haveClaude, LORE_BIN } from './harness.mjs';

const skip = haveClaude() ? false : 'tests/claude/node_modules is missing: run npm ci in tests/claude';
const text = (t) => ({ type: 'text', text: t });
const tool = (name, input) => ({ type: 'tool_use', name, input });

describe('the audit hook\'s if rule', { skip }, () => {
  let w;
  before(async () => { w = await makeWorld({ lore: true }); });
  after(async () => { await removeWorld(w); });

  test('the client starts the audit hook only for calls naming lore propose', async () => {
    const settings = JSON.parse(fs.readFileSync(path.join(w.project, '.claude', 'settings.json'), 'utf8'));
    const pre = settings.hooks.PreToolUse.flatMap((g) => g.hooks);
    assert.equal(pre.length, 1, JSON.stringify(settings.hooks.PreToolUse));
    assert.equal(pre[0].if, 'Bash(*lore propose*)');

    const propose = (subject) => `propose ${w.project} --type convention --subject "${subject}" ` +
      '--insight "widget.conf needs a port" --evidence "check.sh failed without it" --confidence 0.9 --wave audit-test';
    // [command, the client starts the hook, lore audits it]
    const calls = [
      ['ls -la', false, false],
      ['./check.sh || true', false, false],
      ['git status --short | head -3', false, false],
      [`lore ${propose('plain')}`, true, true],
      [`cd ${w.project} && lore ${propose('after a cd of the checkout')}`, true, true],
      [`mkdir -p sub && cd sub && lore ${propose('in a folder')}`, true, true],
      [`WIDGET_ENV=test lore ${propose('after a variable')}`, true, true],
      [`${LORE_BIN} ${propose('by its path')}`, true, true],
      [`git status --short; lore ${propose('in a chain')} | cat`, true, true],
      ['echo "the next step is lore propose"', true, false],
    ];
    const script = calls.map(([command]) => ({ content: [tool('Bash', { command, description: 'step' })] }));
    script.push({ content: [text('Done.')] });
    const server = await serve(w, script, 'audit');
    let r;
    try {
      r = await claude(w, server.url, 'Queue the lessons.', { format: 'stream-json',
        extraArgs: ['--include-hook-events', '--max-turns', String(calls.length + 4)] });
    } finally { await server.close(); }
    assert.equal(r.code, 0, `claude failed: ${r.stderr}`);
    const result = r.events.find((e) => e.type === 'result');
    assert.equal(result?.is_error, false, JSON.stringify(result));
    assert.equal(server.requests().filter((q) => q.kind === 'main').length, calls.length + 1,
      'every scripted call was made');

    // The client's own report of the hooks it ran: one PreToolUse run per call the rule matches.
    const runs = hookRuns(r.events).PreToolUse || [];
    for (const h of runs) assert.equal(h.exit_code ?? 0, 0, JSON.stringify(h));
    assert.equal(runs.length, calls.filter(([, started]) => started).length,
      `PreToolUse runs: ${JSON.stringify(runs.map((h) => h.hook_name))}`);

    // lore's audit: one record per propose call, none for the call that only quotes the words.
    const audits = lines(path.join(w.store, 'events.jsonl')).map((l) => JSON.parse(l))
      .filter((e) => e.event === 'memory.propose_invoked' && e.session_id === result.session_id);
    assert.equal(audits.length, calls.filter(([, , audited]) => audited).length, JSON.stringify(audits));
    for (const a of audits) assert.equal(a.wave, 'audit-test');
  });
});
