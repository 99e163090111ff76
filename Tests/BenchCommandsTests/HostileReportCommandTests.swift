import BenchHarness
import Foundation
import Testing
import _SpatialTestSupport

@testable import BenchCommands

/// `bench plot`, `bench report` and `bench compare` on reports the reader
/// accepts but whose figures are extreme: each command runs as a child
/// process, so a trap shows as a signal instead of ending the test run.
extension CLITests {
  @Suite struct HostileReportCommandTests {
    /// The rows of a small run, with `change` applied to the viewport row.
    static func rows(_ change: (inout ReportRow) -> Void) -> [ReportRow] {
      var viewport = reportRow(index: "kdtree")
      change(&viewport)
      return [
        reportRow(index: "linear", params: "", workload: "build"),
        reportRow(index: "kdtree", workload: "build"),
        reportRow(index: "linear", params: "", median: 40_000),
        viewport,
      ]
    }

    /// The report of `rows` through plot, report and compare (against
    /// itself): each exits 0 and writes well-formed SVG and HTML.
    func expectEveryCommandCopes(
      with rows: [ReportRow], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let report = folder.file("hostile.csv")
      try ReportFile.write(rows, to: report)
      let plot = try runBench(["plot", "hostile.csv", "--out", "plots"], in: folder.path)
      #expect(plot.code == 0, "plot: \(plot.stderr)", sourceLocation: sourceLocation)
      for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.file("plots"))) ?? [] {
        #expect(
          SVGDocument(text(folder.file("plots/" + name)) ?? "") != nil, "\(name) is not well-formed",
          sourceLocation: sourceLocation)
      }
      let page = try runBench(["report", "hostile.csv", "--out", "page.html"], in: folder.path)
      #expect(page.code == 0, "report: \(page.stderr)", sourceLocation: sourceLocation)
      #expect(SVGDocument(text(folder.file("page.html")) ?? "") != nil, sourceLocation: sourceLocation)
      let compare = try runBench(["compare", "hostile.csv", "hostile.csv"], in: folder.path)
      #expect(compare.code == 0, "compare: \(compare.stderr)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [1e-308, Double.leastNonzeroMagnitude])
    func aSubnormalLatency(_ value: Double) throws {
      try expectEveryCommandCopes(with: Self.rows {
        $0.timing.median = value
        $0.timing.p90 = value
        $0.timing.p99 = value
      })
    }

    @Test func aBuildOf1e308Milliseconds() throws {
      // a build row without timing: the chart draws build_ms (in ns)
      try expectEveryCommandCopes(with: Self.rows { _ in }.map { row in
        var r = row
        r.buildMilliseconds = 1e308
        if r.key.workload == "build" { r.timing = .zero }
        return r
      })
    }

    @Test func theLargestFigures() throws {
      try expectEveryCommandCopes(with: Self.rows {
        $0.timing.median = .greatestFiniteMagnitude
        $0.timing.p90 = -.greatestFiniteMagnitude
        $0.timing.p99 = .greatestFiniteMagnitude
        $0.key.n = .max
        $0.indexBytes = .max
        $0.workloadBytes = .max
        $0.resultsTotal = .max
      })
    }
  }
}
