import BenchHarness
import SpatialIndexes
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `ReportPlots` and `SVGChart` on hand-made reports: which charts are made,
/// what they hold, and that every one is well-formed XML.
@Suite struct PlotTests {
  static let indexes = ["linear", "quadtree", "grid", "kdtree"]

  /// One viewport row per index at `n`, medians from `medians`.
  static func viewportRows(
    n: Int = 1_000, medians: [Double] = [10_000, 900, 300, 400], dataset: String = "uniform"
  ) -> [ReportRow] {
    zip(indexes, medians).map { index, median in
      testRow(
        index: index, params: "", dataset: dataset, n: n, workload: "viewport", strategy: "",
        median: median)
    }
  }

  /// The chart named `name`, checked to be well-formed.
  func chart(
    _ name: String, in files: [PlotFile], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    let file = try #require(
      files.first { $0.name == name }, "no \(name) in \(files.map(\.name))",
      sourceLocation: sourceLocation)
    let svg = file.svg
    #expect(isWellFormedXML(svg), "\(name) is not well-formed", sourceLocation: sourceLocation)
    return svg
  }

  func isWellFormedXML(_ text: String) -> Bool {
    XMLParser(data: Data(text.utf8)).parse()
  }

  func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  @Test func latencyBarsHaveOneBarAndWhiskerPerIndexAndALegend() throws {
    let (files, skipped) = ReportPlots.make(Self.viewportRows())
    let svg = try chart("latency-uniform-n1000-viewport.svg", in: files)
    #expect(count("<rect class=\"bar\"", in: svg) == 4)
    #expect(count("<line class=\"whisker\"", in: svg) == 4)
    for index in Self.indexes {
      #expect(svg.contains(">\(index)</text>"), "legend lacks \(index)")
    }
    // Title block: dataset, n, machine and date.
    #expect(svg.contains("uniform · n = 1,000 · AMD EPYC, 2 cores · 2026-01-31"))
    // 10,000 / 300 > 20: log scale.
    #expect(svg.contains("class=\"axis-y log\""))
    #expect(files.count == 1)
    // Everything else lacks data: skipped with a note, not drawn.
    let charts = skipped.map(\.chart)
    #expect(charts.contains("scaling") && charts.contains("sweeps"))
    #expect(charts.contains("zoom bands") && charts.contains("build time and bytes per point"))
    #expect(skipped.contains { $0.description == "skipped scaling: the report has one n per index" })
  }

  @Test func linearScaleWhenValuesSpanLittle() throws {
    let rows = Self.viewportRows(medians: [100, 120, 110, 130])
    let svg = try chart("latency-uniform-n1000-viewport.svg", in: ReportPlots.make(rows).files)
    #expect(svg.contains("class=\"axis-y linear\""))
    #expect(!svg.contains("class=\"axis-y log\""))
    #expect(SVGChart.wantsLogScale([1, 21]))
    #expect(!SVGChart.wantsLogScale([1, 20]))
    #expect(!SVGChart.wantsLogScale([0, 100]))
  }

  @Test func scalingHasOneLinePerIndexWhenThereAreTwoN() throws {
    let rows = Self.viewportRows(n: 1_000) + Self.viewportRows(n: 100_000)
    let (files, skipped) = ReportPlots.make(rows)
    let svg = try chart("scaling-uniform-viewport.svg", in: files)
    #expect(count("<polyline class=\"series\"", in: svg) == 4)
    #expect(svg.contains("class=\"axis-x log\"") && svg.contains("class=\"axis-y log\""))
    #expect(!skipped.contains { $0.chart.hasPrefix("scaling") })
    // And one latency chart per n.
    #expect(files.filter { $0.name.hasPrefix("latency-") }.count == 2)
  }

  @Test func sweepOfOneNumericParameter() throws {
    let rows = [4, 16, 64].map { capacity in
      testRow(
        index: "quadtree", params: "capacity=\(capacity);maxDepth=32;bounds=data",
        workload: "viewport", strategy: "", median: Double(1_000 + capacity))
    }
    let (files, _) = ReportPlots.make(rows)
    let svg = try chart("sweep-capacity-uniform-n1000-viewport.svg", in: files)
    #expect(count("<polyline class=\"series\"", in: svg) == 1)
    #expect(count("<circle", in: svg) == 3)
    // The bar chart names each parameter set.
    let bars = try chart("latency-uniform-n1000-viewport.svg", in: files)
    #expect(count("<rect class=\"bar\"", in: bars) == 3)
    #expect(bars.contains(">quadtree capacity=16</text>"))
    // Numbers in params sort by value: 4, 16, 64.
    let positions = ["capacity=4<", "capacity=16<", "capacity=64<"].map {
      bars.range(of: $0)?.lowerBound
    }
    #expect(positions.allSatisfy { $0 != nil })
    #expect(positions[0]! < positions[1]! && positions[1]! < positions[2]!)
  }

  @Test func sweepIgnoresDescriptionsDerivedFromTheSweptParameter() throws {
    let rows = [(0.5, "720x360"), (1.0, "360x180"), (2.0, "180x90")].map { size, cells in
      testRow(
        index: "grid", params: "cellSize=\(size);pointsPerCell=4;storage=dense;cells=\(cells)",
        workload: "viewport", strategy: "", median: 1_000 * size)
    }
    let (files, _) = ReportPlots.make(rows)
    let svg = try chart("sweep-cellSize-uniform-n1000-viewport.svg", in: files)
    #expect(count("<polyline class=\"series\"", in: svg) == 1)
    #expect(count("<circle", in: svg) == 3)
  }

  @Test func linesOfOneIndexDifferByDash() throws {
    var rows: [ReportRow] = []
    for n in [1_000, 10_000] {
      for capacity in [4, 16] {
        rows.append(
          testRow(
            index: "quadtree", params: "capacity=\(capacity);bounds=\(n)", n: n, strategy: "",
            median: Double(n / capacity)))
      }
    }
    let svg = try chart("scaling-uniform-viewport.svg", in: ReportPlots.make(rows).files)
    // bounds changes with n only: the series are told apart by capacity alone.
    #expect(count("<polyline class=\"series\"", in: svg) == 2)
    #expect(svg.contains(">quadtree capacity=4</text>") && svg.contains(">quadtree capacity=16</text>"))
    #expect(count("stroke-dasharray", in: svg) == 2)  // the second line and its legend swatch
  }

  @Test func noSweepWhenParamsDifferInTwoKeysOrAreNotNumbers() throws {
    let rows = [
      testRow(index: "quadtree", params: "capacity=4;maxDepth=8", strategy: ""),
      testRow(index: "quadtree", params: "capacity=16;maxDepth=32", strategy: ""),
      testRow(index: "grid", params: "storage=dense", strategy: ""),
      testRow(index: "grid", params: "storage=hash", strategy: ""),
    ]
    let (files, skipped) = ReportPlots.make(rows)
    #expect(!files.contains { $0.name.hasPrefix("sweep") })
    #expect(skipped.contains { $0.chart == "sweeps" })
  }

  @Test func buildChartsFromBuildRows() throws {
    let rows = Self.indexes.map { index in
      testRow(index: index, params: "", workload: "build", strategy: "", median: 2_000_000)
    }
    let (files, skipped) = ReportPlots.make(rows)
    let time = try chart("build-time-uniform-n1000.svg", in: files)
    let bytes = try chart("bytes-per-point-uniform-n1000.svg", in: files)
    #expect(count("<rect class=\"bar\"", in: time) == 4)
    #expect(count("<rect class=\"bar\"", in: bytes) == 4)
    #expect(time.contains("2 ms"))
    // Build rows are not query latencies.
    #expect(!files.contains { $0.name.hasPrefix("latency") })
    #expect(skipped.contains { $0.chart == "latency" })
  }

  @Test func zoomBandsHaveOneLinePerIndex() throws {
    var rows: [ReportRow] = []
    for (band, scale) in [("0-3", 50.0), ("4-7", 5.0), ("8-11", 1.0)] {
      for (index, median) in [("grid", 300.0), ("kdtree", 400.0)] {
        var row = testRow(index: index, params: "", workload: "viewport", strategy: "", median: median * scale)
        row.key.zooms = band
        rows.append(row)
      }
    }
    let (files, _) = ReportPlots.make(rows)
    let svg = try chart("zooms-uniform-n1000-viewport.svg", in: files)
    #expect(count("<polyline class=\"series\"", in: svg) == 2)
    #expect(svg.contains(">4-7</text>") && svg.contains(">grid</text>") && svg.contains(">kdtree</text>"))
    #expect(svg.contains("class=\"axis-y log\""))  // 20,000 / 300 > 20
    // Only band rows: no whole-run charts.
    #expect(files.count == 1)
  }

  @Test func textIsEscaped() throws {
    let rows = Self.viewportRows(dataset: "a<b&\"c\"")
    let (files, _) = ReportPlots.make(rows)
    let file = try #require(files.first)
    let svg = file.svg
    #expect(isWellFormedXML(svg))
    #expect(svg.contains("a&lt;b&amp;&quot;c&quot;"))
    #expect(!svg.contains("a<b"))
    #expect(!file.name.contains("<") && !file.name.contains("&") && file.name.hasSuffix(".svg"))
  }

  @Test func eachIndexKeepsItsColour() throws {
    let palette = ChartPalette(indexes: ["zeta", "kdtree", "alpha"])
    #expect(palette.color(for: "linear") == "#7f7f7f")
    #expect(palette.color(for: "kdtree") == ChartPalette(indexes: []).color(for: "kdtree"))
    #expect(palette.color(for: "alpha") != palette.color(for: "zeta"))
    // every index of the catalogue has a colour of its own, whatever else a chart holds
    let all = ChartPalette(indexes: allIndexTypes.map { $0.name } + ["postgis", "zeta"])
    let colours = (allIndexTypes.map { $0.name } + ["postgis", "zeta"]).map(all.color(for:))
    #expect(Set(colours).count == colours.count, "\(colours)")
    for type in allIndexTypes { #expect(all.color(for: type.name) == palette.color(for: type.name)) }
    // The same colour in the bar chart and the scaling chart.
    let rows = Self.viewportRows(n: 1_000) + Self.viewportRows(n: 10_000)
    let files = ReportPlots.make(rows).files
    let kdtree = palette.color(for: "kdtree")
    for name in ["latency-uniform-n1000-viewport.svg", "scaling-uniform-viewport.svg"] {
      #expect(try chart(name, in: files).contains("fill=\"\(kdtree)\""))
    }
  }

  @Test func emptyReportMakesNoCharts() {
    let (files, skipped) = ReportPlots.make([])
    #expect(files.isEmpty)
    #expect(!skipped.isEmpty)
  }
}
