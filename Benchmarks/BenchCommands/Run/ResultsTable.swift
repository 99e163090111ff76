import BenchHarness
import Foundation

/// The aligned table `bench run` prints: one line per report row.
///
/// The median's 95% interval is printed as its two ends, not as a share of
/// the median: for bimodal samples (a 100M viewport row) the share read
/// "656199.0%", where the ends say at once what the spread is.
enum ResultsTable {
  static func render(_ rows: [ReportRow]) -> String {
    let header = ["index", "params", "dataset", "n", "workload", "strategy", "median", "p90", "p99",
                  "95% interval", "build", "B/pt", "results"]
    var lines = [header]
    for r in rows where r.key.zooms == "all" {
      let t = r.timing
      lines.append([
        r.key.index, r.key.params.isEmpty ? "-" : r.key.params, r.key.dataset, "\(r.key.n)",
        r.key.workload, r.key.strategy.isEmpty ? "-" : r.key.strategy,
        duration(t.median), duration(t.p90), duration(t.p99),
        interval(t),
        String(format: "%.1f ms", r.buildMilliseconds),
        String(format: "%.1f", r.bytesPerPoint), "\(r.resultsTotal)",
      ])
    }
    var widths = [Int](repeating: 0, count: header.count)
    for line in lines { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
    let numeric: Set<Int> = [3, 6, 7, 8, 9, 10, 11, 12]
    return lines.map { line in
      line.enumerated().map { i, cell in
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        return numeric.contains(i) ? pad + cell : cell + pad
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }

  static func duration(_ ns: Double) -> String { formatDuration(ns) }

  /// The median's 95% interval, its two ends, and whether it is noisy.
  static func interval(_ t: TimingSummary) -> String {
    "\(duration(t.ciLow))–\(duration(t.ciHigh))" + (t.noisy ? " noisy" : "")
  }
}
