/// How much slower than the measuring machine a device may be before the
/// verdict changes. A phone is slower than a laptop or a CI runner, and a
/// pick that uses most of its share here misses it there; one that wins only
/// because everything under ``FrameBudget/roomyUse`` counts as fast enough
/// loses that place on a slower device.
///
/// A device `f` times slower is modelled as every measured time (each p99
/// and each build) times `f`; memory does not change. The verdict then
/// changes only where some candidate's worst share used crosses 1 (it meets
/// the budget or not), ``FrameBudget/roomyUse`` (it counts as fast enough or
/// not) or, under a memory limit, another's memory over that limit (the
/// closest when none meets it). Those slowdowns are tried in order, just
/// past each, so the answer is exact, not sampled.
public struct Headroom: Sendable, Equatable {
  /// The slowdown at which the pick's worst workload fills its share: 1
  /// over its worst share used. Nil when the pick misses the budget here.
  public var untilMiss: Double?
  /// The smallest slowdown at which the verdict picks another choice, and
  /// that choice. Nil when no slowdown changes it.
  public var change: (factor: Double, choice: Candidate)?

  public static func == (a: Headroom, b: Headroom) -> Bool {
    a.untilMiss == b.untilMiss && a.change?.factor == b.change?.factor && a.change?.choice == b.change?.choice
  }
}

extension Candidate {
  /// This candidate measured on a device `factor` times slower: every p99
  /// and the build take `factor` times as long.
  func slowed(by factor: Double) -> Candidate {
    var c = self
    for i in c.evidence.indices { c.evidence[i].p99 *= factor }
    c.buildMilliseconds = c.buildMilliseconds.map { $0 * factor }
    return c
  }

  /// The same choice: index and parameters.
  func isSameChoice(as other: Candidate) -> Bool { index == other.index && params == other.params }
}

extension Verdict {
  /// The headroom of this verdict (see ``Headroom``).
  public var headroom: Headroom {
    let candidates = ranking
    let uses = candidates.map(\.worstUse).filter { $0 > 0 && $0.isFinite }
    var thresholds = [1, FrameBudget.roomyUse]
    if let limit = budget.memoryLimitBytes {
      thresholds += candidates.map { Double($0.bytes) / Double(max(1, limit)) }
    }
    let factors = Set(uses.flatMap { use in thresholds.map { $0 / use } }).filter { $0 > 1 && $0.isFinite }.sorted()
    var change: (factor: Double, choice: Candidate)?
    for factor in factors {
      // just past the crossing: at it, the candidate still meets the bar
      let slowed = candidates.map { $0.slowed(by: factor * (1 + 1e-9)) }
      guard let then = Verdict(slowed, budget: budget) else { break }
      if !then.winner.isSameChoice(as: winner) {
        change = (factor, then.winner)
        break
      }
    }
    return Headroom(untilMiss: met && winner.worstUse > 0 ? 1 / winner.worstUse : nil, change: change)
  }

  /// The headroom as a line of the verdict: `headroom: meets the budget on a
  /// device up to 4.3× slower; from 1.09× slower the pick is celltree`.
  var headroomLine: String {
    let h = headroom
    var parts: [String] = []
    if let miss = h.untilMiss {
      parts.append(miss.isFinite ? "meets the budget on a device up to \(Self.factor(miss)) slower" : "meets the budget on any device")
    } else {
      parts.append("misses the budget here")
    }
    if let change = h.change {
      parts.append("from \(Self.factor(change.factor)) slower the pick is \(choice(change.choice, variants: false))")
    } else {
      parts.append("no slower device changes the pick")
    }
    return "  headroom: " + parts.joined(separator: "; ")
  }

  /// `1.09×`, `4.3×`, `120×`: three significant digits at most.
  static func factor(_ f: Double) -> String {
    f < 10 ? String(format: f < 2 ? "%.2f×" : "%.1f×", f) : String(format: "%.0f×", f)
  }
}
