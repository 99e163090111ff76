import BenchHarness
import Foundation
import Testing
import _SpatialTestSupport

/// Rows of two indexes over the budgeted workloads.
private func reportRows() -> [ReportRow] {
  var rows: [ReportRow] = []
  for (index, scale) in [("kdtree", 1.0), ("grid", 3.0)] {
    for (workload, strategy) in [("build", ""), ("viewport", ""), ("cluster", "aggregate"), ("tap", "range")] {
      rows.append(testRow(index: index, params: "", dataset: "hotels", n: 10_000, workload: workload,
                          strategy: strategy, median: 50_000 * scale))
    }
  }
  return rows
}

private func page(map: Result<String, HTMLReport.MapUnavailable> = .failure(.init("no map <here> & there"))) -> String {
  HTMLReport(
    title: "SpatialBench: hotels <10k> & \"friends\"", rows: reportRows(), budget: FrameBudget(),
    warnings: ["12 points repeat"], map: map, commands: ["swift run -c release bench run --dataset 'a b'"]
  ).render()
}

@Suite struct HTMLReportTests {
  @Test func thePageIsWellFormedAndEscapesEveryText() throws {
    let html = page()
    let document = try #require(SVGDocument(html), "the page parses as XML")
    #expect(document.elements.first?.name == "html")
    #expect(html.contains("hotels &lt;10k&gt; &amp; &quot;friends&quot;"))
    #expect(html.contains("no map &lt;here&gt; &amp; there"))
  }

  @Test func itLoadsNothing() {
    let html = page(map: .success(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>\n"))
    for reference in ["src=", "href=", "<link", "<script", "url(", "@import", "<iframe", "<img"] {
      #expect(!html.contains(reference), "\(reference)")
    }
    // The only address is the SVG namespace, a name that is never fetched.
    let addresses = html.components(separatedBy: "http").dropFirst()
    #expect(!addresses.isEmpty && addresses.allSatisfy { $0.hasPrefix("://www.w3.org/2000/svg\"") })
    #expect(!html.contains("<?xml"), "inline SVG without its declaration")
  }

  @Test func itHoldsTheVerdictBudgetChartsTableMachineAndCommands() throws {
    let html = page()
    let document = try #require(SVGDocument(html))
    for id in ["verdict", "warnings", "map", "budget", "rows", "charts", "run", "reproduce"] {
      #expect(document.elements.contains { $0.name == "section" && $0.attributes["id"] == id }, "\(id)")
    }
    let verdict = try #require(document.elements.first { $0.classes.contains("verdict") })
    #expect(verdict.text.contains("use kdtree"))
    // One budget chart per workload measured, each with its dashed budget line.
    let limits = document.elements.filter { $0.name == "line" && $0.classes.contains("limit") }
    #expect(limits.count >= 3)
    #expect(html.contains("budget 4.17 ms"))
    #expect(document.elements.filter { $0.name == "tr" }.count == 1 + 8, "a header and a row per report row")
    #expect(html.contains("bench run --dataset &apos;a b&apos;") || html.contains("bench run --dataset 'a b'"))
    #expect(html.contains("AMD EPYC"))
  }

  @Test func rowsOverTheirShareAreMarked() throws {
    var rows = reportRows()
    rows.append(testRow(index: "linear", params: "", dataset: "hotels", n: 10_000, workload: "viewport",
                        strategy: "", median: 9e6))
    let html = HTMLReport(title: "t", rows: rows, budget: FrameBudget(), map: .failure(.init("none")), commands: [])
      .render()
    let document = try #require(SVGDocument(html))
    #expect(document.elements.filter { $0.name == "tr" && $0.classes.contains("over") }.count == 1)
  }

  /// A filtered row names its filter in a column of its own; a page without
  /// one keeps its columns.
  @Test func aFilteredRowNamesItsFilter() throws {
    var rows = reportRows()
    let plain = HTMLReport(title: "t", rows: rows, budget: FrameBudget(), map: .failure(.init("none")), commands: [])
      .render()
    #expect(!plain.contains("<th>filter</th>"))
    var row = testRow(index: "celltree", params: "", dataset: "hotels", n: 10_000, workload: "cluster",
                      strategy: "aggregate", median: 1e5)
    row.key.filter = "stars >= 4 aggregate min:price"
    rows.append(row)
    let html = HTMLReport(title: "t", rows: rows, budget: FrameBudget(), map: .failure(.init("none")), commands: [])
      .render()
    #expect(html.contains("<th>strategy</th><th>filter</th><th>median</th>"))
    #expect(html.contains("<td>aggregate</td>\n<td>stars &gt;= 4 aggregate min:price</td>\n"))
    #expect(SVGDocument(html) != nil)
  }
}
