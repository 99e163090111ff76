import Foundation

/// A comparison as Markdown, ready for a pull-request comment
/// (`bench compare … --markdown`). Its shape, documented in `docs/formats.md`:
/// a summary line with the outcome, then one table row per joined report row
/// (the row's key, the medians old and new, their ratio, and the verdicts on
/// timing, work counters and answers; regressions in bold), then the rows
/// present on one side only, and the warnings.
extension Comparison {
  public func markdown() -> String {
    let all = entries.flatMap(\.figures)
    let timing = all.filter { $0.name == "median_ns" }
    func count(_ v: Verdict, in figures: [Figure]) -> Int { figures.filter { $0.verdict == v }.count }
    var out = "**Result: \(outcome == .noRegression ? "no regression" : outcome.line.lowercased()).** "
    out += "\(entries.count) rows compared (threshold \(formatFigure(threshold * 100))%"
    out += judgesTiming ? ")" : ", timings for information only)"
    out += ": \(count(.regressed, in: timing)) slower, \(count(.improved, in: timing)) faster, "
    out += "\(count(.withinNoise, in: timing)) within noise; "
    out += "\(count(.regressed, in: all) - count(.regressed, in: timing)) counter increases; "
    out += "\(count(.differs, in: all)) answer changes.\n\n"
    if !entries.isEmpty {
      out += "| row | median old | median new | ratio | timing | work | answers |\n"
      out += "|---|---:|---:|---:|---|---|---|\n"
      for entry in entries {
        let median = entry.figure("median_ns")
        let counters = entry.figures.filter { ["nodes_visited", "points_tested", "points_reported"].contains($0.name) }
        let answers = entry.figures.filter { ["results_total", "checksum"].contains($0.name) }
        let old: String = median.flatMap { Double($0.old) }.map(formatDuration) ?? ""
        let new: String = median.flatMap { Double($0.new) }.map(formatDuration) ?? ""
        let ratio: String = median?.ratio.map { formatRatio($0) + "×" } ?? ""
        let timingVerdict: String = median.map { shown($0.verdict, judged: judgesTiming) } ?? ""
        let cells: [String] = [
          "`\(entry.key.description)`", old, new, ratio, timingVerdict,
          shown(worst(counters), judged: true), shown(worst(answers), judged: true),
        ]
        out += "| " + cells.map { $0.replacingPipes() }.joined(separator: " | ") + " |\n"
      }
    }
    for (title, keys) in [
      ("Only in baseline", onlyInBaseline), ("Only in current", onlyInCurrent),
      ("Counters missing in current", countersMissing),
    ] where !keys.isEmpty {
      out += "\n\(title) (\(keys.count)):\n\n" + keys.map { "- `\($0.description)`\n" }.joined()
    }
    if !warnings.isEmpty { out += "\nWarnings:\n\n" + warnings.map { "- \($0)\n" }.joined() }
    return out
  }

  /// The most serious verdict among `figures`; "n/a" for none.
  private func worst(_ figures: [Figure]) -> Verdict {
    let order: [Verdict] = [.differs, .regressed, .missing, .improved, .withinNoise, .same]
    return order.first { v in figures.contains { $0.verdict == v } } ?? .notComparable
  }

  private func shown(_ verdict: Verdict, judged: Bool) -> String {
    let word = verdict.rawValue
    return (verdict == .regressed || verdict == .differs || verdict == .missing) && judged ? "**\(word)**" : word
  }
}

extension String {
  /// `|` escaped, so a cell never splits a table row.
  fileprivate func replacingPipes() -> String {
    var out = ""
    for c in self { out += c == "|" ? "\\|" : String(c) }
    return out
  }
}
