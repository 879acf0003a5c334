#!/usr/bin/env bash
# Builds the importers' libFuzzer targets (and the triage's, which runs on imported traces)
# with clang-14 (address + undefined sanitizers) and runs each for FUZZ_SECONDS (default 20),
# seeded from the matching real files in tests/data/import and the earlier crashes in
# tests/data/import/regressions. A crash leaves its input in build-fuzz/crashes/ and fails.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${WB_FUZZ_BUILD:-$ROOT/build-fuzz}"
SECONDS_EACH="${FUZZ_SECONDS:-20}"
# FUZZ_RUNS=N runs N inputs from a fixed seed instead: repeatable, which is what CI wants.
limit=(-max_total_time="$SECONDS_EACH")
[ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS" -seed=1)

CC=clang-14 CXX=clang++-14 cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWARPBOARD_FUZZ=ON -DWARPBOARD_BUILD_GUI=OFF -DWARPBOARD_CUDA=OFF >/dev/null
targets=(chrome ncu nccl_log nccl_tests watchdog triage job_summary)
cmake --build "$BUILD" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

declare -A pattern=(
  [chrome]="*.json *.json.gz" [ncu]="*.csv regressions/ncu-*" [nccl_log]="*.log.gz nccl_log_* regressions/nccl_log-*"
  [nccl_tests]="aws_*.txt nccl_tests_* regressions/nccl_tests-*" [watchdog]="pytorch_watchdog_*"
  [triage]="hta_*.json.gz" [job_summary]="")
mkdir -p "$BUILD/crashes"
status=0
for t in "${targets[@]}"; do
  work="$(mktemp -d)"
  # Seeds are copied into the working corpus (libFuzzer grows the first directory).
  for p in ${pattern[$t]}; do
    for f in "$ROOT"/tests/data/import/$p; do
      [ -f "$f" ] && cp "$f" "$work/"
    done
  done
  echo "== fuzz_$t ${limit[*]} (seeds: $(ls "$work" | wc -l) files from tests/data/import)"
  if ! "$BUILD/tests/fuzz/fuzz_$t" "${limit[@]}" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$BUILD/crashes/$t-" \
        "$work" 2>"$BUILD/fuzz_$t.log"; then
    echo "fuzz_$t FAILED: see $BUILD/fuzz_$t.log and $BUILD/crashes/"
    tail -30 "$BUILD/fuzz_$t.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|Done" "$BUILD/fuzz_$t.log" | tail -2 || true
  fi
  rm -rf "$work"
done
exit $status
