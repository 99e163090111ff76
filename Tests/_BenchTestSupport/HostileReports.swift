import BenchFormats
import BenchHarness
import BenchWorkloads
import _SeededRandom

/// Report rows that are hostile on purpose, drawn from a seeded SplitMix64:
/// the figures a report reader takes that break naive arithmetic
/// (subnormals, ±1e308, the largest integers, negative zero, percentiles out
/// of order), parameter values that read as NaN or infinity, keys that
/// gather into groups of one or of thousands, empty reports, and every
/// dataset origin a report can spell. `HostileReportTests` draws from it.
package struct HostileReports {
  package var random: SplitMix64

  package init(seed: UInt64) { random = SplitMix64(seed: seed) }

  /// Finite doubles at the edges: zeros of both signs, the subnormals, the
  /// smallest normal, around 1, the largest, and their negatives.
  package static let numbers: [Double] = [
    0, -0.0, .leastNonzeroMagnitude, 1e-308, .leastNormalMagnitude, 1e-300, 1e-9, 0.5, 1, 999.5, 1e3,
    1e6, 1e9, 1e15, 1e16, 1e300, 1e308, .greatestFiniteMagnitude, -1, -1e-308, -1e308,
    -.greatestFiniteMagnitude,
  ]

  /// Whole numbers at the edges of the columns' types.
  package static let integers: [UInt64] = [0, 1, 2, 1000, UInt64(Int32.max), UInt64(Int.max), .max]

  /// Values of a numeric parameter: ordinary ones, extreme ones, and text
  /// that `Double(_:)` reads as NaN or infinity, or not at all.
  package static let parameterValues = [
    "4", "16", "64", "1e308", "5e-324", "-0", "nan", "inf", "-inf", "1e16", "10000000000000002", "0x10",
    "", "abc",
  ]

  static let indexes = ["linear", "quadtree", "grid", "kdtree", "celltree", "rtree", "postgis-gist", "x<y>&\""]
  static let datasets = ["uniform", "hotels", "places", "a.csv", "dir/b.geojson", ""]
  static let workloads = ["build", "viewport", "cluster", "tap", "nearest", "live", "live.update", ""]
  static let strategies = ["", "aggregate", "per-cell", "range", "k=1", "buffered"]
  static let zooms = ["all", "all", "all", "0-3", "4-7", "8-11", "x", "99999999999999999999-1", ""]

  /// One of `choices`.
  package mutating func pick<T>(_ choices: [T]) -> T { choices[random.nextInt(below: choices.count)] }

  /// An edge value three times in four, else any finite double.
  package mutating func number() -> Double {
    if random.nextInt(below: 4) > 0 { return pick(Self.numbers) }
    while true {
      let v = Double(bitPattern: random.next())
      if v.isFinite { return v }
    }
  }

  /// An edge value or a small one, at most `limit`.
  package mutating func integer(upTo limit: UInt64 = .max) -> UInt64 {
    let v = random.nextInt(below: 3) == 0 ? random.next() % 1000 : pick(Self.integers)
    return Swift.min(v, limit)
  }

  mutating func optionalInteger() -> UInt64? { random.nextInt(below: 3) == 0 ? nil : integer() }

  mutating func params() -> String {
    let names = ["capacity", "nodeSize", "cellSize"]
    return (0..<random.nextInt(below: 3)).map { "\(names[$0])=\(pick(Self.parameterValues))" }
      .joined(separator: ";")
  }

  /// A row with every figure drawn on its own: percentiles in any order,
  /// intervals inverted, counters on some rows only.
  package mutating func row() -> ReportRow {
    let key = ReportKey(
      index: pick(Self.indexes), params: params(), dataset: pick(Self.datasets),
      n: Int(integer(upTo: UInt64(Int.max))), workload: pick(Self.workloads), strategy: pick(Self.strategies),
      zooms: pick(Self.zooms))
    let timing = TimingSummary(
      samples: Int(integer(upTo: UInt64(Int.max))), min: number(), median: number(), p90: number(),
      p99: number(), max: number(), mean: number(), stddev: number(), ciLow: number(), ciHigh: number(),
      noisy: random.nextInt(below: 2) == 0, batch: Int(integer(upTo: UInt64(Int.max))))
    return ReportRow(
      key: key, timing: timing, buildMilliseconds: number(), indexBytes: Int(integer(upTo: UInt64(Int.max))),
      workloadBytes: optionalInteger(), peakRSSBytes: integer(), resultsTotal: integer(),
      checksum: random.next(), churn: optionalInteger(),
      counters: ReportCounters(
        nodesVisited: optionalInteger(), pointsTested: optionalInteger(), pointsReported: optionalInteger()),
      wrongAnswers: random.nextInt(below: 4) == 0 ? integer() : nil,
      run: RunMetadata(
        timestamp: pick(["2026-01-31T12:00:00Z", "", "x"]), gitCommit: "abc1234",
        machine: MachineInfo(
          cpuModel: pick(["AMD EPYC", ""]), cores: Int(integer(upTo: UInt64(Int.max))), memoryBytes: integer(),
          os: "Debian"),
        swiftVersion: "6.3", buildConfig: pick(["release", "debug"]), seed: integer()),
      datasetOrigin: origin())
  }

  /// A bundled dataset or generator, a points file of any size and hash,
  /// or one that was not a regular file (what a report can spell).
  package mutating func origin() -> DatasetOrigin {
    switch random.nextInt(below: 3) {
    case 0: .named
    case 1: .file(FileFingerprint(size: integer(), hash: random.next()))
    default: .file(nil)
    }
  }

  /// A report: empty, one row, or up to 40 rows, a third of them sharing
  /// another row's key but for one part (an n, a parameter, a zoom band), so
  /// that scaling, sweep and zoom charts form.
  package mutating func report() -> [ReportRow] {
    let count = pick([0, 1, 2, 3, 5, 8, 13, 20, 40])
    var rows: [ReportRow] = []
    for _ in 0..<count {
      var row = self.row()
      if let other = rows.isEmpty ? nil : pick(rows), random.nextInt(below: 3) == 0 {
        let kept = row.key
        row.key = other.key
        switch random.nextInt(below: 4) {
        case 0: row.key.n = kept.n
        case 1: row.key.params = kept.params
        case 2: row.key.zooms = kept.zooms
        default: row.key.index = kept.index
        }
      }
      rows.append(row)
    }
    return rows
  }

  /// `count` rows of one dataset, n and workload: one chart of `count` bars.
  package mutating func oneGroup(of count: Int) -> [ReportRow] {
    (0..<count).map { i in
      var row = self.row()
      row.key = ReportKey(
        index: pick(Self.indexes), params: "capacity=\(i)", dataset: "uniform", n: 1000, workload: "viewport",
        strategy: "", zooms: "all")
      return row
    }
  }
}
