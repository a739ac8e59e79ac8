#!/usr/bin/env bash
# Configures and builds one flavour of lore.  Usage: scripts/build.sh release|asan|dev
set -euo pipefail
cd "$(dirname "$0")/.."
flavour="${1:-release}"
case "$flavour" in
  release) args=(-DCMAKE_BUILD_TYPE=Release -DLORE_SANITIZE=OFF) ;;
  # clang, ASan + UBSan, and the libFuzzer targets (fuzz/) in the same tree, which scripts/fuzz.sh
  # then uses: one build for both (cmake/LoreFuzz.cmake: -O1, line tables only, the same flags
  # as the fuzzers, so that ccache shares their objects).
  asan)    args=(-DCMAKE_BUILD_TYPE=Debug -DLORE_SANITIZE=ON -DLORE_FUZZ=ON -DLORE_BENCH=OFF
                 -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang) ;;
  dev)     args=(-DCMAKE_BUILD_TYPE=Debug -DLORE_SANITIZE=OFF) ;;
  *) echo "usage: $0 release|asan|dev" >&2; exit 2 ;;
esac
# ccache hits from a fresh clone too.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
# Unity builds: one compiler run per source folder (cmake/LoreSources.cmake), about three times
# faster from a clean clone than one per file. LORE_UNITY=OFF builds file by file.
# A tree configured with another compiler (the sanitizer build was gcc's) is started afresh.
if [ "$flavour" = asan ] && [ -f build/asan/CMakeCache.txt ] &&
   ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++$' build/asan/CMakeCache.txt; then
  rm -rf build/asan
fi
cmake -S . -B "build/$flavour" -G Ninja "${args[@]}" -DCMAKE_UNITY_BUILD="${LORE_UNITY:-ON}" >/dev/null
mkdir -p build
if ! ninja -C "build/$flavour" -j"$(nproc)" > "build/$flavour.log" 2>&1; then
  grep -vE '^\[[0-9]+/[0-9]+\] ' "build/$flavour.log" | head -200 >&2
  echo "build failed: $flavour (full log: build/$flavour.log)" >&2
  exit 1
fi
