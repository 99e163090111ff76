import BenchHarness
import Foundation

/// The aligned table `bench run` prints: one line per report row.
enum ResultsTable {
  static func render(_ rows: [ReportRow]) -> String {
    let header = ["index", "params", "dataset", "n", "workload", "strategy", "median", "p90", "p99",
                  "±95%", "build", "B/pt", "results"]
    var lines = [header]
    for r in rows where r.key.zooms == "all" {
      let t = r.timing
      let half = (t.ciHigh - t.ciLow) / 2
      lines.append([
        r.key.index, r.key.params.isEmpty ? "-" : r.key.params, r.key.dataset, "\(r.key.n)",
        r.key.workload, r.key.strategy.isEmpty ? "-" : r.key.strategy,
        duration(t.median), duration(t.p90), duration(t.p99),
        (t.median > 0 ? String(format: "%.1f%%", 100 * half / t.median) : "-") + (t.noisy ? " noisy" : ""),
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
}
