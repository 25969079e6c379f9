#!/usr/bin/env bash
# Regenerates the survey.* fixtures beside this script from make_fixtures.cpp with ReadStat's
# writer (needs libreadstat-dev, installed by packaging/install-deps.sh). Run by hand after
# changing make_fixtures.cpp, then commit the files; CI only reads them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
c++ -std=c++20 -O1 -Wall -o "$tmp/make_fixtures" "$here/make_fixtures.cpp" -lreadstat
"$tmp/make_fixtures" "$here"
ls -l "$here"/survey.* "$here"/latin1_stata13.dta
