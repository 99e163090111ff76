#!/usr/bin/env bash
# Builds the libFuzzer target for every reader (points, viewports, reports;
# a report it reads goes on through the charts, the HTML page and compare)
# and runs it.
#
#   Fuzz/run.sh [seconds] [extra libFuzzer flags...]
#
# Seconds defaults to 60. The target is a package of its own (Fuzz/Package.swift)
# whose modules are the root package's folders, so the readers are fuzzed as
# they are built. New inputs go to Fuzz/.build/corpus (the seed corpus in
# Fuzz/corpus is only read); crashes land in fuzz-crashes/ at the repository
# root. Both folders are ignored by git.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
seconds="${1:-60}"
shift || true

mkdir -p "$here/.build/corpus" "$root/fuzz-crashes"
# `--sanitize=fuzzer` makes SwiftPM link libFuzzer's main; the one
# `-sanitize=fuzzer,address` flag after it instruments for coverage and ASan
# (two separate -sanitize flags keep only the last: no coverage).
swift build --package-path "$here" -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
  --product FuzzReaders 2>&1 | grep -Ev "warning: Cannot export local symbol" >&2

"$here/.build/release/FuzzReaders" \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -artifact_prefix="$root/fuzz-crashes/" \
  "$@" \
  "$here/.build/corpus" "$here/corpus"
