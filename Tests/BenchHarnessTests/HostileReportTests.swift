import BenchHarness
import Foundation
import Testing
import _BenchTestSupport
import _SpatialTestSupport

/// Reports hostile on purpose (``HostileReports``: subnormals, ±1e308, the
/// largest counts, negative zero, percentiles out of order, parameters that
/// read as NaN, empty groups, one row, thousands of rows), written and read
/// back as the reader takes them, then drawn, paged and compared in process:
/// nothing traps, every SVG and the page parse as XML, every coordinate is
/// a finite number, and a report compared with itself never regresses.
/// Seeded and bounded; `Fuzz/FuzzReaders` runs the same checks on fuzzed
/// bytes for as long as it is given.
@Suite struct HostileReportTests {
  /// Attributes that hold one coordinate or length.
  static let numericAttributes: Set<String> = ["x", "y", "x1", "y1", "x2", "y2", "width", "height", "cx", "cy", "r"]

  /// The rows the reader gives for `rows` written as a report.
  func readBack(_ rows: [ReportRow], sourceLocation: SourceLocation = #_sourceLocation) throws -> [ReportRow] {
    let read = try ReportSchema.parse(ReportSchema.render(rows), path: "hostile.csv")
    #expect(read.count == rows.count, sourceLocation: sourceLocation)
    return read
  }

  /// `text` parses as XML, and every coordinate in it is a finite number.
  func expectWellFormed(
    _ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let document = SVGDocument(text) else {
      Issue.record("\(what) is not well-formed XML", sourceLocation: sourceLocation)
      return
    }
    for element in document.elements {
      for (name, value) in element.attributes where Self.numericAttributes.contains(name) {
        let v = Double(value.hasSuffix("%") ? String(value.dropLast()) : value)
        #expect(v?.isFinite == true, "\(what): <\(element.name) \(name)=\"\(value)\">", sourceLocation: sourceLocation)
      }
      if let points = element.attributes["points"] {
        let numbers = points.split(whereSeparator: { $0 == " " || $0 == "," }).map { Double($0) }
        #expect(numbers.allSatisfy { $0?.isFinite == true }, "\(what): points=\"\(points.prefix(80))\"",
                sourceLocation: sourceLocation)
      }
    }
  }

  /// Plots, the page, verdicts and a comparison of `rows` with `other`.
  func expectEverythingCopes(
    _ rows: [ReportRow], against other: [ReportRow], budget: FrameBudget,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let (files, _) = ReportPlots.make(rows)
    for file in files {
      let svg = file.svg
      expectWellFormed(svg, file.name, sourceLocation: sourceLocation)
      #expect(svg.utf8.count < 4 << 20, "\(file.name): \(svg.utf8.count) bytes", sourceLocation: sourceLocation)
    }
    let page = HTMLReport(
      title: "hostile", rows: rows, budget: budget, map: .failure(.init("no map")), commands: ["bench"]
    ).render()
    expectWellFormed(page, "the page", sourceLocation: sourceLocation)
    for verdict in Verdict.all(in: rows, budget: budget) { #expect(!verdict.lines.isEmpty) }

    let comparison = Comparison(baseline: rows, current: other)
    #expect(!comparison.text().isEmpty && !comparison.markdown().isEmpty, sourceLocation: sourceLocation)
    let itself = Comparison(baseline: rows, current: rows)
    _ = itself.text() + itself.markdown()
    if Set(rows.map(\.key)).count == rows.count {
      #expect(
        itself.outcome == (rows.isEmpty ? .nothingCompared : .noRegression), "\(itself.summary())",
        sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: 0..<8)
  func hostileReportsNeverTrap(_ seed: UInt64) throws {
    var hostile = HostileReports(seed: seed)
    for _ in 0..<25 {
      let rows = try readBack(hostile.report())
      let other = try readBack(hostile.report())
      let budget = FrameBudget(
        framesPerSecond: hostile.pick([1, 60, 1000]), memoryLimitBytes: hostile.pick([nil, 0, 1, .max]),
        live: hostile.pick([false, true]))
      expectEverythingCopes(rows, against: other, budget: budget)
    }
  }

  @Test func thousandsOfRows() throws {
    var hostile = HostileReports(seed: 99)
    let oneChart = try readBack(hostile.oneGroup(of: 2_000))
    expectEverythingCopes(oneChart, against: [], budget: FrameBudget())
    var many: [ReportRow] = []
    while many.count < 3_000 { many += hostile.report() }
    expectEverythingCopes(try readBack(many), against: oneChart, budget: FrameBudget(live: true))
  }

  /// The reader's side of the bargain: text that is no finite number is
  /// refused with the file, the line and the column (exit 65), never read
  /// as a figure.
  @Test(arguments: ["nan", "NaN", "inf", "-inf", "infinity", "1e400", "-1e400", "0x1p3", "1,5"])
  func figuresThatAreNoNumberAreRefused(_ text: String) throws {
    var fields = ReportRow.empty.csvFields
    let median = try #require(ReportSchema.columns.firstIndex(of: "median_ns"))
    fields[median] = text
    let csv = ReportSchema.headerLine + fields.map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ",") + "\n"
    #expect {
      _ = try ReportSchema.parse(csv, path: "hostile.csv")
    } throws: { error in
      let e = error as? ReportError
      return e?.exitCode == 65 && e?.description.contains("hostile.csv") == true
        && e?.description.contains("line 2") == true && e?.description.contains("median_ns") == true
    }
  }

  /// The axis of the charts on its own, where the traps were: every value
  /// lands inside the plot, with a few finite ticks.
  @Test(arguments: [
    [Double.leastNonzeroMagnitude], [1e-308, 1e308], [.greatestFiniteMagnitude, -.greatestFiniteMagnitude],
    [1e16, 1e16 + 2], [-0.0], [0, .leastNonzeroMagnitude], [.infinity, 1], [.nan, 3], [],
  ])
  func chartsOfExtremeValuesAreWellFormed(_ values: [Double]) throws {
    for log in [false, true] {
      let chart = SVGChart(
        title: "t", subtitle: "s", yLabel: "y", yKind: .nanoseconds, yLog: log,
        content: .bars(values.map { SVGChart.Bar(label: "\($0)", series: "kdtree", value: $0, p90: $0, p99: $0) }),
        palette: ChartPalette(indexes: ["kdtree"]))
      let svg = chart.render()
      expectWellFormed(svg, "bars of \(values) log \(log)")
      let ticks = try #require(SVGDocument(svg)).elements(classed: "axis-y").count
      #expect(ticks == 1)
      let lines = SVGChart(
        title: "t", subtitle: "s", yLabel: "y", yKind: .count, yLog: log,
        content: .lines(
          x: .numeric(kind: .plain, log: log), xLabel: "x",
          series: [SVGChart.Series(name: "a", colorKey: "kdtree", points: values.map { (x: $0, y: $0) })]),
        palette: ChartPalette(indexes: ["kdtree"]))
      expectWellFormed(lines.render(), "lines of \(values) log \(log)")
    }
  }
}
