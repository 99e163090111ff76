extension HTMLReport {
  /// One chart per budgeted workload of `rows`: each candidate's p99 (its
  /// fastest variant; nearest's slowest k) as a bar in its index's colour,
  /// against the workload's share of the frame as a dashed line.
  static func budgetCharts(_ rows: [ReportRow], budget: FrameBudget) -> [SVGChart] {
    let candidates = Candidate.all(in: rows, budget: budget)
    let palette = ChartPalette(indexes: candidates.map(\.index))
    var charts: [SVGChart] = []
    let datasets = Set(candidates.map { "\($0.dataset) \($0.n)" })
    for w in budget.counted {
      let workload = w.name, share = w.share
      guard let allowance = budget.allowance(for: workload) else { continue }
      for set in datasets.sorted() {
        let measured = candidates.filter { "\($0.dataset) \($0.n)" == set }
          .compactMap { c in c.evidence.first { $0.workload == workload }.map { (c, $0) } }
        guard let first = measured.first else { continue }
        let bars = measured.map { c, e in
          let changed = ReportKey.paramsText(ParameterDefaults.changed(c.params, index: c.index))
          let label = c.index + (changed.isEmpty ? "" : " " + changed) + (e.strategy.isEmpty ? "" : " · " + e.strategy)
          return SVGChart.Bar(label: label, series: c.index, value: e.p99)
        }
        var chart = SVGChart(
          title: "\(workload): p99 per step against \(Int(share * 100))% of a frame",
          subtitle: "\(first.0.dataset), n = \(first.0.n); each index's fastest way"
            + (w.variantsAreQuestions ? " (its slowest variant)" : ""),
          yLabel: "p99 time per step", yKind: .nanoseconds,
          yLog: SVGChart.wantsLogScale(bars.map(\.value) + [allowance]), content: .bars(bars), palette: palette)
        chart.limit = (allowance, "budget \(formatValue(allowance, .nanoseconds))")
        charts.append(chart)
      }
    }
    return charts
  }
}
