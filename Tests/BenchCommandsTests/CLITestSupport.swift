import BenchHarness
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every test that calls `benchMain` lives in a suite nested here, so they run
/// one at a time: the commands print to the process's one stdout, and
/// ``captureStandardOutput(_:)`` redirects it for a moment.
@Suite(.serialized) struct CLITests {}

/// The options that keep a `bench run` tiny: 200 uniform points, a 5-step
/// session, one timed pass, no progress.
let tinyRun = [
  "--dataset", "uniform", "--n", "200", "--steps", "5", "--repeat", "1", "--warmup", "0",
  "--quiet",
]

/// The same data and session for `bench verify` and `export`, which time
/// nothing and refuse `--repeat` and `--warmup`.
let tinySession = ["--dataset", "uniform", "--n", "200", "--steps", "5", "--quiet"]

/// `base` with the flags `changes` gives replaced by `changes`: a flag is
/// given once (bench refuses a repeat), so a test that changes one of the
/// tiny options drops the old one with its value.
func overriding(_ base: [String], with changes: [String]) -> [String] {
  let changed = Set(changes.filter { $0.hasPrefix("--") })
  var kept: [String] = []
  var skipValue = false
  for word in base {
    if skipValue {
      skipValue = false
      if !word.hasPrefix("--") { continue }
    }
    if changed.contains(word) {
      skipValue = true
      continue
    }
    kept.append(word)
  }
  return kept + changes
}

/// A fresh, empty folder under the system's temporary folder; ``remove()``
/// deletes it with everything in it.
struct TemporaryFolder {
  let path: String

  init() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("bench-cli-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    path = url.path
  }

  /// `path/name`.
  func file(_ name: String) -> String { path + "/" + name }

  /// Writes `text` to `path/name` and returns the full path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let target = file(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: target))
    return target
  }

  /// The names in the folder, hidden ones (temporary files) included, sorted.
  func contents() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// Runs `body` with a fresh temporary folder and removes the folder afterwards.
func withTemporaryFolder<R>(_ body: (TemporaryFolder) throws -> R) throws -> R {
  let folder = try TemporaryFolder()
  defer { folder.remove() }
  return try body(folder)
}

/// The bytes of the file at `path`, or nil when there is none.
func bytes(_ path: String) -> [UInt8]? {
  FileManager.default.contents(atPath: path).map { Array($0) }
}

/// The text of the file at `path`, or nil when there is none.
func text(_ path: String) -> String? {
  bytes(path).map { String(decoding: $0, as: UTF8.self) }
}

func exists(_ path: String) -> Bool {
  FileManager.default.fileExists(atPath: path)
}

/// Runs `body` with file descriptor 1 pointing at a temporary file and
/// returns what was written to it. Only for tests in ``CLITests``.
func captureStandardOutput(_ body: () -> Void) throws -> String {
  let folder = try TemporaryFolder()
  defer { folder.remove() }
  let path = folder.file("stdout.txt")
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  precondition(fd >= 0, "cannot open \(path)")
  fflush(nil)
  let saved = dup(1)
  dup2(fd, 1)
  close(fd)
  body()
  fflush(nil)
  dup2(saved, 1)
  close(saved)
  return text(path) ?? ""
}

/// The rows of a `bench query` output (after the header) as (query, count, id_sum).
func queryRows(_ output: String) -> [(Int, Int, UInt64)] {
  output.split(separator: "\n").dropFirst().map { line in
    let f = line.split(separator: ",")
    return (Int(f[0])!, Int(f[1])!, UInt64(f[2])!)
  }
}

// MARK: - Hand-made report rows

/// A fixed machine for hand-made reports.
let fixtureMachine = MachineInfo(cpuModel: "Test CPU", cores: 2, memoryBytes: 8 << 30, os: "Linux")

/// A report row as `bench run` writes them, with a median of `median` ns and
/// a 95% interval of ±`halfWidth`.
func reportRow(
  index: String = "kdtree", params: String = "nodeSize=64", n: Int = 200,
  workload: String = "viewport", strategy: String = "", median: Double = 1_000,
  halfWidth: Double = 10, resultsTotal: UInt64 = 429, checksum: UInt64 = 0x6CD6_6C0C_E304_CCD3,
  counters: ReportCounters = ReportCounters(
    nodesVisited: 30, pointsTested: 600, pointsReported: 429)
) -> ReportRow {
  ReportRow(
    key: ReportKey(
      index: index, params: params, dataset: "uniform", n: n, workload: workload,
      strategy: strategy),
    timing: TimingSummary(
      samples: 5, min: median - halfWidth, median: median, p90: median + halfWidth,
      p99: median + halfWidth, max: median + halfWidth, mean: median, stddev: halfWidth / 2,
      ciLow: median - halfWidth, ciHigh: median + halfWidth, noisy: false, batch: 1),
    buildMilliseconds: 0.25, indexBytes: 4_000, peakRSSBytes: 20_000_000,
    resultsTotal: resultsTotal, checksum: checksum, counters: counters,
    run: RunMetadata(
      timestamp: "2026-01-31T12:00:00Z", gitCommit: "abc1234", machine: fixtureMachine,
      swiftVersion: "6.3", buildConfig: "release", seed: 42))
}

/// A run report's rows over the whole session (`zooms == "all"`), without
/// the zoom-band rows cut from the same samples.
func wholeRunRows(_ path: String) throws -> [ReportRow] {
  try ReportFile.read(path).filter { $0.key.zooms == "all" }
}

/// The size of the file at `path` in bytes, `nil` when there is none.
func fileSize(_ path: String) -> Int? {
  var info = stat()
  return stat(path, &info) == 0 ? Int(info.st_size) : nil
}
