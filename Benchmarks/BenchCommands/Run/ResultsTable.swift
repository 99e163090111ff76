import BenchHarness
import Foundation
import SpatialIndexes

/// The aligned table `bench run` prints: one line per report row, made to
/// fit a 120-column terminal (the report keeps everything in full).
///
/// - A dataset and point count shared by every row are said once, above.
/// - Parameters at their defaults are left out, numbers cut to 4 significant
///   digits, the rest cut at ``paramsWidth`` ("…"): the full form is the
///   report's `params`.
/// - The build time is the build row's median, not a column of every row.
/// - Durations have three significant digits.
/// - The median's 95% interval is its two ends, not a share of the median:
///   for bimodal samples (a 100M viewport row) the share read "656199.0%",
///   where the ends say at once what the spread is. A noisy row is starred.
enum ResultsTable {
  /// The most characters of parameters shown.
  static let paramsWidth = 24

  static func render(_ rows: [ReportRow]) -> String {
    let shown = rows.filter { $0.key.zooms == "all" }
    let oneSet = Set(shown.map { "\($0.key.dataset) \($0.key.n)" }).count <= 1
    var header = ["index", "params", "dataset", "n", "workload", "strategy", "median", "p90", "p99",
                  "95% interval", "B/pt", "results"]
    var numeric: Set<String> = ["n", "median", "p90", "p99", "95% interval", "B/pt", "results"]
    if oneSet { header.removeAll { $0 == "dataset" || $0 == "n" } }
    // a filtered row names its filter; a run without one keeps its width
    if shown.contains(where: { !$0.key.filter.isEmpty }) { header.insert("filter", at: header.firstIndex(of: "median")!) }
    var lines = [header]
    for r in shown {
      let t = r.timing
      var cells: [String: String] = [
        "index": r.key.index, "params": shortParams(r.key.params, index: r.key.index),
        "dataset": r.key.dataset, "n": "\(r.key.n)", "workload": r.key.workload,
        "strategy": r.key.strategy.isEmpty ? "-" : r.key.strategy,
        "median": duration(t.median), "p90": duration(t.p90), "p99": duration(t.p99),
        "95% interval": interval(t), "B/pt": String(format: "%.1f", r.bytesPerPoint),
        "results": "\(r.resultsTotal)", "filter": r.key.filter.isEmpty ? "-" : r.key.filter,
      ]
      cells["params"] = cells["params"]!.isEmpty ? "-" : cells["params"]!
      lines.append(header.map { cells[$0]! })
    }
    numeric.formIntersection(header)
    var widths = [Int](repeating: 0, count: header.count)
    for line in lines { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
    var text = ""
    if oneSet, let first = shown.first {
      text += "\(first.key.dataset), \(first.key.n) points\n"
    }
    text += lines.map { line in
      line.enumerated().map { i, cell in
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        return numeric.contains(header[i]) ? pad + cell : cell + pad
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
    var notes = ["params: defaults left out, numbers to 4 digits (the report has them in full)"]
    if shown.contains(where: \.timing.noisy) {
      notes.append("* noisy: the interval is wider than 5% of the median either way")
    }
    return text + notes.map { $0 + "\n" }.joined()
  }

  /// Three significant digits in the largest unit under 1,000 (`13.1 µs`,
  /// `126 µs`, `1.13 ms`): a table is read for ratios, and the report has the
  /// nanoseconds. (``formatDurationShort(_:)``, shared with `bench table`.)
  static func duration(_ ns: Double) -> String { formatDurationShort(ns) }

  /// The median's 95% interval, its two ends (one unit when they share it),
  /// starred when noisy.
  static func interval(_ t: TimingSummary) -> String {
    let low = duration(t.ciLow), high = duration(t.ciHigh)
    let lowParts = low.split(separator: " "), highParts = high.split(separator: " ")
    let text = lowParts.count == 2 && highParts.count == 2 && lowParts[1] == highParts[1]
      ? "\(lowParts[0])–\(high)" : "\(low)–\(high)"
    return text + (t.noisy ? "*" : "")
  }

  /// `params` without the values at their defaults, each number to 4
  /// significant digits (`bounds=-180:-90:180:90`), at most ``paramsWidth``.
  static func shortParams(_ params: String, index: String) -> String {
    let defaults = ParameterDefaults.values(of: index)
    let parts = params.split(separator: ";").compactMap { pair -> String? in
      let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard kv.count == 2 else { return String(pair) }
      if defaults[kv[0]] == kv[1] { return nil }
      let value = kv[1].split(separator: ":", omittingEmptySubsequences: false).map { part in
        Double(part).map { $0.rounded() == $0 && abs($0) < 1e6 ? String(Int($0)) : String(format: "%.4g", $0) }
          ?? String(part)
      }.joined(separator: ":")
      return "\(kv[0])=\(value)"
    }
    let joined = parts.joined(separator: ";")
    return joined.count <= paramsWidth ? joined : String(joined.prefix(paramsWidth - 1)) + "…"
  }
}
