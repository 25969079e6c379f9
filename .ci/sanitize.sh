#!/usr/bin/env bash
# CI, second build: AddressSanitizer + UndefinedBehaviorSanitizer (clang), without the studio and
# the benchmarks, in build-asan/ (the fuzzers of fuzz/run.sh are built in the same folder, from
# the same objects); runs the core and command-line tests under `nice`. Fails on a
# failing test and on any sanitizer report, including reports from the `dpsynth` processes the
# CLI tests start (every report is written to build-asan/sanitizer-logs/ and counted).
#   .ci/sanitize.sh                    # everything
#   TESTS='core/data|app/' .ci/sanitize.sh   # a ctest -R subset (only its targets are built)
#   EXCLUDE='core/pipeline/audit' .ci/sanitize.sh  # a ctest -E pattern (tests still built)
#   JOBS=1 .ci/sanitize.sh             # build and test jobs (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${SANITIZE_BUILD_DIR:-build-asan}"
jobs="${JOBS:-2}"
start=$(date +%s)

source .ci/sanitizer-build.sh
configure_sanitizer_build "$build"
targets=()
if [ -n "${TESTS:-}" ]; then
  # Test core/data/csv_reader_test is in target core_data_tests (tests/CMakeLists.txt).
  mapfile -t targets < <(ctest --test-dir "$build" -N -R "$TESTS" |
    sed -n 's|^ *Test *#[0-9]*: *||p' | sed 's|/[^/]*$||' | tr '/' '_' | sed 's/$/_tests/' |
    sort -u)
  [ "${#targets[@]}" -gt 0 ] || { echo "sanitize.sh: no test matches '$TESTS'"; exit 1; }
fi
if [ "${#targets[@]}" -gt 0 ]; then
  nice cmake --build "$build" -j"$jobs" --target "${targets[@]}"
else
  nice cmake --build "$build" -j"$jobs"
fi
built=$(date +%s)

logs="$(realpath -m "$build")/sanitizer-logs"
rm -rf "$logs" && mkdir -p "$logs"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:log_path=$logs/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$logs/ubsan"
# A leak inside the system's ReadStat on damaged SAS transport files (see the file).
export LSAN_OPTIONS="suppressions=$(pwd)/.ci/lsan-suppressions.txt"
status=0
nice ctest --test-dir "$build" -j"$jobs" --output-on-failure ${TESTS:+-R "$TESTS"} ${EXCLUDE:+-E "$EXCLUDE"} || status=$?
done=$(date +%s)

reports=$(find "$logs" -type f | wc -l)
if [ "$reports" -gt 0 ]; then
  echo "sanitize.sh: $reports sanitizer report(s):"
  for f in "$logs"/*; do echo "== $f"; head -40 "$f"; done
  status=1
fi
echo "sanitize.sh: build $((built - start)) s, tests $((done - built)) s, status $status"
exit "$status"
