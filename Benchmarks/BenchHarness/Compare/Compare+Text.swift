import Foundation

extension Comparison {
  /// Warnings, the per-figure table, the rows missing on either side, and
  /// the summary: what `bench compare` prints.
  public func text() -> String {
    var out = ""
    for warning in warnings { out += "warning: \(warning)\n" }
    if !warnings.isEmpty { out += "\n" }
    out += table()
    if !onlyInBaseline.isEmpty {
      out += "\nOnly in baseline (\(onlyInBaseline.count)):\n"
      for key in onlyInBaseline { out += "  \(key)\n" }
    }
    if !onlyInCurrent.isEmpty {
      out += "\nOnly in current (\(onlyInCurrent.count)):\n"
      for key in onlyInCurrent { out += "  \(key)\n" }
    }
    let lost = countersMissing
    if !lost.isEmpty {
      out += "\nCounters missing in current (\(lost.count)):\n"
      for key in lost { out += "  \(key)\n" }
    }
    return out + "\n" + summary()
  }

  /// One line per figure of each joined row: row, figure, old, new,
  /// new/old ratio and verdict, in aligned columns.
  public func table() -> String {
    var lines: [[String]] = [["row", "figure", "old", "new", "ratio", "verdict"]]
    for entry in entries {
      for figure in entry.figures {
        lines.append([
          entry.key.description, figure.name, figure.old, figure.new,
          figure.ratio.map { formatRatio($0) + "x" } ?? "",
          figure.verdict == .info ? "" : figure.verdict.rawValue.uppercasedIfBad(figure),
        ])
      }
    }
    let widths = (0..<6).map { column in lines.map { $0[column].count }.max() ?? 0 }
    let rightAligned: Set<Int> = [2, 3, 4]
    return lines.map { fields in
      fields.enumerated().map { column, field in
        let pad = String(repeating: " ", count: widths[column] - field.count)
        return rightAligned.contains(column) ? pad + field : field + pad
      }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
    }.joined()
  }

  /// Counts of each verdict and the outcome, e.g.
  /// `12 rows compared: 1 regressed, …` then `Result: REGRESSION`.
  public func summary() -> String {
    let all = entries.flatMap(\.figures)
    func count(_ verdict: Verdict) -> Int { all.filter { $0.verdict == verdict }.count }
    let timing = all.filter { $0.name == "median_ns" }
    var out = "\(entries.count) rows compared (threshold \(formatFigure(threshold * 100))%): "
    out += "\(timing.filter { $0.verdict == .regressed }.count) slower, "
    out += "\(timing.filter { $0.verdict == .improved }.count) faster, "
    out += "\(timing.filter { $0.verdict == .withinNoise }.count) within noise; "
    out += "\(count(.regressed) - timing.filter { $0.verdict == .regressed }.count)"
    out += " counter increases; \(count(.differs)) answer changes.\n"
    out += "Missing: \(onlyInBaseline.count) only in baseline, "
    out += "\(onlyInCurrent.count) only in current"
    let lost = countersMissing.count
    out += lost > 0 ? ", \(lost) row\(lost == 1 ? "" : "s") without the baseline's counters.\n" : ".\n"
    if !warnings.isEmpty { out += "\(warnings.count) warning(s), see above.\n" }
    out += "Result: \(outcome.line)\n"
    return out
  }
}

/// A number for people: integers in full, others to 4 significant digits
/// (1 decimal from 1000 up), never in exponent form for report-sized values;
/// from 10^15 up (a report may hold any finite number) in exponent form.
func formatFigure(_ value: Double) -> String {
  if !value.isFinite { return "" }
  if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
  if abs(value) >= 1e15 { return String(format: "%.4g", value) }
  if abs(value) >= 1000 { return String(format: "%.1f", value) }
  return String(format: "%.4g", value)
}

/// A ratio new / old to three decimals (`1.052`); past a million, or from
/// a subnormal baseline, in exponent form, and `∞` where it overflowed.
func formatRatio(_ ratio: Double) -> String {
  if ratio.isNaN { return "n/a" }
  if ratio.isInfinite { return ratio < 0 ? "-∞" : "∞" }
  return abs(ratio) < 1e6 ? String(format: "%.3f", ratio) : String(format: "%.3g", ratio)
}

extension String {
  fileprivate func uppercasedIfBad(_ figure: Comparison.Figure) -> String {
    figure.isRegression ? uppercased() : self
  }

  fileprivate func trimmingTrailingSpaces() -> String {
    var s = self
    while s.last == " " { s.removeLast() }
    return s
  }
}
