import SpatialIndexes

/// What a report row measures: one index, configured one way, on one dataset
/// of `n` points, running one workload with one query strategy. Rows of two
/// reports are joined on this key by `Comparison`.
public struct ReportKey: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Index name, as `bench list --indexes` gives it (`kdtree`).
  public var index: String
  /// Index parameters as `name=value` pairs joined by `;`, e.g.
  /// `capacity=16;maxDepth=32`; empty when the index has none.
  public var params: String
  /// A bundled dataset's or a generator's name, or a points file's path as
  /// given (`hotels.geojson`, `data/paris.csv`); see ``ReportRow/datasetOrigin``.
  public var dataset: String
  /// Number of points indexed.
  public var n: Int
  public var workload: String
  /// How the workload calls the index: `per-cell`, `single-pass` or `aggregate` for
  /// clustering, empty otherwise.
  public var strategy: String
  /// The zoom levels the row's steps cover: `all`, or a band such as `4-7`
  /// (rows of one band are cut from the same run's samples).
  public var zooms: String
  /// The filter the row's steps applied and the aggregates its markers
  /// reported (`stars >= 4 aggregate sum:price`); empty for none. A report
  /// written before the column was added reads it empty.
  public var filter: String

  public init(
    index: String, params: String = "", dataset: String, n: Int,
    workload: String, strategy: String, zooms: String = "all", filter: String = ""
  ) {
    self.index = index
    self.params = params
    self.dataset = dataset
    self.n = n
    self.workload = workload
    self.strategy = strategy
    self.zooms = zooms
    self.filter = filter
  }

  /// Parameters as the `params` column spells them: `name=value` pairs
  /// joined by `;`.
  package static func paramsText(_ values: [ParameterValue]) -> String {
    values.map { "\($0.name)=\($0.value)" }.joined(separator: ";")
  }

  /// The `name=value` pairs of ``params``, in order.
  package var parameters: [ParameterValue] { Self.parameters(of: params) }

  /// The `name=value` pairs of a `params` text.
  package static func parameters(of params: String) -> [ParameterValue] {
    params.split(separator: ";").map { part in
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      return ParameterValue(String(pieces[0]), pieces.count > 1 ? String(pieces[1]) : "")
    }
  }

  /// Orders by index, params, dataset, n, workload, strategy, zooms, filter.
  public static func < (a: ReportKey, b: ReportKey) -> Bool {
    // Tuples compare up to six elements: the last three go together.
    (a.index, a.params, a.dataset, a.n, a.workload, a.strategy + "\u{0}" + a.zooms + "\u{0}" + a.filter)
      < (b.index, b.params, b.dataset, b.n, b.workload, b.strategy + "\u{0}" + b.zooms + "\u{0}" + b.filter)
  }

  /// `index[params] dataset n=… workload/strategy`, and the filter in
  /// braces when there is one, for tables and messages.
  public var description: String {
    let p = params.isEmpty ? "" : "[\(params)]"
    let z = zooms == "all" ? "" : " z\(zooms)"
    let w = strategy.isEmpty ? workload : "\(workload)/\(strategy)"
    let f = filter.isEmpty ? "" : " {\(filter)}"
    return "\(index)\(p) \(dataset) n=\(n) \(w)\(z)\(f)"
  }
}

/// Latency figures of one operation (a query, a step of a walk), in nanoseconds.
public struct TimingSummary: Sendable, Equatable {
  public var samples: Int
  public var min: Double
  public var median: Double
  public var p90: Double
  public var p99: Double
  public var max: Double
  public var mean: Double
  public var stddev: Double
  /// 95% confidence interval of the median.
  public var ciLow: Double
  public var ciHigh: Double
  /// The interval's half-width exceeds 5% of the median.
  public var noisy: Bool
  /// Calls per timed sample (1 = timed singly), see `measure(_:options:clock:progress:)`.
  public var batch: Int

  public init(
    samples: Int, min: Double, median: Double, p90: Double, p99: Double,
    max: Double, mean: Double, stddev: Double, ciLow: Double, ciHigh: Double,
    noisy: Bool, batch: Int
  ) {
    self.samples = samples
    self.min = min
    self.median = median
    self.p90 = p90
    self.p99 = p99
    self.max = max
    self.mean = mean
    self.stddev = stddev
    self.ciLow = ciLow
    self.ciHigh = ciHigh
    self.noisy = noisy
    self.batch = batch
  }

  /// The figures of `statistics`, measured with batches of `batch` calls.
  public init(_ statistics: Statistics, batch: Int) {
    self.init(
      samples: statistics.count, min: statistics.minimum, median: statistics.median,
      p90: statistics.p90, p99: statistics.p99, max: statistics.maximum,
      mean: statistics.mean, stddev: statistics.standardDeviation,
      ciLow: statistics.medianLowerBound, ciHigh: statistics.medianUpperBound,
      noisy: statistics.isNoisy, batch: batch)
  }

  /// The statistics of a measurement's samples, with its batch size.
  public init(_ measurement: Measurement) {
    self.init(measurement.statistics, batch: measurement.batch)
  }

  /// All zeros: an operation that was not timed.
  public static let zero = TimingSummary(Statistics([]), batch: 0)
}

/// Deterministic work counts recorded by the index itself (hardware counters
/// are not available on our VMs). `nil` means not recorded, written as an empty
/// field. Totals over one pass of the workload.
public struct ReportCounters: Sendable, Equatable {
  public var nodesVisited: UInt64?
  public var pointsTested: UInt64?
  public var pointsReported: UInt64?

  public init(
    nodesVisited: UInt64? = nil, pointsTested: UInt64? = nil, pointsReported: UInt64? = nil
  ) {
    self.nodesVisited = nodesVisited
    self.pointsTested = pointsTested
    self.pointsReported = pointsReported
  }

  /// Nothing recorded.
  public static let none = ReportCounters()
}

/// One line of a report: every figure for one `ReportKey`, plus the run's
/// metadata so any row can be read on its own. Columns: `ReportSchema`.
public struct ReportRow: Sendable, Equatable {
  public var key: ReportKey
  /// Latency per operation.
  public var timing: TimingSummary
  /// Time to build the index, in milliseconds.
  public var buildMilliseconds: Double
  /// Memory the index holds, in bytes, as the index reports it.
  public var indexBytes: Int
  /// Memory the workload keeps beside the index for this row (a cluster
  /// strategy's per-point records and sums), in bytes; `nil` for none.
  public var workloadBytes: UInt64?
  /// Process peak resident set size when the row was measured (see
  /// `MachineInfo.peakResidentBytes()`); it never goes down within a process.
  public var peakRSSBytes: UInt64
  /// Ids reported over one pass of the workload.
  public var resultsTotal: UInt64
  /// Order-independent hash of the answers; equal answers, equal checksums.
  public var checksum: UInt64
  /// Cluster markers added plus removed over one pass (`nil`: not a cluster row).
  public var churn: UInt64?
  public var counters: ReportCounters
  /// A database engine's steps whose answer differs from the linear scan's
  /// (`nil` for an index: `bench verify` checks those).
  public var wrongAnswers: UInt64?
  public var run: RunMetadata
  /// What `key.dataset` names: a bundled dataset or generator, or a points
  /// file and its fingerprint (`.unrecorded` for a row of an older report).
  public var datasetOrigin: DatasetOrigin
  /// Bytes of a saved file the index reads through a memory mapping (an
  /// index opened from `--index-file`); `nil` for one in memory alone.
  public var mappedBytes: UInt64?
  /// Of ``mappedBytes``, those in the process's memory when the row was
  /// measured; `nil` without a mapping or where the system cannot tell.
  public var residentBytes: UInt64?

  public init(
    key: ReportKey, timing: TimingSummary, buildMilliseconds: Double = 0,
    indexBytes: Int = 0, workloadBytes: UInt64? = nil, peakRSSBytes: UInt64 = 0, resultsTotal: UInt64 = 0,
    checksum: UInt64 = 0, churn: UInt64? = nil, counters: ReportCounters = .none,
    wrongAnswers: UInt64? = nil, run: RunMetadata, datasetOrigin: DatasetOrigin = .named,
    mappedBytes: UInt64? = nil, residentBytes: UInt64? = nil
  ) {
    self.key = key
    self.timing = timing
    self.buildMilliseconds = buildMilliseconds
    self.indexBytes = indexBytes
    self.workloadBytes = workloadBytes
    self.peakRSSBytes = peakRSSBytes
    self.resultsTotal = resultsTotal
    self.checksum = checksum
    self.churn = churn
    self.counters = counters
    self.wrongAnswers = wrongAnswers
    self.run = run
    self.datasetOrigin = datasetOrigin
    self.mappedBytes = mappedBytes
    self.residentBytes = residentBytes
  }

  /// `indexBytes / n`; 0 when `n` is 0, so the report never holds NaN.
  public var bytesPerPoint: Double {
    key.n > 0 ? Double(indexBytes) / Double(key.n) : 0
  }

  /// Everything the row's work holds per point: the index and what the
  /// workload keeps beside it; 0 when `n` is 0.
  public var totalBytesPerPoint: Double {
    key.n > 0 ? (Double(indexBytes) + Double(workloadBytes ?? 0)) / Double(key.n) : 0
  }
}
