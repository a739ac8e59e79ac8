#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan: in build/asan when scripts/build.sh asan made
# it, else in build/fuzz) and runs each, one per core at a
# time, on a copy of its committed seed corpus (fuzz/corpus/<name>/, dictionary
# fuzz/dict/<name>.dict).  Two modes:
#
#   scripts/fuzz.sh [--runs N] [name...]        what CI runs: deterministic.  Every committed
#       corpus input is replayed, then a fixed-seed run of exactly N inputs (default 4000) per
#       target: the same commit gives the same inputs, so the same result.
#   scripts/fuzz.sh --explore [SECONDS] [name...]   open-ended fuzzing for developers, before they
#       stop: a fresh seed, SECONDS per target (default 300).  What it finds goes into
#       fuzz/corpus/<name>/ with a unit test that reproduces it (docs/testing.md).
#
# Fails (exit 1) on any crash, leak, timeout, out-of-memory or UB report, leaving the input in
# <build>/artifacts/ and printing it in base64.  Prints per target the executions and
# executions per second.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: $0 [--runs N] [name...] | --explore [SECONDS] [name...]" >&2; exit 2; }
mode=replay runs=4000 seconds=300 seed="${LORE_FUZZ_SEED:-1}"
case "${1:-}" in
  --explore)
    mode=explore; shift
    case "${1:-}" in ''|*[!0-9]*) ;; *) seconds=$1; shift ;; esac ;;
  --runs)
    [ $# -ge 2 ] || usage
    runs=$2; shift 2
    case "$runs" in ''|*[!0-9]*) usage ;; esac ;;
  -*) usage ;;
esac
case "$seed" in ''|*[!0-9]*) echo "LORE_FUZZ_SEED must be a number" >&2; exit 2 ;; esac

export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
# The sanitizer build (scripts/build.sh asan) holds the fuzzers too: when it is there, they are
# built (if anything changed) and run from it; else a tree of the fuzzers alone, build/fuzz.
mkdir -p build
start=$(date +%s)
if [ -f build/asan/CMakeCache.txt ] && grep -q '^LORE_FUZZ:BOOL=ON$' build/asan/CMakeCache.txt; then
  build=build/asan
else
  build=build/fuzz
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_C_COMPILER=clang -DLORE_FUZZ=ON -DLORE_TESTS=OFF -DLORE_BENCH=OFF \
    -DCMAKE_UNITY_BUILD="${LORE_UNITY:-ON}" >/dev/null
fi
if ! ninja -C "$build" -j"$(nproc)" lore_fuzzers > build/fuzz.log 2>&1; then
  grep -vE '^\[[0-9]+/[0-9]+\] ' build/fuzz.log | head -200 >&2
  echo "build failed: fuzz (full log: build/fuzz.log)" >&2
  exit 1
fi
echo "fuzz: built in $(( $(date +%s) - start )) s ($build)"

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in fuzz/*_fuzz.cpp; do n=$(basename "$f" .cpp); names+=("${n%_fuzz}"); done
fi
if [ "$mode" = replay ]; then
  echo "fuzz: replaying every committed input, then $runs inputs per target from seed $seed"
else
  echo "fuzz: exploring, $seconds s per target from a fresh seed"
fi

artifacts="$build/artifacts"
mkdir -p "$artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Reports a run's failure (with its input in base64, so that a run whose artifacts are gone, CI's,
# can be replayed: base64 -d > input; <build>/<name>_fuzz input) into $work/<name>.err.
# Returns 1 when the run failed.
judge() {
  local name=$1 what=$2 rc=$3 log=$4
  if [ "$rc" -eq 0 ] && ! grep -qE 'runtime error:|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$log"; then
    return 0
  fi
  local units unit
  units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  { echo "fuzz: $name FAILED in its $what (exit $rc) after ${units:-?} executions; the input is in $artifacts/"
    grep -vE '^#[0-9]+\s' "$log" | tail -60
    unit=$(sed -n "s/.*Test unit written to //p" "$log" | tail -1)
    if [ -n "$unit" ] && [ -f "$unit" ] && [ "$(stat -c %s "$unit")" -le 65536 ]; then
      echo "fuzz: $name's input, base64:"; base64 -w 76 "$unit"
    fi; } >> "$work/$name.err"
  return 1
}

fuzz_one() {
  local name=$1 bin="$build/${1}_fuzz" corpus="$work/$1" rc=0
  if [ ! -x "$bin" ]; then echo "fuzz: no target $name" > "$work/$name.err"; return; fi
  mkdir -p "$corpus"
  [ -d "fuzz/corpus/$name" ] && cp -R "fuzz/corpus/$name/." "$corpus/"
  local args=(-rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$artifacts/$name-")
  [ -f "fuzz/dict/$name.dict" ] && args+=(-dict="fuzz/dict/$name.dict")
  if [ "$mode" = replay ]; then
    # 1. Every committed input, once each (-runs=0: the corpus is read and run, nothing more).
    "$bin" "${args[@]}" -runs=0 "$corpus" > "$work/$name.replay.log" 2>&1 || rc=$?
    judge "$name" "replay of fuzz/corpus/$name" "$rc" "$work/$name.replay.log" || return 0
    # 2. A fixed count from a fixed seed; no time limit and no corpus reload, which would make
    #    the inputs depend on the machine's speed.
    "$bin" "${args[@]}" -seed="$seed" -runs="$runs" -reload=0 "$corpus" > "$work/$name.log" 2>&1 || rc=$?
    judge "$name" "run of $runs inputs from seed $seed" "$rc" "$work/$name.log" || return 0
  else
    "$bin" "${args[@]}" -max_total_time="$seconds" "$corpus" > "$work/$name.log" 2>&1 || rc=$?
    judge "$name" "exploration" "$rc" "$work/$name.log" || return 0
  fi
  local units rate
  units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$name.log" | tail -1)
  echo "fuzz: $name: ${units:-0} executions, ${rate:-0}/s" > "$work/$name.out"
}

# One target per core at a time (each fuzzer is single-threaded); the reports are printed in the
# targets' order once all have run.
parallel=$(nproc)
for name in "${names[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  fuzz_one "$name" &
done
wait
status=0
for name in "${names[@]}"; do
  if [ -f "$work/$name.err" ]; then cat "$work/$name.err" >&2; status=1; fi
  [ -f "$work/$name.out" ] && cat "$work/$name.out"
done
exit $status
