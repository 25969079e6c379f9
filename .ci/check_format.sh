#!/usr/bin/env bash
# Format check on changed lines: clang-format (.clang-format, Google-based, 100 columns) applied
# to the lines a change touched, never to the rest of a file (the whole tree is reformatted once,
# in a commit of its own). Usage: .ci/check_format.sh [BASE] (default: the merge base with main,
# or HEAD~1 when there is no main). Prints the diff clang-format wants; exit 1 when there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-}"
if [[ -z "$base" ]]; then
  if git rev-parse --verify -q main >/dev/null; then
    base="$(git merge-base HEAD main)"
  else
    base="HEAD~1"
  fi
fi
if ! command -v git-clang-format >/dev/null; then
  echo "format check: git-clang-format not found (Debian package clang-format); skipped"
  exit 0
fi
diff="$(git clang-format --diff --extensions h,cpp "$base" -- core app tests ui fuzz || true)"
if [[ -z "$diff" || "$diff" == "no modified files to format" ||
      "$diff" == "clang-format did not modify any files" ]]; then
  echo "format: the changed lines since ${base:0:12} are clang-formatted"
  exit 0
fi
printf '%s\n' "$diff"
echo "format: the lines above differ from clang-format (run: git clang-format $base)"
exit 1
