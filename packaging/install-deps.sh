#!/usr/bin/env bash
# Installs every Debian package dpsynth needs to build, test and run (Debian 12 "bookworm").
# Safe to run again: it only calls apt-get when something is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libeigen3-dev libboost-dev nlohmann-json3-dev libcli11-dev libcsv-dev
  libreadstat-dev            # core/data/readstat_*: SPSS, Stata and SAS files in and out
  libutf8proc-dev            # core/data/utf8: column names matched in any Unicode form
  libbenchmark-dev
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev
  xvfb xauth
  openbox                    # tests/ui studio_layout_test_framed: a real window frame under Xvfb
  parallel                   # tests/app/study_cli_test: study shards through GNU parallel
  clang libclang-rt-14-dev   # fuzz/run.sh: libFuzzer and its sanitizer runtimes
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "dpsynth: all build dependencies are installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "dpsynth: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
