#!/usr/bin/env bash
# Installs what lore needs, builds it twice (Release, and AddressSanitizer +
# UBSan) and runs the whole test suite on both.  This is what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The MCP client test runs on the official TypeScript SDK, from the npm registry.
if [ ! -d tests/mcp/node_modules ]; then
  (cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

status=0
for flavour in release asan; do
  echo "== build: $flavour"
  scripts/build.sh "$flavour"
  echo "== test: $flavour"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  (cd "build/$flavour" && ctest -j"$(nproc)" --output-on-failure --timeout 600) || status=1
done
echo "== fuzz"; scripts/fuzz.sh 30 || status=1  # 13 targets x 30 s, one per core at a time (docs/testing.md)
exit $status
