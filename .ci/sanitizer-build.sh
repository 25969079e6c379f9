# Sourced by .ci/sanitize.sh and fuzz/run.sh: both use ONE build, so CI compiles the engine with
# sanitizers once. clang, AddressSanitizer + UndefinedBehaviorSanitizer on everything, libFuzzer
# coverage on the code the harnesses reach (fuzz/CMakeLists.txt), no studio, no benchmarks.
# Usage: configure_sanitizer_build BUILD_DIR
configure_sanitizer_build() {
  local build="$1"
  command -v clang++ >/dev/null || {
    echo "clang++ is missing: run packaging/install-deps.sh" >&2
    return 1
  }
  cmake -S "$(dirname "${BASH_SOURCE[0]}")/.." -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only" \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
    -DDPSYNTH_FUZZ=ON -DDPSYNTH_BUILD_UI=OFF -DDPSYNTH_BUILD_BENCH=OFF >/dev/null
}
