/// A chart made from report rows, with the file name it is saved under.
public struct PlotFile: Sendable {
  /// `latency-hotels-n20000-viewport.svg` and the like: letters, digits,
  /// `.`, `_` and `-` only.
  public var name: String
  public var chart: SVGChart

  /// The SVG document.
  public var svg: String { chart.render() }
}

/// A chart not drawn because the report lacks its data.
public struct PlotSkip: Sendable, Equatable, CustomStringConvertible {
  /// Which chart: `scaling`, `sweeps`, `zoom bands`…
  public var chart: String
  public var reason: String

  /// `skipped scaling: the report has one n per index`.
  public var description: String { "skipped \(chart): \(reason)" }
}

/// Turns report rows into charts. Each kind of chart is made only where the
/// rows hold its data; otherwise a `PlotSkip` says why, and no empty chart
/// is produced.
///
/// Rows with `zooms == "all"` feed every chart but the zoom-band one. When
/// several reports hold the same `ReportKey`, the last row read wins.
public enum ReportPlots {
  /// The charts of `rows`, in order: latency bars, scaling, parameter sweeps,
  /// build time and bytes per point, zoom bands.
  public static func make(_ rows: [ReportRow]) -> (files: [PlotFile], skipped: [PlotSkip]) {
    var unique: [ReportKey: ReportRow] = [:]
    var order: [ReportKey] = []
    for row in rows {
      if unique.updateValue(row, forKey: row.key) == nil { order.append(row.key) }
    }
    let rows = order.map { unique[$0]! }.sorted(by: legendOrder)
    let palette = ChartPalette(indexes: rows.map(\.key.index))
    let all = rows.filter { $0.key.zooms == "all" }
    let bands = rows.filter { $0.key.zooms != "all" }

    var files: [PlotFile] = []
    var skipped: [PlotSkip] = []
    for make in [latencyCharts, scalingCharts, sweepCharts, buildCharts] {
      let (f, s) = make(all, palette)
      files += f
      skipped += s
    }
    let (f, s) = zoomCharts(bands, palette)
    return (files + f, skipped + s)
  }

  // MARK: - 1. Latency bars

  static func latencyCharts(_ rows: [ReportRow], _ palette: ChartPalette) -> ([PlotFile], [PlotSkip]) {
    let queries = rows.filter { $0.key.workload != "build" }
    guard !queries.isEmpty else {
      return ([], [PlotSkip(chart: "latency", reason: "the report has no query rows")])
    }
    var files: [PlotFile] = []
    for group in grouped(queries, by: { [$0.key.dataset, "\($0.key.n)", $0.key.workload, $0.key.strategy] }) {
      let labels = self.labels(group, cell: { _ in "" })
      let bars = zip(group, labels).map { row, label in
        SVGChart.Bar(
          label: label, series: row.key.index, value: row.timing.median, p90: row.timing.p90,
          p99: row.timing.p99)
      }
      let values = group.flatMap { [$0.timing.median, $0.timing.p90, $0.timing.p99] }
      let k = group[0].key
      let chart = SVGChart(
        title: "\(workloadName(k)): median latency per step",
        subtitle: subtitle(group, n: "n = \(grouping(k.n))"),
        yLabel: "time per step", yKind: .nanoseconds, yLog: SVGChart.wantsLogScale(values),
        content: .bars(bars), palette: palette)
      files.append(PlotFile(name: fileName(["latency", k.dataset, "n\(k.n)", k.workload, k.strategy]), chart: chart))
    }
    return (files, [])
  }

  // MARK: - 2. Scaling

  static func scalingCharts(_ rows: [ReportRow], _ palette: ChartPalette) -> ([PlotFile], [PlotSkip]) {
    var files: [PlotFile] = []
    var skipped: [PlotSkip] = []
    for group in grouped(rows, by: { [$0.key.dataset, $0.key.workload, $0.key.strategy] }) {
      // Resolved defaults (a data-derived cellSize or bounds) change with n;
      // only parameters that differ at one n tell series apart.
      let labels = self.labels(group, cell: { "\($0.key.n)" })
      var series: [(name: String, index: String, points: [(x: Double, y: Double)])] = []
      for (row, label) in zip(group, labels) {
        let point = (x: Double(row.key.n), y: row.timing.median)
        if let i = series.firstIndex(where: { $0.name == label }) {
          series[i].points.append(point)
        } else {
          series.append((label, row.key.index, [point]))
        }
      }
      let k = group[0].key
      guard series.contains(where: { Set($0.points.map(\.x)).count >= 2 }) else {
        skipped.append(
          PlotSkip(
            chart: "scaling \(k.dataset) \(workloadName(k))", reason: "the report has one n per index"))
        continue
      }
      let ns = Set(group.map(\.key.n)).sorted()
      let chart = SVGChart(
        title: "\(workloadName(k)): median latency against n",
        subtitle: subtitle(group, n: "n = \(grouping(ns.first!))–\(grouping(ns.last!))"),
        yLabel: "time per step", yKind: .nanoseconds, yLog: true,
        content: .lines(
          x: .numeric(kind: .count, log: true), xLabel: "points indexed (n)",
          series: series.map {
            SVGChart.Series(name: $0.name, colorKey: $0.index, points: $0.points.sorted { $0.x < $1.x })
          }),
        palette: palette)
      files.append(PlotFile(name: fileName(["scaling", k.dataset, k.workload, k.strategy]), chart: chart))
    }
    if files.isEmpty && !skipped.isEmpty {
      skipped = [PlotSkip(chart: "scaling", reason: "the report has one n per index")]
    }
    return (files, skipped)
  }

  // MARK: - 3. Parameter sweeps

  static func sweepCharts(_ rows: [ReportRow], _ palette: ChartPalette) -> ([PlotFile], [PlotSkip]) {
    var files: [PlotFile] = []
    let cells = grouped(rows, by: { [$0.key.dataset, "\($0.key.n)", $0.key.workload, $0.key.strategy] })
    for cell in cells {
      // key → series of every index sweeping it
      var sweeps: [(key: String, series: [SVGChart.Series])] = []
      for indexRows in grouped(cell, by: { [$0.key.index] }) {
        let parsed = indexRows.map { parameters($0.key.params) }
        let keys = uniqueKeys(parsed)
        var found: [(key: String, rest: String, points: [(x: Double, y: Double)])] = []
        for key in keys {
          let derived = derivedDescriptions(of: key, keys, parsed)
          var byRest: [(rest: String, points: [(x: Double, y: Double)])] = []
          for (row, params) in zip(indexRows, parsed) {
            guard let text = params.first(where: { $0.0 == key })?.1, let x = Double(text), x.isFinite
            else { continue }
            let rest = params.filter { $0.0 != key && !derived.contains($0.0) }
              .map { "\($0.0)=\($0.1)" }.joined(separator: ";")
            if let i = byRest.firstIndex(where: { $0.rest == rest }) {
              byRest[i].points.append((x, row.timing.median))
            } else {
              byRest.append((rest, [(x, row.timing.median)]))
            }
          }
          for entry in byRest where Set(entry.points.map(\.x)).count >= 2 {
            found.append((key, entry.rest, entry.points.sorted { $0.x < $1.x }))
          }
        }
        let index = indexRows[0].key.index
        for entry in found {
          let siblings = found.filter { $0.key == entry.key }
          let name = siblings.count > 1 ? "\(index) \(restDifference(entry.rest, among: siblings.map(\.rest)))" : index
          let line = SVGChart.Series(name: name, colorKey: index, points: entry.points)
          if let i = sweeps.firstIndex(where: { $0.key == entry.key }) {
            sweeps[i].series.append(line)
          } else {
            sweeps.append((entry.key, [line]))
          }
        }
      }
      let k = cell[0].key
      for sweep in sweeps {
        let xs = sweep.series.flatMap { $0.points.map(\.x) }
        let ys = sweep.series.flatMap { $0.points.map(\.y) }
        let chart = SVGChart(
          title: "\(workloadName(k)): median latency against \(sweep.key)",
          subtitle: subtitle(cell, n: "n = \(grouping(k.n))"),
          yLabel: "time per step", yKind: .nanoseconds, yLog: SVGChart.wantsLogScale(ys),
          content: .lines(
            x: .numeric(kind: .plain, log: SVGChart.wantsLogScale(xs)), xLabel: sweep.key,
            series: sweep.series),
          palette: palette)
        files.append(
          PlotFile(
            name: fileName(["sweep", sweep.key, k.dataset, "n\(k.n)", k.workload, k.strategy]),
            chart: chart))
      }
    }
    guard !files.isEmpty else {
      return (
        [],
        [PlotSkip(chart: "sweeps", reason: "no index has rows whose params differ in exactly one numeric key")]
      )
    }
    return (files, [])
  }

  // MARK: - 4. Build time and bytes per point

  static func buildCharts(_ rows: [ReportRow], _ palette: ChartPalette) -> ([PlotFile], [PlotSkip]) {
    let builds = rows.filter { $0.key.workload == "build" }
    guard !builds.isEmpty else {
      return ([], [PlotSkip(chart: "build time and bytes per point", reason: "the report has no build rows")])
    }
    var files: [PlotFile] = []
    for group in grouped(builds, by: { [$0.key.dataset, "\($0.key.n)"] }) {
      let labels = self.labels(group, cell: { _ in "" })
      let k = group[0].key
      let timeBars = zip(group, labels).map { row, label in
        // The build row's timing is the build itself, in ns; build_ms is its median.
        row.timing.median > 0
          ? SVGChart.Bar(
            label: label, series: row.key.index, value: row.timing.median, p90: row.timing.p90,
            p99: row.timing.p99)
          : SVGChart.Bar(label: label, series: row.key.index, value: row.buildMilliseconds * 1e6)
      }
      let times = timeBars.flatMap { [$0.value, $0.p90, $0.p99].compactMap { $0 } }
      let subtitle = subtitle(group, n: "n = \(grouping(k.n))")
      files.append(
        PlotFile(
          name: fileName(["build-time", k.dataset, "n\(k.n)"]),
          chart: SVGChart(
            title: "Build time per index", subtitle: subtitle, yLabel: "build time",
            yKind: .nanoseconds, yLog: SVGChart.wantsLogScale(times), content: .bars(timeBars),
            palette: palette)))
      let byteBars = zip(group, labels).map { row, label in
        SVGChart.Bar(label: label, series: row.key.index, value: row.bytesPerPoint)
      }
      files.append(
        PlotFile(
          name: fileName(["bytes-per-point", k.dataset, "n\(k.n)"]),
          chart: SVGChart(
            title: "Memory per point", subtitle: subtitle, yLabel: "index bytes per point",
            yKind: .plain, yLog: SVGChart.wantsLogScale(byteBars.map(\.value)),
            content: .bars(byteBars), palette: palette)))
    }
    return (files, [])
  }

  // MARK: - 5. Zoom bands

  static func zoomCharts(_ rows: [ReportRow], _ palette: ChartPalette) -> ([PlotFile], [PlotSkip]) {
    guard !rows.isEmpty else {
      return ([], [PlotSkip(chart: "zoom bands", reason: "the report has no zoom-band rows")])
    }
    var files: [PlotFile] = []
    var skipped: [PlotSkip] = []
    for group in grouped(rows, by: { [$0.key.dataset, "\($0.key.n)", $0.key.workload, $0.key.strategy] }) {
      let bands = Set(group.map(\.key.zooms)).sorted { bandStart($0) < bandStart($1) }
      let k = group[0].key
      guard bands.count >= 2 else {
        skipped.append(
          PlotSkip(chart: "zoom bands \(k.dataset) n=\(k.n) \(workloadName(k))", reason: "one zoom band only"))
        continue
      }
      let labels = self.labels(group, cell: { $0.key.zooms })
      var series: [SVGChart.Series] = []
      for (row, label) in zip(group, labels) {
        let point = (x: Double(bands.firstIndex(of: row.key.zooms)!), y: row.timing.median)
        if let i = series.firstIndex(where: { $0.name == label }) {
          series[i].points.append(point)
        } else {
          series.append(SVGChart.Series(name: label, colorKey: row.key.index, points: [point]))
        }
      }
      for i in series.indices { series[i].points.sort { $0.x < $1.x } }
      let ys = series.flatMap { $0.points.map(\.y) }
      let chart = SVGChart(
        title: "\(workloadName(k)): median latency by zoom band",
        subtitle: subtitle(group, n: "n = \(grouping(k.n))"),
        yLabel: "time per step", yKind: .nanoseconds, yLog: SVGChart.wantsLogScale(ys),
        content: .lines(x: .categories(bands), xLabel: "zoom levels", series: series),
        palette: palette)
      files.append(PlotFile(name: fileName(["zooms", k.dataset, "n\(k.n)", k.workload, k.strategy]), chart: chart))
    }
    return (files, skipped)
  }

  // MARK: - Helpers

  /// Index in legend order, then params, n, zooms.
  static func legendOrder(_ a: ReportRow, _ b: ReportRow) -> Bool {
    if a.key.index != b.key.index { return ChartPalette.precedes(a.key.index, b.key.index) }
    if a.key.params != b.key.params { return paramsPrecede(a.key.params, b.key.params) }
    if a.key.n != b.key.n { return a.key.n < b.key.n }
    return bandStart(a.key.zooms) < bandStart(b.key.zooms)
  }

  /// Parameter lists pair by pair, numbers by value (`capacity=4` before
  /// `capacity=16`), anything else as text.
  static func paramsPrecede(_ a: String, _ b: String) -> Bool {
    for (x, y) in zip(parameters(a), parameters(b)) where x != y {
      if x.0 != y.0 { return x.0 < y.0 }
      if let u = Double(x.1), let v = Double(y.1), u != v { return u < v }
      return x.1 < y.1
    }
    return a < b
  }

  /// Rows split by `key`, groups in order of first appearance, rows in order.
  static func grouped(_ rows: [ReportRow], by key: (ReportRow) -> [String]) -> [[ReportRow]] {
    orderedGroups(rows, by: key)
  }

  /// Each row's index name, followed by the parameters that tell it apart
  /// from rows of the same index in the same `cell` (e.g. `quadtree
  /// capacity=4`). Parameters equal within every cell are left out.
  static func labels(_ rows: [ReportRow], cell: (ReportRow) -> String) -> [String] {
    var differing: [String: [String]] = [:]
    for group in grouped(rows, by: { [$0.key.index, cell($0)] }) {
      let parsed = group.map { parameters($0.key.params) }
      for key in uniqueKeys(parsed) {
        let values = Set(parsed.map { p in p.first { $0.0 == key }?.1 ?? "" })
        if values.count > 1, !(differing[group[0].key.index]?.contains(key) ?? false) {
          differing[group[0].key.index, default: []].append(key)
        }
      }
    }
    return rows.map { row in
      guard let keys = differing[row.key.index] else { return row.key.index }
      let params = parameters(row.key.params)
      let shown = keys.map { key in "\(key)=\(params.first { $0.0 == key }?.1 ?? "-")" }
      return row.key.index + " " + shown.joined(separator: ",")
    }
  }

  /// `capacity=16;maxDepth=32` as ordered (name, value) pairs.
  static func parameters(_ text: String) -> [(String, String)] {
    ReportKey.parameters(of: text).map { ($0.name, $0.value) }
  }

  /// The keys, other than `key`, whose values are text (not numbers) that
  /// `key`'s value decides: descriptions an index derives from the swept
  /// parameter, such as the grid's `cells=720x360` from its cell size. They
  /// change along a sweep without being a second swept parameter.
  private static func derivedDescriptions(
    of key: String, _ keys: [String], _ parsed: [[(String, String)]]
  ) -> Set<String> {
    var result: Set<String> = []
    for other in keys where other != key {
      var valueFor: [String: String] = [:]
      var decided = true
      for params in parsed {
        guard let k = params.first(where: { $0.0 == key })?.1,
              let v = params.first(where: { $0.0 == other })?.1 else { continue }
        if Double(v) != nil || valueFor[k, default: v] != v {
          decided = false
          break
        }
        valueFor[k] = v
      }
      if decided && Set(valueFor.values).count > 1 { result.insert(other) }
    }
    return result
  }

  private static func uniqueKeys(_ parsed: [[(String, String)]]) -> [String] {
    var keys: [String] = []
    for p in parsed { for (k, _) in p where !keys.contains(k) { keys.append(k) } }
    return keys
  }

  /// The pairs of `rest` whose values differ among `all`.
  private static func restDifference(_ rest: String, among all: [String]) -> String {
    let parsed = all.map { parameters($0) }
    let mine = parameters(rest)
    return mine.filter { pair in
      Set(parsed.map { p in p.first { $0.0 == pair.0 }?.1 ?? "" }).count > 1
    }.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
  }

  /// `0-3` → 0; `all` and the unparsable sort last.
  static func bandStart(_ zooms: String) -> Int {
    Int(zooms.split(separator: "-").first ?? "") ?? Int.max
  }

  static func workloadName(_ key: ReportKey) -> String {
    key.strategy.isEmpty ? key.workload : "\(key.workload) (\(key.strategy))"
  }

  /// `hotels · n = 20,000 · AMD EPYC, 2 cores · 2026-11-30`; several
  /// machines or dates are all named.
  static func subtitle(_ rows: [ReportRow], n: String) -> String {
    var machines: [String] = []
    var dates: [String] = []
    var datasets: [String] = []
    for row in rows {
      let m = row.run.machine
      let machine = "\(m.cpuModel.isEmpty ? "unknown CPU" : m.cpuModel), \(m.cores) cores"
      if !machines.contains(machine) { machines.append(machine) }
      let date = String(row.run.timestamp.prefix(10))
      if !dates.contains(date) { dates.append(date) }
      if !datasets.contains(row.key.dataset) { datasets.append(row.key.dataset) }
    }
    return [
      datasets.joined(separator: ", "), n, machines.joined(separator: " / "),
      dates.joined(separator: ", "),
    ].filter { !$0.isEmpty }.joined(separator: " · ")
  }

  /// 20000 → `20,000`.
  static func grouping(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(c)
    }
    return (n < 0 ? "-" : "") + out
  }

  /// Parts joined by `-`, empty ones dropped, unsafe characters as `-`, plus `.svg`.
  static func fileName(_ parts: [String]) -> String {
    let stem = parts.filter { !$0.isEmpty }.joined(separator: "-")
    let safe = String(
      stem.unicodeScalars.map { c -> Character in
        let ok = c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c))
        return ok || c == "." || c == "_" || c == "-" ? Character(c) : "-"
      })
    return safe + ".svg"
  }
}
