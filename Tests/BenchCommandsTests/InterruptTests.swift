import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C during a run must leave an earlier report untouched and no
/// half-written file: reports are written to a temporary file and renamed.
@Suite struct InterruptTests {
  @Test func sigintDuringARunLeavesTheEarlierReportAlone() throws {
    let bench = try #require(benchExecutable, "the bench executable was not built beside the tests")
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("bench-sigint-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = folder.appendingPathComponent("earlier.csv")
    let earlier = Data("an earlier report\n".utf8)
    try earlier.write(to: report)

    let process = Process()
    process.executableURL = bench
    // Long enough to be interrupted mid-run: a big session on every index.
    process.arguments = [
      "run", "--dataset", "uniform", "--n", "200000", "--steps", "100000", "--repeat", "50",
      "--budget", "0", "--quiet",
    ]
    process.currentDirectoryURL = folder  // the report would take a default name here
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    usleep(1_500_000)
    #expect(process.isRunning, "bench finished before it could be interrupted")
    kill(process.processIdentifier, SIGINT)
    // Never hang the suite: after 20 s, give up and kill it for good.
    var waited = 0
    while process.isRunning && waited < 200 {
      usleep(100_000)
      waited += 1
    }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      Issue.record("bench did not stop on SIGINT within 20 s")
    }
    process.waitUntilExit()

    #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus != 0)
    #expect(try Data(contentsOf: report) == earlier)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(left == ["earlier.csv"], "files left behind: \(left)")
  }
}
