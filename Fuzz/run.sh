#!/usr/bin/env bash
# Builds the libFuzzer target for the CSV readers and runs it.
#
#   Fuzz/run.sh [seconds] [extra libFuzzer flags...]
#
# Seconds defaults to 60. New inputs go to Fuzz/.build/corpus (the seed
# corpus in Fuzz/corpus is only read); crashes land in fuzz-crashes/ at the
# repository root. Both folders are ignored by git.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
seconds="${1:-60}"
shift || true

mkdir -p "$here/.build/corpus" "$root/fuzz-crashes"
swiftc -parse-as-library -O -sanitize=fuzzer,address -D SPATIALBENCH_FUZZ \
  -module-name FuzzCSV \
  "$here/FuzzCSV.swift" \
  "$root"/Sources/Workloads/CSV/*.swift \
  "$root"/Sources/SpatialIndexes/Geometry/*.swift \
  -o "$here/.build/fuzz-csv"

"$here/.build/fuzz-csv" \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -artifact_prefix="$root/fuzz-crashes/" \
  "$@" \
  "$here/.build/corpus" "$here/corpus"
