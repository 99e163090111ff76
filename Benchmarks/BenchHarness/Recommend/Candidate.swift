/// One choice a map could make: an index with its parameters, and for each
/// budgeted workload its fastest variant (cluster strategy, tap way, live
/// strategy) in the rows, as the evidence for or against it.
public struct Candidate: Sendable, Equatable {
  /// The p99 of one workload against its allowance.
  public struct Evidence: Sendable, Equatable {
    public var workload: String
    /// The variant with the smallest p99 (nearest: the one with the largest,
    /// since an app asks every k it was measured with).
    public var strategy: String
    public var p99: Double
    public var allowance: Double
    /// Samples behind the p99.
    public var samples: Int
    /// The chosen row's `filter` column: what it filtered and aggregated
    /// (empty: every point; the filter session's rows name its controls).
    public var filter: String = ""

    /// The share of its allowance the p99 takes (over 1: misses the budget).
    public var use: Double { allowance > 0 ? p99 / allowance : .infinity }
  }

  public var index: String
  public var params: String
  public var dataset: String
  public var n: Int
  /// In ``FrameBudget/shares`` order.
  public var evidence: [Evidence]
  /// The most any chosen row holds: the index and what its variant keeps beside it.
  public var bytes: UInt64
  /// The build row's median, ms; `nil` when the rows have no build row.
  public var buildMilliseconds: Double?

  /// The largest share of its allowance any workload takes.
  public var worstUse: Double { evidence.map(\.use).max() ?? .infinity }

  /// The workload taking the largest share of its allowance.
  public var worst: Evidence? { evidence.max { $0.use < $1.use } }

  public var bytesPerPoint: Double { n > 0 ? Double(bytes) / Double(n) : 0 }

  /// The chosen variant of `workload`, if measured.
  public func strategy(of workload: String) -> String? {
    evidence.first { $0.workload == workload }?.strategy
  }

  /// The candidates of `rows` (whole-session rows only), one per index,
  /// parameters, dataset and n. A candidate missing a budgeted workload that
  /// others of its dataset were measured on is left out: nothing shows it
  /// would meet the budget.
  public static func all(in rows: [ReportRow], budget: FrameBudget) -> [Candidate] {
    let whole = rows.filter { $0.key.zooms == "all" }
    let liveNames = Set(budget.workloads.filter(\.onlyWhenLive).map(\.name))
    let live = whole.filter { liveNames.contains($0.key.workload) }
    let groups = orderedGroups(whole.filter { !liveNames.contains($0.key.workload) }) {
      [$0.key.index, $0.key.params, $0.key.dataset, "\($0.key.n)"]
    }
    var candidates: [Candidate] = []
    for group in groups {
      let key = group[0].key
      // A live strategy runs the index with parameters of its own (a
      // buffered index's share, a quadtree over the world): its rows belong
      // to every candidate with the same chosen parameters.
      let chosen = ParameterDefaults.chosen(key.params, index: key.index)
      let rows = group + live.filter {
        $0.key.index == key.index && $0.key.dataset == key.dataset && $0.key.n == key.n
          && ParameterDefaults.chosen($0.key.params, index: key.index) == chosen
      }
      var evidence: [Evidence] = []
      var bytes: UInt64 = 0
      for workload in budget.counted.map(\.name) {
        guard let allowance = budget.allowance(for: workload) else { continue }
        // an engine's way that gave wrong answers (PostGIS's `&&` viewport,
        // `float4` boxes) is no way to that answer, however fast
        let measured = rows.filter { $0.key.workload == workload && $0.timing.samples > 0 && ($0.wrongAnswers ?? 0) == 0 }
        // nearest's variants are different questions (k); the others are
        // ways to the same answer, of which the app takes the leanest of
        // those as fast as the fastest (the verdict's own rule, so that which
        // of two roomy variants ran faster, noise, never sets the memory).
        let pick = budget.variantsAreQuestions(workload)
          ? measured.max { $0.timing.p99 < $1.timing.p99 }
          : leanestAsFast(measured, allowance: allowance)
        guard let row = pick else { continue }
        evidence.append(Evidence(
          workload: workload, strategy: row.key.strategy, p99: row.timing.p99, allowance: allowance,
          samples: row.timing.samples, filter: row.key.filter))
        bytes = max(bytes, saturatingSum(UInt64(max(0, row.indexBytes)), row.workloadBytes ?? 0))
      }
      guard !evidence.isEmpty else { continue }
      let build = rows.first { $0.key.workload == "build" }
      if let build { bytes = max(bytes, UInt64(max(0, build.indexBytes))) }
      let buildMilliseconds = build?.buildMilliseconds ?? rows.map(\.buildMilliseconds).first { $0 > 0 }
      candidates.append(Candidate(
        index: key.index, params: key.params, dataset: key.dataset, n: key.n, evidence: evidence,
        bytes: bytes, buildMilliseconds: buildMilliseconds))
    }
    // Only candidates with every workload their dataset was measured on.
    var measured: [String: Set<String>] = [:]
    for c in candidates { measured["\(c.dataset) \(c.n)", default: []].formUnion(c.evidence.map(\.workload)) }
    return candidates.filter { Set($0.evidence.map(\.workload)) == measured["\($0.dataset) \($0.n)"] }
  }
}

/// Of `rows`, ways to one answer, the one holding the least memory among
/// those as fast as the fastest (within ``FrameBudget/sameSpeedFactor`` of
/// its p99, or within ``FrameBudget/roomyUse`` of the allowance), then the
/// fastest of those.
func leanestAsFast(_ rows: [ReportRow], allowance: Double) -> ReportRow? {
  guard let fastest = rows.map(\.timing.p99).min() else { return nil }
  let bar = max(fastest * FrameBudget.sameSpeedFactor, allowance * FrameBudget.roomyUse)
  func held(_ r: ReportRow) -> UInt64 { saturatingSum(UInt64(max(0, r.indexBytes)), r.workloadBytes ?? 0) }
  return rows.filter { $0.timing.p99 <= bar }.min { a, b in
    held(a) != held(b) ? held(a) < held(b) : a.timing.p99 < b.timing.p99
  }
}

/// `a + b`, or `UInt64.max` where that overflows: a report's `index_bytes`
/// and `workload_bytes` may each be as large as their columns hold.
func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
  let (sum, overflow) = a.addingReportingOverflow(b)
  return overflow ? .max : sum
}
