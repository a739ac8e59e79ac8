// The hooks' share of a real session: the same scripted session (a failing check, its fix, the
// check passing, a lesson) timed in a project set up by `lore init claude-code` (five hooks and
// lore's MCP server) and in one without lore, runs interleaved, medians printed as
//   claude-bench: hooks on median X ms, off median Y ms, share Z%
// A third project has lore's hooks but not its MCP server (.mcp.json removed), to tell the
// hooks' part from the MCP server's start and handshake.
// The wall time is the `claude -p` process's, start to exit (SessionEnd hooks included); lore's
// detached extraction after it is not part of the session and is waited for between runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeWorld, removeWorld, serve, claude, settled, median, haveClaude, PROJECT_FILES } from './harness.mjs';
import { fixSession } from './scripts.mjs';

const skip = haveClaude() ? false : 'tests/claude/node_modules is missing: run npm ci in tests/claude';
const RUNS = Number(process.env.LORE_CLAUDE_BENCH_RUNS || 5);

test('claude-bench: a scripted session with lore\'s hooks against none', { skip }, async () => {
  const on = await makeWorld({ lore: true });
  const off = await makeWorld({ lore: false });
  const hooksOnly = await makeWorld({ lore: true });
  fs.rmSync(path.join(hooksOnly.project, '.mcp.json'));
  const times = { on: [], off: [], hooksOnly: [] };
  try {
    for (let i = 0; i < RUNS; i++) {
      // The order turns each round, so that none of the three always runs first.
      const order = [['on', on], ['off', off], ['hooksOnly', hooksOnly]];
      for (let k = 0; k < i % 3; k++) order.push(order.shift());
      for (const [name, w] of order) {
        // The same starting point each run: the check failing again.
        fs.writeFileSync(path.join(w.project, 'widget.conf'), PROJECT_FILES['widget.conf']);
        const server = await serve(w, fixSession(w), `bench-${name}-${i}`);
        let r;
        try { r = await claude(w, server.url, 'Make ./check.sh pass.'); } finally { await server.close(); }
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.json?.is_error, false, r.stdout);
        times[name].push(r.ms);
        if (name !== 'off') await settled(w, r.json.session_id);
      }
    }
  } finally {
    await removeWorld(on);
    await removeWorld(off);
    await removeWorld(hooksOnly);
  }
  const mOn = median(times.on); const mOff = median(times.off);
  const share = ((mOn - mOff) / mOn) * 100;
  const mHooks = median(times.hooksOnly);
  const ms = (xs) => xs.map((x) => x.toFixed(0)).join('/');
  console.log(`claude-bench: hooks on median ${mOn.toFixed(0)} ms, off median ${mOff.toFixed(0)} ms, share ${share.toFixed(1)}% (${RUNS} runs each; on ${ms(times.on)}, off ${ms(times.off)})`);
  // Paired by round (the machine's load drifts between rounds more than within one).
  const paired = median(times.on.map((x, i) => x - times.off[i]));
  const pairedHooks = median(times.hooksOnly.map((x, i) => x - times.off[i]));
  console.log(`claude-bench: paired by round, lore installed adds a median ${paired.toFixed(0)} ms, its hooks alone ${pairedHooks.toFixed(0)} ms`);
  console.log(`claude-bench: hooks without lore's MCP server median ${mHooks.toFixed(0)} ms, share ${(((mHooks - mOff) / mHooks) * 100).toFixed(1)}% (${ms(times.hooksOnly)})`);
});
