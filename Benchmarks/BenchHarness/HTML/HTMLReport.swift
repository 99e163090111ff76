/// A one-page, self-contained HTML report: the verdicts, the data's
/// warnings, a cluster map, the p99 of every workload against its frame
/// budget, the table of rows, the other charts, the machine and the commands
/// that reproduce it. Everything is inline (SVG, CSS); the page loads
/// nothing, so it works offline and from an attachment. It is also
/// well-formed XML (void elements closed, every text escaped), so tests and
/// other tools can parse it.
public struct HTMLReport: Sendable {
  public var title: String
  public var rows: [ReportRow]
  public var budget: FrameBudget
  /// Lines about the data (``DataWarnings``); empty when clean or unknown.
  public var warnings: [String]
  /// A cluster map as an SVG document (`MapPicture.render()`), or why there is none.
  public var map: Result<String, MapUnavailable>
  /// The shell commands that reproduce the report.
  public var commands: [String]

  /// Why the report has no map.
  public struct MapUnavailable: Error, Sendable { public var reason: String; public init(_ r: String) { reason = r } }

  public init(
    title: String, rows: [ReportRow], budget: FrameBudget, warnings: [String] = [],
    map: Result<String, MapUnavailable>, commands: [String]
  ) {
    self.title = title
    self.rows = rows
    self.budget = budget
    self.warnings = warnings
    self.map = map
    self.commands = commands
  }

  /// The verdicts of the rows, one per dataset and n.
  public var verdicts: [Verdict] { Verdict.all(in: rows, budget: budget) }

  /// The whole page.
  public func render() -> String {
    var page = HTMLWriter()
    page.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
    page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
    page.element("title", title)
    page.raw("<style>\n\(Self.style)</style>\n</head>\n<body>\n")
    page.element("h1", title)
    if let run = rows.first?.run {
      page.element("p", "Measured \(run.timestamp) at commit \(run.gitCommit) on \(run.machine.cores) cores, "
        + "\(run.buildConfig) build. Frame budget: \(Int(budget.framesPerSecond)) Hz.", attributes: [("class", "sub")])
    }

    page.open("section", [("id", "verdict")])
    page.element("h2", "Verdict")
    let verdicts = self.verdicts
    if verdicts.isEmpty { page.element("p", "The rows hold no budgeted workload (viewport, cluster, tap, nearest, live).") }
    for v in verdicts {
      page.element("pre", v.lines.joined(separator: "\n"), attributes: [("class", v.met ? "verdict met" : "verdict missed")])
    }
    page.element("p", Self.rulesText, attributes: [("class", "note")])
    page.close("section")

    if !warnings.isEmpty {
      page.open("section", [("id", "warnings")])
      page.element("h2", "About the data")
      page.open("ul", [])
      for w in warnings { page.element("li", w) }
      page.close("ul")
      page.close("section")
    }

    page.open("section", [("id", "map")])
    page.element("h2", "The data, clustered")
    switch map {
    case .success(let svg): page.raw(Self.inline(svg))
    case .failure(let why): page.element("p", why.reason, attributes: [("class", "note")])
    }
    page.close("section")

    page.open("section", [("id", "budget")])
    page.element("h2", "p99 against the frame budget")
    let budgetCharts = HTMLReport.budgetCharts(rows, budget: budget)
    if budgetCharts.isEmpty { page.element("p", "No budgeted workload in the rows.") }
    for chart in budgetCharts { page.raw(Self.inline(chart.render())) }
    page.close("section")

    page.open("section", [("id", "rows")])
    page.element("h2", "Every row")
    table(into: &page)
    page.close("section")

    let (charts, _) = ReportPlots.make(rows)
    if !charts.isEmpty {
      page.open("section", [("id", "charts")])
      page.element("h2", "Latency, build and memory")
      page.open("details", [])
      page.element("summary", "\(charts.count) charts (median bars, p90 and p99 whiskers)")
      for chart in charts { page.raw(Self.inline(chart.svg)) }
      page.close("details")
      page.close("section")
    }

    page.open("section", [("id", "run")])
    page.element("h2", "Machine and run")
    if let run = rows.first?.run {
      page.open("dl", [])
      for (term, value) in [
        ("CPU", run.machine.cpuModel), ("cores", "\(run.machine.cores)"),
        ("memory", Verdict.bytes(UInt64(max(0, run.machine.memoryBytes)))), ("OS", run.machine.os),
        ("Swift", run.swiftVersion), ("build", run.buildConfig), ("commit", run.gitCommit),
        ("started", run.timestamp), ("seed", "\(run.seed)"), ("rows", "\(rows.count)"),
      ] {
        page.element("dt", term)
        page.element("dd", value)
      }
      page.close("dl")
    }
    page.close("section")

    page.open("section", [("id", "reproduce")])
    page.element("h2", "Reproduce")
    page.element("pre", commands.joined(separator: "\n"))
    page.close("section")
    page.raw("</body>\n</html>\n")
    return page.output
  }

  /// The rows' table: shortened parameters, the full form on hover.
  private func table(into page: inout HTMLWriter) {
    page.open("table", [])
    // a filtered row names its filter; a page without one keeps its columns
    let filtered = rows.contains { !$0.key.filter.isEmpty }
    page.raw("<thead><tr><th>index</th><th>params</th><th>dataset</th><th>n</th><th>workload</th><th>strategy</th>"
      + (filtered ? "<th>filter</th>" : "")
      + "<th>median</th><th>p90</th><th>p99</th><th>B/pt</th><th>results</th></tr></thead>\n")
    page.open("tbody", [])
    for r in rows where r.key.zooms == "all" {
      let changed = ReportKey.paramsText(ParameterDefaults.changed(r.key.params, index: r.key.index))
      let allowance = budget.allowance(for: r.key.workload)
      let over = allowance.map { r.timing.p99 > $0 } ?? false
      page.open("tr", over ? [("class", "over")] : [])
      page.element("td", r.key.index)
      page.element("td", changed.isEmpty ? "-" : changed, attributes: [("title", r.key.params)])
      page.element("td", r.key.dataset)
      page.element("td", "\(r.key.n)", attributes: [("class", "num")])
      page.element("td", r.key.workload)
      page.element("td", r.key.strategy.isEmpty ? "-" : r.key.strategy)
      if filtered { page.element("td", r.key.filter.isEmpty ? "-" : r.key.filter) }
      for v in [r.timing.median, r.timing.p90, r.timing.p99] {
        page.element("td", formatValue(v, .nanoseconds), attributes: [("class", "num")])
      }
      page.element("td", String(format: "%.1f", r.totalBytesPerPoint), attributes: [("class", "num")])
      page.element("td", "\(r.resultsTotal)", attributes: [("class", "num")])
      page.close("tr")
    }
    page.close("tbody")
    page.close("table")
    page.element("p", "Rows in red miss their share of the frame at p99. B/pt counts the index and what the strategy keeps beside it.",
                 attributes: [("class", "note")])
  }

  /// An SVG document without its XML declaration, to sit in the page.
  static func inline(_ svg: String) -> String {
    guard svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") else { return svg }
    return "<figure>" + String(svg[svg.index(after: end)...]) + "</figure>\n"
  }

  static let rulesText = "How it decides: a choice meets the budget when each workload's p99 fits its share of a "
    + "frame (a quarter for the viewport, the clustering, a tap and a nearest search; half for a live frame) and it "
    + "holds no more than the memory limit. Of those, the ones whose worst share used is within "
    + "\(FrameBudget.sameSpeedFactor)× of the best's, or at most \(Int(FrameBudget.roomyUse * 100))% of every share, "
    + "are as fast; of them the least memory wins (within \(Int((FrameBudget.sameMemoryFactor - 1) * 100 + 0.5))% "
    + "counts as the same), then the fastest build. When none meets it, the closest is shown."

  static let style = """
    body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px auto; max-width: 1100px; color: #222; padding: 0 16px; }
    h1 { font-size: 26px; margin-bottom: 4px; }
    h2 { font-size: 19px; margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
    .sub, .note { color: #555; font-size: 14px; }
    pre { background: #f6f8fa; padding: 12px; overflow-x: auto; font-size: 13px; line-height: 1.4; }
    pre.verdict.met { border-left: 5px solid #2ca02c; }
    pre.verdict.missed { border-left: 5px solid #d62728; }
    figure { margin: 12px 0; }
    figure svg { max-width: 100%; height: auto; border: 1px solid #eee; }
    table { border-collapse: collapse; font-size: 13px; width: 100%; }
    th, td { padding: 3px 8px; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
    td.num { text-align: right; font-variant-numeric: tabular-nums; }
    tr.over td { color: #b00; }
    dl { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; font-size: 14px; }
    dt { color: #555; }
    dd { margin: 0; }

    """
}

/// Appends HTML, escaping every text and attribute value.
struct HTMLWriter {
  private(set) var output = ""

  mutating func raw(_ text: String) { output += text }

  mutating func open(_ name: String, _ attributes: [(String, String)]) {
    output += tag(name, attributes) + ">\n"
  }

  mutating func close(_ name: String) { output += "</\(name)>\n" }

  mutating func element(_ name: String, _ text: String, attributes: [(String, String)] = []) {
    output += tag(name, attributes) + ">" + SVGWriter.escape(text) + "</\(name)>\n"
  }

  private func tag(_ name: String, _ attributes: [(String, String)]) -> String {
    "<\(name)" + attributes.map { " \($0.0)=\"\(SVGWriter.escape($0.1))\"" }.joined()
  }
}
