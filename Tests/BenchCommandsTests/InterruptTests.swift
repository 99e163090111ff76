import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
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
    waitForExit(of: process, seconds: 20, "bench after SIGINT")

    #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus != 0)
    #expect(try Data(contentsOf: report) == earlier)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(left == ["earlier.csv"], "files left behind: \(left)")
  }
}
