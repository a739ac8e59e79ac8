#!/usr/bin/env bash
# Installs what lore needs, builds it twice (Release with gcc; clang with AddressSanitizer +
# UBSan and the libFuzzer targets), runs the whole test suite on the first and the tests labelled
# `asan` on the second (cmake/TestPlan.cmake), then the fuzzers from the second tree.  This is
# what CI runs (docs/testing.md, "What CI runs").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The MCP client test runs on the official TypeScript SDK, from the npm registry.
if [ ! -d tests/mcp/node_modules ]; then
  (cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
# The real-client tests (ctest claude_client) run the Claude Code CLI, pinned, from the npm registry.
if [ ! -d tests/claude/node_modules ]; then
  (cd tests/claude && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
# The other agents' CLIs (ctest agent_clis): Codex, Gemini CLI and OpenCode, pinned, from npm.
# `npm install --no-save` from the lockfile: `npm ci` refuses it, since opencode-ai names its
# other platforms' binaries without versions, which npm leaves out of the lockfile.
if [ ! -d tests/agents/node_modules ]; then
  (cd tests/agents && npm install --no-save --no-audit --no-fund --loglevel=error >/dev/null)
fi
# The page in a real browser (ctest serve_browser): puppeteer-core, pinned, driving Debian's chromium.
if [ ! -d tests/serve/node_modules ]; then
  (cd tests/serve && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

# Each step prints when it started: the whole run must stay within 30 minutes on 2 cores.
started=$(date +%s)
step() { echo "== $1 (at $(( $(date +%s) - started )) s)"; }
status=0
for flavour in release asan; do
  step "build: $flavour"
  # ccache's statistics of this build alone (hits, misses), printed after it.
  ccache -z >/dev/null 2>&1 || true
  scripts/build.sh "$flavour"
  ccache -s 2>/dev/null | grep -E '^(Cacheable calls|  Hits|  Misses|Uncacheable)' || true
  step "test: $flavour"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  label=()
  [ "$flavour" = asan ] && label=(-L asan)
  (cd "build/$flavour" && ctest -j"$(nproc)" "${label[@]}" --output-on-failure --timeout 600) || status=1
  if [ "$flavour" = release ]; then
    # The .deb installed system-wide and removed again: outside ctest, so that no test sees a
    # lore in /usr/bin meanwhile. Needs root (CI's machine); elsewhere ctest's install_tree
    # covers the rest.
    step "package: dpkg -i and dpkg -r"
    if [ "$(id -u)" -eq 0 ]; then
      tests/install/install_test.sh build/release --dpkg || status=1
    else
      echo "package: not root, dpkg -i skipped"
    fi
  fi
done
# Deterministic: every committed corpus input replayed, then a fixed-seed, fixed-count run per
# target (docs/testing.md); open-ended fuzzing is scripts/fuzz.sh --explore, run by developers.
step "fuzz"; scripts/fuzz.sh || status=1
step "done"
exit $status
