/// The answer to "which index for my map?" for one dataset, decided from
/// report rows by documented rules (README, "How `bench recommend` decides"):
///
/// 1. A choice meets the budget when every budgeted workload's p99 fits its
///    share of the frame (``FrameBudget``) and it holds no more than the
///    memory limit.
/// 2. Among those, the ones whose worst share used is within
///    ``FrameBudget/sameSpeedFactor`` of the best's, or at most
///    ``FrameBudget/roomyUse`` of every share, are as fast; of them the one
///    holding the least memory wins (within ``FrameBudget/sameMemoryFactor``
///    counts as the same), then the fastest build, then the most headroom.
/// 3. When none meets the budget, the closest wins: the smallest of its
///    worst share used and its memory over the limit.
public struct Verdict: Sendable, Equatable {
  /// Why the winner beat the runner-up: what a rerun could change.
  public enum Decider: Sendable, Equatable {
    /// The runner-up misses the budget (or the limit) and the winner does not.
    case budget
    /// Both are as fast; the winner holds less memory (deterministic).
    case memory
    /// As fast and as small; the winner builds faster.
    case build
    /// The winner leaves more of the frame (a ratio of worst shares used).
    case speed
    /// No runner-up.
    case alone
  }

  public var budget: FrameBudget
  /// Every candidate, best first.
  public var ranking: [Candidate]
  /// Whether ``winner`` meets the budget (else it is only the closest).
  public var met: Bool
  public var decider: Decider
  /// The worst share used up to which a choice counted as fast as the best
  /// (0 when none met the budget).
  public var bar: Double = 0

  public var winner: Candidate { ranking[0] }

  /// The best candidate of another index than the winner's (another
  /// parameter set of the same index when it is the only one).
  public var runnerUp: Candidate? {
    ranking.dropFirst().first { $0.index != winner.index } ?? ranking.dropFirst().first
  }

  /// The verdict over `candidates` (of one dataset and n); `nil` when there is none.
  public init?(_ candidates: [Candidate], budget: FrameBudget) {
    guard !candidates.isEmpty else { return nil }
    self.budget = budget
    let passing = candidates.filter { Self.meets($0, budget) }
    if let best = passing.map(\.worstUse).min() {
      let bar = Self.sameSpeedBar(best)
      self.bar = bar
      let same = passing.filter { $0.worstUse <= bar }
      let slower = passing.filter { $0.worstUse > bar }
      let failing = candidates.filter { !Self.meets($0, budget) }
      let smallest = same.map(\.bytes).min() ?? 0
      ranking = same.sorted { Self.smallerThenFaster($0, $1, smallest: smallest) }
        + slower.sorted { $0.worstUse < $1.worstUse }
        + failing.sorted { Self.closeness($0, budget) < Self.closeness($1, budget) }
      met = true
    } else {
      ranking = candidates.sorted { Self.closeness($0, budget) < Self.closeness($1, budget) }
      met = false
    }
    decider = .alone
    if let r = runnerUp { decider = Self.decider(ranking[0], r, budget) }
  }

  /// A choice near the "as fast" bar whose crossing it would change the
  /// pick: one that met the budget and missed ``bar`` by less than
  /// ``FrameBudget/sameSpeedFactor`` but would win, or make another win,
  /// were it counted as fast; or one counted as fast within a quarter of
  /// the bar without which another would win. Noise moves a p99 that much
  /// between runs, so it lowers the confidence.
  public var nearMiss: NearMiss? {
    guard met, decider == .memory || decider == .build else { return nil }
    let same = ranking.filter { Self.meets($0, budget) && $0.worstUse <= bar }
    for c in ranking where Self.meets(c, budget) && c.worstUse > bar && c.worstUse <= bar * FrameBudget.sameSpeedFactor {
      let pick = Self.first(of: same + [c])
      if pick != winner { return NearMiss(candidate: c, over: true, pick: pick) }
    }
    for c in same where c != winner && c.worstUse > bar / 1.25 {
      let pick = Self.first(of: same.filter { $0 != c })
      if pick != winner { return NearMiss(candidate: c, over: false, pick: pick) }
    }
    return nil
  }

  /// A choice on the other side of the bar from where a rerun may put it.
  public struct NearMiss: Sendable, Equatable {
    /// The choice near the bar.
    public var candidate: Candidate
    /// Whether it missed the bar (else it made it, narrowly).
    public var over: Bool
    /// The pick had it landed on the bar's other side.
    public var pick: Candidate
  }

  /// The first of `same`, choices all counted as fast, by the rules' order.
  static func first(of same: [Candidate]) -> Candidate {
    let smallest = same.map(\.bytes).min() ?? 0
    return same.min { smallerThenFaster($0, $1, smallest: smallest) }!
  }

  /// Whether `c` fits every allowance and the memory limit.
  public static func meets(_ c: Candidate, _ budget: FrameBudget) -> Bool {
    c.worstUse <= 1 && budget.memoryLimitBytes.map { c.bytes <= $0 } ?? true
  }

  /// How far `c` is from the budget: 1 or less meets it.
  static func closeness(_ c: Candidate, _ budget: FrameBudget) -> Double {
    let memory = budget.memoryLimitBytes.map { Double(c.bytes) / Double(max(1, $0)) } ?? 0
    return max(c.worstUse, memory)
  }

  /// The worst share used up to which a choice is as fast as the best, `best`.
  static func sameSpeedBar(_ best: Double) -> Double {
    max(best * FrameBudget.sameSpeedFactor, FrameBudget.roomyUse)
  }

  /// Whether `bytes` counts as small as `smallest`.
  static func asSmall(_ bytes: UInt64, _ smallest: UInt64) -> Bool {
    Double(bytes) <= Double(smallest) * FrameBudget.sameMemoryFactor
  }

  /// Less memory first (as small as `smallest` counting as equal), then a
  /// faster build, then more of the frame left.
  static func smallerThenFaster(_ a: Candidate, _ b: Candidate, smallest: UInt64) -> Bool {
    let aSmall = asSmall(a.bytes, smallest), bSmall = asSmall(b.bytes, smallest)
    if aSmall != bSmall { return aSmall }
    if !aSmall && a.bytes != b.bytes { return a.bytes < b.bytes }
    let ab = a.buildMilliseconds ?? .infinity, bb = b.buildMilliseconds ?? .infinity
    if ab != bb { return ab < bb }
    return a.worstUse < b.worstUse
  }

  static func decider(_ w: Candidate, _ r: Candidate, _ budget: FrameBudget) -> Decider {
    if meets(w, budget) != meets(r, budget) { return .budget }
    if !meets(w, budget) { return .speed }
    if r.worstUse > sameSpeedBar(w.worstUse) { return .speed }
    if !asSmall(r.bytes, w.bytes) { return .memory }
    if w.buildMilliseconds != r.buildMilliseconds { return .build }
    return .speed
  }

  /// One verdict per dataset and n in `rows`, in the rows' order.
  public static func all(in rows: [ReportRow], budget: FrameBudget) -> [Verdict] {
    orderedGroups(Candidate.all(in: rows, budget: budget), by: { "\($0.dataset) \($0.n)" })
      .compactMap { Verdict($0, budget: budget) }
  }
}
