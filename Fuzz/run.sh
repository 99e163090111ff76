#!/usr/bin/env bash
# Builds the libFuzzer target for every reader (points, viewports, reports;
# a report it reads goes on through the charts, the HTML page and compare)
# and runs it.
#
#   Fuzz/run.sh [seconds] [extra libFuzzer flags...]
#   FUZZ_TARGET=FuzzSavedIndex Fuzz/run.sh [seconds]   # the saved-index opener
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
target="${FUZZ_TARGET:-FuzzReaders}"
case "$target" in
  FuzzReaders) seeds="$here/corpus"; corpus="$here/.build/corpus"; max_len=4096 ;;
  FuzzSavedIndex) seeds="$here/corpus-saved"; corpus="$here/.build/corpus-saved"; max_len=65536 ;;
  *) echo "FUZZ_TARGET is FuzzReaders or FuzzSavedIndex" >&2; exit 64 ;;
esac

mkdir -p "$corpus" "$root/fuzz-crashes"
# `--sanitize=fuzzer` makes SwiftPM link libFuzzer's main; the one
# `-sanitize=fuzzer,address` flag after it instruments for coverage and ASan
# (two separate -sanitize flags keep only the last: no coverage).
swift build --package-path "$here" -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
  --product "$target" 2>&1 | grep -Ev "warning: Cannot export local symbol" >&2

"$here/.build/release/$target" \
  -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
  -artifact_prefix="$root/fuzz-crashes/" \
  "$@" \
  "$corpus" "$seeds"
