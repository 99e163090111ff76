import BenchHarness
import Testing
@testable import BenchCommands

/// The table `bench run` prints: the interval as its ends, parameters short,
/// and the main job's rows within a 120-column terminal.
@Suite struct ResultsTableTests {
  static func timing(median: Double, low: Double, high: Double, noisy: Bool) -> TimingSummary {
    TimingSummary(
      samples: 200, min: low, median: median, p90: high, p99: high, max: high, mean: median,
      stddev: 0, ciLow: low, ciHigh: high, noisy: noisy, batch: 1)
  }

  /// A bimodal row reads as a range, not as "656199.0%".
  @Test func theIntervalIsItsTwoEnds() {
    #expect(ResultsTable.interval(Self.timing(median: 276, low: 270, high: 281, noisy: false)) == "270–281 ns")
    #expect(ResultsTable.interval(Self.timing(median: 276, low: 268, high: 1.81e6, noisy: true))
            == "268 ns–1.81 ms*")
  }

  @Test func durationsHaveThreeDigits() {
    #expect([999, 1_234, 13_080, 125_670, 1_130_000, 2.5e9].map(ResultsTable.duration)
            == ["999 ns", "1.23 µs", "13.1 µs", "126 µs", "1.13 ms", "2.50 s"])
  }

  @Test func parametersAtTheirDefaultsAreLeftOutAndNumbersCut() {
    #expect(ResultsTable.shortParams("nodeSize=64", index: "kdtree") == "")
    #expect(ResultsTable.shortParams("nodeSize=32", index: "kdtree") == "nodeSize=32")
    #expect(ResultsTable.shortParams(
      "capacity=16;maxDepth=32;bounds=-179.99991808406796:-89.99978338669362:179.99985237371442:89.99931913181402;build=bulk",
      index: "quadtree") == "bounds=-180:-90:180:90")
    #expect(ResultsTable.shortParams(
      "capacity=4;maxDepth=32;bounds=world;build=inserts", index: "quadtree") == "capacity=4;bounds=world…")
  }

  /// A run with a filter shows each row's, `-` for a row without one; a
  /// run without keeps its columns.
  @Test func aFilteredRowShowsItsFilter() {
    var rows = [("build", ""), ("cluster", "aggregate"), ("filters", "aggregate")].map { w, s in
      reportRow(index: "celltree", params: "", n: 1000, workload: w, strategy: s, median: 1e5, halfWidth: 1e3,
                resultsTotal: 10)
    }
    #expect(!ResultsTable.render(rows).contains("filter "))
    rows[2].key.filter = "chips chain,stars slider price<= aggregate min:price"
    let lines = ResultsTable.render(rows).split(separator: "\n").map(String.init)
    #expect(lines[1].contains("strategy   filter "), "\(lines[1])")
    #expect(lines[2].contains(" -  ") && lines[3].contains(" -  "))
    #expect(lines[4].contains("aggregate  chips chain,stars slider price<= aggregate min:price  "), "\(lines[4])")
  }

  /// Every index, workload and strategy over one dataset: the widest table the
  /// main job prints, within 120 columns, said once what the dataset is.
  @Test func theMainJobsTableFitsA120ColumnTerminal() {
    let params = [
      "linear": "", "kdtree": "nodeSize=64", "celltree": "leafSize=16",
      "quadtree": "capacity=16;maxDepth=32;bounds=-179.14382443871125:-54.946527679938995:179.36675129148713:78.26610954230345;build=bulk",
      "grid": "cellSize=1.0643766339160683;pointsPerCell=4;storage=dense;cells=337x126",
    ]
    var rows: [ReportRow] = []
    for (index, p) in params {
      for (workload, strategy) in [("build", ""), ("viewport", ""), ("cluster", "per-cell"),
                                   ("cluster", "single-pass"), ("cluster", "aggregate"), ("tap", "")] {
        rows.append(reportRow(
          index: index, params: p, n: 170_391, workload: workload, strategy: strategy,
          median: 123_456.7, halfWidth: 98_765.4, resultsTotal: 4_741_270))
      }
    }
    rows[1].timing.noisy = true
    let text = ResultsTable.render(rows)
    let lines = text.split(separator: "\n")
    #expect(lines.first == "uniform, 170391 points")
    #expect(lines.allSatisfy { $0.count <= 120 }, "\(lines.map(\.count).max() ?? 0) columns")
    #expect(lines.count == rows.count + 4)  // the dataset, the header, the rows, two notes
    #expect(text.contains("*") && lines.last!.hasPrefix("* noisy"))
  }
}
