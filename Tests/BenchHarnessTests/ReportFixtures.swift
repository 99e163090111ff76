import BenchHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed machine for hand-made reports.
let testMachine = MachineInfo(
  cpuModel: "AMD EPYC", cores: 2, memoryBytes: 8_000_000_000, os: "Debian GNU/Linux 12 (bookworm)")

/// Fixed run metadata for hand-made reports.
func testRun(machine: MachineInfo = testMachine) -> RunMetadata {
  RunMetadata(
    timestamp: "2026-01-31T12:00:00Z", gitCommit: "abc1234", machine: machine,
    swiftVersion: "6.3", buildConfig: "release", seed: 42)
}

/// A row whose median is `median` ns with a 95% interval of ±`halfWidth`.
func testRow(
  index: String = "kdtree", params: String = "capacity=16", dataset: String = "uniform",
  n: Int = 1_000, workload: String = "viewport", strategy: String = "buffer",
  median: Double = 100, halfWidth: Double = 2, resultsTotal: UInt64 = 500,
  checksum: UInt64 = 0xDEAD_BEEF, counters: ReportCounters = ReportCounters(
    nodesVisited: 40, pointsTested: 900, pointsReported: 500),
  machine: MachineInfo = testMachine
) -> ReportRow {
  ReportRow(
    key: ReportKey(
      index: index, params: params, dataset: dataset, n: n, workload: workload,
      strategy: strategy),
    timing: TimingSummary(
      samples: 100, min: median - 2 * halfWidth, median: median, p90: median * 1.1,
      p99: median * 1.2, max: median * 1.5, mean: median, stddev: halfWidth,
      ciLow: median - halfWidth, ciHigh: median + halfWidth,
      noisy: halfWidth > 0.05 * median, batch: 1),
    buildMilliseconds: 12.5, indexBytes: 48_000, peakRSSBytes: 10_485_760,
    resultsTotal: resultsTotal, checksum: checksum, counters: counters,
    run: testRun(machine: machine))
}

/// A fresh empty folder under /tmp, removed by `removeTree`.
func makeTemporaryFolder() -> String {
  var template = Array("/tmp/benchharness-test-XXXXXX".utf8CString)
  let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  precondition(made != nil, "mkdtemp failed")
  return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Names in `folder`, hidden ones included, sorted.
func listFolder(_ folder: String) -> [String] {
  guard let dir = opendir(folder) else { return [] }
  defer { closedir(dir) }
  var names: [String] = []
  while let entry = readdir(dir) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return names.sorted()
}

/// Writes `text` to `path` directly (test setup).
func writeText(_ text: String, to path: String) {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  precondition(fd >= 0, "cannot open \(path)")
  _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count - 1) }
  close(fd)
}

/// The text of the file at `path`, or nil.
func readText(_ path: String) -> String? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let n = fread(&buffer, 1, buffer.count, file)
    if n == 0 { break }
    bytes += buffer[..<n]
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// Removes `folder` and what is in it (one level deep is all tests make).
func removeTree(_ folder: String) {
  for name in listFolder(folder) {
    let path = "\(folder)/\(name)"
    if unlink(path) != 0 { removeTree(path) }
  }
  rmdir(folder)
}
