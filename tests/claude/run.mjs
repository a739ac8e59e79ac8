// Runs the real-client tests: node run.mjs <lore build folder>   (the ctest test claude_client)
// Exit 0 when all pass, 1 when one fails, 77 (ctest's skip) when the client is not installed
// outside CI. In CI (CI set) a missing client is a failure, as for the MCP SDK test.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const SKIP = 77;
const TIMEOUT_MS = 170_000;  // the suite takes about 40 s on 2 cores; ctest gives it 180 s

const buildDir = path.resolve(process.argv[2] || path.join(here, '../../build/release'));
if (!fs.existsSync(path.join(buildDir, 'lore'))) {
  console.error(`claude_client: no lore binary in ${buildDir}; usage: node run.mjs <lore build folder>`);
  process.exit(1);
}
if (!fs.existsSync(path.join(here, 'node_modules', '.bin', 'claude'))) {
  const msg = 'tests/claude/node_modules is missing: run (cd tests/claude && npm ci --no-audit --no-fund)';
  if (process.env.CI) { console.error(`claude_client: ${msg} (required in CI)`); process.exit(1); }
  console.log(`claude_client: skipped: ${msg}`);
  process.exit(SKIP);
}

const files = fs.readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => path.join(here, f));
// One file at a time: the benchmark's figures would suffer from a concurrent session.
const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...files],
  { stdio: 'inherit', env: { ...process.env, LORE_BUILD_DIR: buildDir }, detached: true });
const timer = setTimeout(() => {
  console.error(`claude_client: the tests ran over ${TIMEOUT_MS} ms; killed`);
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
}, TIMEOUT_MS);
child.on('close', (code, signal) => {
  clearTimeout(timer);
  process.exit(code === 0 ? 0 : 1);
});
