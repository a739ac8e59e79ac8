#!/usr/bin/env bash
# Configures and builds one flavour of lore.  Usage: scripts/build.sh release|asan|dev
set -euo pipefail
cd "$(dirname "$0")/.."
flavour="${1:-release}"
case "$flavour" in
  release) args=(-DCMAKE_BUILD_TYPE=Release -DLORE_SANITIZE=OFF) ;;
  # -g1: line tables only, enough for the sanitizers' stack traces, a third off the build.
  asan)    args=(-DCMAKE_BUILD_TYPE=Debug -DLORE_SANITIZE=ON -DLORE_BENCH=OFF
                 -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1) ;;
  dev)     args=(-DCMAKE_BUILD_TYPE=Debug -DLORE_SANITIZE=OFF) ;;
  *) echo "usage: $0 release|asan|dev" >&2; exit 2 ;;
esac
# ccache hits from a fresh clone too.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
# Unity builds: one compiler run per source folder (cmake/LoreSources.cmake), about three times
# faster from a clean clone than one per file. LORE_UNITY=OFF builds file by file.
cmake -S . -B "build/$flavour" -G Ninja "${args[@]}" -DCMAKE_UNITY_BUILD="${LORE_UNITY:-ON}" >/dev/null
mkdir -p build
if ! ninja -C "build/$flavour" -j"$(nproc)" > "build/$flavour.log" 2>&1; then
  grep -vE '^\[[0-9]+/[0-9]+\] ' "build/$flavour.log" | head -200 >&2
  echo "build failed: $flavour (full log: build/$flavour.log)" >&2
  exit 1
fi
