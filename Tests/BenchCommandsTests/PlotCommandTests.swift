import BenchHarness
import Foundation
import Testing

@testable import BenchCommands

/// `bench plot` on a hand-made report: charts written, notes for the rest,
/// and its exit codes.
extension CLITests {
  @Suite struct PlotCommandTests {
    static let rows = [
      reportRow(index: "linear", params: "", workload: "build"),
      reportRow(index: "kdtree", workload: "build"),
      reportRow(index: "linear", params: "", median: 40_000),
      reportRow(index: "kdtree"),
    ]

    @Test func writesSVGFilesAndNotes() throws {
      try withTemporaryFolder { folder in
        let report = folder.file("report.csv")
        try ReportFile.write(Self.rows, to: report)
        let out = folder.file("charts/deep")  // made with its parent
        var code: Int32 = -1
        let printed = try captureStandardOutput { code = benchMain(["plot", report, "--out", out]) }
        #expect(code == 0)
        let written = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).sorted()
        #expect(
          written == [
            "build-time-uniform-n200.svg", "bytes-per-point-uniform-n200.svg",
            "latency-uniform-n200-viewport.svg",
          ])
        #expect(printed.contains("wrote \(out)/latency-uniform-n200-viewport.svg"))
        #expect(printed.contains("skipped scaling: the report has one n per index"))
        #expect(text(out + "/latency-uniform-n200-viewport.svg")?.hasPrefix("<?xml") == true)
      }
    }

    @Test func missingReportIs66() throws {
      try withTemporaryFolder { folder in
        #expect(benchMain(["plot", folder.file("none.csv"), "--out", folder.path]) == 66)
        #expect(folder.contents().isEmpty)
      }
    }

    @Test func outFolderUnderAFileIs73() throws {
      try withTemporaryFolder { folder in
        let report = folder.file("report.csv")
        try ReportFile.write(Self.rows, to: report)
        let file = try folder.write("plain", "not a folder")
        #expect(benchMain(["plot", report, "--out", file + "/plots"]) == 73)
        #expect(benchMain(["plot", report, "--out", file]) == 73)
      }
    }

    @Test func noReportIsAUsageError() {
      #expect(benchMain(["plot"]) == 64)
      #expect(benchMain(["plot", "--outt", "x"]) == 64)
    }
  }
}
