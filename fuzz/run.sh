#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (ASan + UBSan + coverage) in build-asan/ (shared with .ci/sanitize.sh) and runs each
# for SECONDS (default 60), side by side, starting from fuzz/corpus/<harness>. Prints
# executions and coverage per harness; exits non-zero when a harness crashes (the reproducer is
# written to build-asan/artifacts/). Usage: fuzz/run.sh [SECONDS]   (JOBS=n for the build)
#
# Long runs are a habit, not an event: before resolving an issue that touches a reader, run
#   MERGE=1 JOBS=2 bash fuzz/run.sh 900
# (15 minutes, every harness side by side). With MERGE=1 a run that found no crash merges the
# inputs that reached new coverage into fuzz/corpus/<harness>/ (libFuzzer -merge=1: only inputs
# that add coverage are copied, the named seeds stay), so commit them and the next run, CI's
# 60 seconds included, starts where this one ended. HARNESSES="release_fuzzer" runs a subset.
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SANITIZE_BUILD_DIR:-$root/build-asan}"
jobs="${JOBS:-2}"
read -r -a harnesses <<<"${HARNESSES:-csv_fuzzer session_fuzzer study_config_fuzzer release_fuzzer readstat_fuzzer}"
# Inputs up to 8 KiB, except SPSS/Stata/SAS files: the smallest SAS7BDAT is two 8 KiB pages.
max_len() { if [ "$1" = readstat_fuzzer ]; then echo 32768; else echo 8192; fi; }

# The same build as .ci/sanitize.sh (which CI runs first, so nothing is compiled twice).
source "$root/.ci/sanitizer-build.sh"
configure_sanitizer_build "$build"
nice cmake --build "$build" -j"$jobs" --target "${harnesses[@]}"

mkdir -p "$build/artifacts"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
# A leak inside the system's ReadStat on damaged SAS transport files (see the file).
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/.ci/lsan-suppressions.txt}"
# The harnesses run side by side (one core each): CI spends SECONDS on fuzzing, not SECONDS per
# harness. Each writes its own log; the summary is read from the logs afterwards.
pids=()
for h in "${harnesses[@]}"; do
  corpus="$build/corpus/${h%_fuzzer}"   # working corpus: grows, never written into the repository
  mkdir -p "$corpus"
  nice "$build/fuzz/$h" "$corpus" "$root/fuzz/corpus/${h%_fuzzer}" \
    -max_total_time="$seconds" -max_len="$(max_len "$h")" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$h-" >"$build/$h.log" 2>&1 &
  pids+=("$!")
done
status=0
summary=()
for i in "${!harnesses[@]}"; do
  h="${harnesses[$i]}"
  corpus="$build/corpus/${h%_fuzzer}"
  log="$build/$h.log"
  rc=0
  wait "${pids[$i]}" || rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  cov=$(grep -oE '(#[0-9]+|DONE).*cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  line="$h: ${runs:-?} executions, ${cov:-no coverage line}, corpus $(ls "$corpus" | wc -l) files"
  if [ "$rc" -ne 0 ]; then
    line="$line  CRASH (exit $rc): see $log and $build/artifacts/"
    grep -E 'ERROR: |SUMMARY: |runtime error|Test unit written' "$log" | head -5 | sed 's/^/    /'
    status=1
  fi
  summary+=("$line")
done
printf '%s\n' "${summary[@]}"
if [ "$status" -eq 0 ] && [ "${MERGE:-0}" = 1 ]; then
  for h in "${harnesses[@]}"; do
    kept="$root/fuzz/corpus/${h%_fuzzer}"
    before=$(ls "$kept" | wc -l)
    "$build/fuzz/$h" -merge=1 -max_len="$(max_len "$h")" -timeout=10 -rss_limit_mb=2048 "$kept" \
      "$build/corpus/${h%_fuzzer}" >"$build/$h.merge.log" 2>&1
    echo "$h: fuzz/corpus/${h%_fuzzer} $before -> $(ls "$kept" | wc -l) files"
  done
fi
exit "$status"
