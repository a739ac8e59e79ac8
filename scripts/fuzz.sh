#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, build/fuzz) and runs each, one per core at a time,
# for a fixed time on a copy of its committed seed corpus (fuzz/corpus/<name>/,
# dictionary fuzz/dict/<name>.dict).  Fails (exit 1) on any crash, leak,
# timeout, out-of-memory or UB report, leaving the input in
# build/fuzz/artifacts/.  Prints per target the executions and executions per
# second.  Usage: scripts/fuzz.sh [seconds per target, default 30] [name...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
case "$seconds" in ''|*[!0-9]*) echo "usage: $0 [seconds] [name...]" >&2; exit 2 ;; esac

export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
build=build/fuzz
mkdir -p build
start=$(date +%s)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_COMPILER=clang -DLORE_FUZZ=ON -DLORE_TESTS=OFF -DLORE_BENCH=OFF \
  -DCMAKE_UNITY_BUILD="${LORE_UNITY:-ON}" >/dev/null
if ! ninja -C "$build" -j"$(nproc)" lore_fuzzers > build/fuzz.log 2>&1; then
  grep -vE '^\[[0-9]+/[0-9]+\] ' build/fuzz.log | head -200 >&2
  echo "build failed: fuzz (full log: build/fuzz.log)" >&2
  exit 1
fi
echo "fuzz: built in $(( $(date +%s) - start )) s"

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in fuzz/*_fuzz.cpp; do n=$(basename "$f" .cpp); names+=("${n%_fuzz}"); done
fi

artifacts="$build/artifacts"
mkdir -p "$artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# One target per core at a time (each fuzzer is single-threaded); the reports
# are printed in the targets' order once all have run.
fuzz_one() {
  local name=$1 bin="$build/${1}_fuzz" corpus="$work/$1" log="$work/$1.log" rc=0
  if [ ! -x "$bin" ]; then echo "fuzz: no target $name" > "$work/$name.err"; return; fi
  mkdir -p "$corpus"
  [ -d "fuzz/corpus/$name" ] && cp -R "fuzz/corpus/$name/." "$corpus/"
  local args=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
              -artifact_prefix="$artifacts/$name-")
  [ -f "fuzz/dict/$name.dict" ] && args+=(-dict="fuzz/dict/$name.dict")
  "$bin" "${args[@]}" "$corpus" > "$log" 2>&1 || rc=$?
  local units rate
  units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ "$rc" -ne 0 ] || grep -qE 'runtime error:|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$log"; then
    { echo "fuzz: $name FAILED (exit $rc) after ${units:-?} executions; the input is in $artifacts/"
      grep -vE '^#[0-9]+\s' "$log" | tail -60
      # The input itself, so that a run whose artifacts are gone (CI) can be
      # replayed: base64 -d > input; build/fuzz/<name>_fuzz input.
      local unit
      unit=$(sed -n "s/.*Test unit written to //p" "$log" | tail -1)
      if [ -n "$unit" ] && [ -f "$unit" ] && [ "$(stat -c %s "$unit")" -le 65536 ]; then
        echo "fuzz: $name's input, base64:"; base64 -w 76 "$unit"
      fi; } > "$work/$name.err"
  else
    echo "fuzz: $name: ${units:-0} executions, ${rate:-0}/s" > "$work/$name.out"
  fi
}
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
