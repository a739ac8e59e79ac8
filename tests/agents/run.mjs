// Runs the other agents' real CLIs against the files `lore init` writes:
//   node run.mjs <lore build folder>   (the ctest test agent_clis)
// Exit 0 when all pass, 1 when one fails, 77 (ctest's skip) when the CLIs are not installed
// outside CI. In CI (CI set) missing CLIs are a failure, as for the Claude Code client.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const buildDir = path.resolve(process.argv[2] || path.join(here, '../../build/release'));
if (!fs.existsSync(path.join(buildDir, 'lore'))) {
  console.error(`agent_clis: no lore binary in ${buildDir}; usage: node run.mjs <lore build folder>`);
  process.exit(1);
}
if (!fs.existsSync(path.join(here, 'node_modules', '.bin', 'codex'))) {
  const msg = 'tests/agents/node_modules is missing: run (cd tests/agents && npm install --no-save --no-audit --no-fund)';
  if (process.env.CI) { console.error(`agent_clis: ${msg} (required in CI)`); process.exit(1); }
  console.log(`agent_clis: skipped: ${msg}`);
  process.exit(77);
}
const child = spawn(process.execPath, ['--test', '--test-concurrency=1', path.join(here, 'agents.test.mjs')],
  { stdio: 'inherit', env: { ...process.env, LORE_BUILD_DIR: buildDir }, detached: true });
const timer = setTimeout(() => {
  console.error('agent_clis: the tests ran over 170 s; killed');
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
}, 170_000);
child.on('close', (code) => { clearTimeout(timer); process.exit(code === 0 ? 0 : 1); });
