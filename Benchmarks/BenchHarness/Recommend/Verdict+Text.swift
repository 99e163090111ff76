import Foundation
import SpatialIndexes

extension Verdict {
  /// The verdict as `bench recommend` prints it: at most 16 lines. The
  /// choice, each workload's p99 against its allowance, memory and build,
  /// the headroom for a slower device, the runner-up and why it lost, the
  /// confidence, and the Swift that builds the choice.
  public var lines: [String] {
    let w = winner
    let frame = formatValue(budget.frameNanoseconds, .nanoseconds)
    let hz = String(format: "%.0f", budget.framesPerSecond)
    var lines = [
      "\(w.dataset), \(ReportPlots.grouping(w.n)) points, \(hz) Hz (a \(frame) frame): "
        + (met ? "use \(choice(w))" : "nothing meets the budget; the closest is \(choice(w))")
    ]
    // the filter session's figures join the cluster line: a verdict stays within its lines
    let session = filterSession.flatMap { name in w.evidence.first { $0.workload == name } }
    let folded = session != nil && w.evidence.contains { $0.workload == "cluster" }
    for e in w.evidence where !(folded && e.workload == session?.workload) {
      let name = e.workload.padding(toLength: 8, withPad: " ", startingAt: 0)
      let p99 = formatValue(e.p99, .nanoseconds).leftPadded(to: 8)
      let use = percent(e.use).leftPadded(to: 5)
      let variant = e.strategy.isEmpty ? "" : " (\(e.strategy)\(e.filter.isEmpty || e.workload == session?.workload ? "" : ", filtered"))"
      var line = "  \(name) p99 \(p99) \(use) of its \(formatValue(e.allowance, .nanoseconds))\(variant)"
        + (e.use > 1 ? "  OVER" : "")
      if folded, e.workload == "cluster", let f = session {
        line += "; under filters \(formatValue(f.p99, .nanoseconds)) \(percent(f.use))"
          + (f.strategy == e.strategy ? "" : " (\(f.strategy))") + (f.use > 1 ? "  OVER" : "")
      }
      lines.append(line)
    }
    // the filter session runs only on data with properties: not missed elsewhere
    let missing = budget.counted.filter { !$0.onlyWithProperties }.map(\.name).filter { w.strategy(of: $0) == nil }
    if !missing.isEmpty {
      lines.append("  not measured, so not weighed: \(missing.joined(separator: ", "))")
    }
    var memory = "  memory \(Self.bytes(w.bytes)) (\(String(format: "%.1f", w.bytesPerPoint)) B/pt)"
    if let limit = budget.memoryLimitBytes {
      memory += " of a \(Self.bytes(limit)) limit" + (w.bytes > limit ? "  OVER" : "")
    }
    if let build = w.buildMilliseconds { memory += ", build \(formatMilliseconds(build))" }
    lines.append(memory)
    lines.append(headroomLine)
    if let r = runnerUp { lines.append("  runner-up: \(choice(r, variants: false)): \(whyLost(r))") }
    lines.append("  confidence: \(confidence)")
    lines.append("  in Swift:")
    lines += swift.map { "    " + $0 }
    return lines
  }

  /// Why `r` ranks below the winner, in a phrase.
  func whyLost(_ r: Candidate) -> String {
    let w = winner
    if !Self.meets(r, budget) {
      if let limit = budget.memoryLimitBytes, r.bytes > limit, r.worstUse <= 1 {
        return "holds \(Self.bytes(r.bytes)), over the \(Self.bytes(limit)) limit"
      }
      if let e = r.worst { return "\(e.workload) p99 \(formatValue(e.p99, .nanoseconds)) is \(percent(e.use)) of its share" }
    }
    switch decider {
    case .memory:
      return String(format: "as fast, but holds %.1f B/pt against %.1f", r.bytesPerPoint, w.bytesPerPoint)
    case .build:
      return "as fast and as small, but builds in \(formatMilliseconds(r.buildMilliseconds ?? 0))"
    default:
      let e = r.worst!
      return "slower: its \(e.workload) p99 takes \(percent(e.use)) of its share, the winner's worst \(percent(w.worstUse))"
    }
  }

  /// How likely a rerun is to give the same answer.
  public var confidence: String {
    let samples = winner.evidence.map(\.samples).min() ?? 0
    var basis = "≥\(samples) samples a row"
    if met, let e = winner.worst, e.use > 0.7 {
      basis = "its \(e.workload) p99 at \(percent(e.use)) of its share may miss it on a rerun; " + basis
    }
    guard let r = runnerUp else { return "one candidate only; \(basis)" }
    if let m = nearMiss, let e = m.candidate.worst {
      let side = m.over ? "just over" : "just under"
      let pick = m.pick == m.candidate ? "it" : choice(m.pick, variants: false)
      let then = m.over ? "counted as fast, \(pick) would be the pick" : "over it, \(pick) would be the pick"
      return "medium: \(choice(m.candidate, variants: false)) (\(String(format: "%.1f", m.candidate.bytesPerPoint)) B/pt) "
        + "took \(percent(e.use)) of its \(e.workload) share, \(side) the \(percent(bar)) bar; \(then); \(basis)"
    }
    if met, decider == .memory || decider == .build, let e = winner.worst, e.use > bar / 1.25 {
      return "medium: its \(e.workload) p99 takes \(percent(e.use)) of its share, near the \(percent(bar)) bar; \(basis)"
    }
    // A rerun may also pick other parameters of the winner's index: the
    // closest rival is the next choice, named when it is not the runner-up.
    let rival = ranking[1]
    let than = rival == r ? "" : " than \(choice(rival, variants: false))"
    switch Self.decider(winner, rival, budget) {
    case .memory: return "high: memory decided, which does not vary between runs; \(basis)"
    case .alone: return basis
    case .build:
      let ratio = (rival.buildMilliseconds ?? 0) / max(1e-9, winner.buildMilliseconds ?? 1)
      return String(format: "%@: builds %.2f× faster%@; %@", ratio >= FrameBudget.sameSpeedFactor ? "high" : "low", ratio, than, basis)
    case .budget, .speed:
      let ratio = rival.worstUse / max(1e-12, winner.worstUse)
      let level = ratio >= 2 ? "high" : ratio >= FrameBudget.sameSpeedFactor ? "medium" : "low"
      let whose = rival == r ? "the runner-up's" : choice(rival, variants: false) + "'s"
      return String(format: "%@: %@ worst share is %.1f× the winner's; %@", level, whose, ratio, basis)
    }
  }

  /// The budgeted workload that runs only on data with properties (the
  /// filter session), if the budget has one.
  var filterSession: String? { budget.workloads.first { $0.onlyWithProperties }?.name }

  /// The few lines of Swift that build the choice and cluster with it.
  /// When the pick was made on filtered clustering (the filter session, or
  /// a cluster row with a filter), it clusters with the filter's query,
  /// with the strategy that won there.
  public var swift: [String] {
    let w = winner
    let session = filterSession.flatMap { w.strategy(of: $0) }
    let filteredCluster = w.evidence.first { $0.workload == "cluster" && !$0.filter.isEmpty }?.strategy
    return Self.swift(
      index: w.index, params: w.params, cluster: w.strategy(of: "cluster"), live: w.strategy(of: "live"),
      filtered: session ?? filteredCluster)
  }

  /// The Swift for index `index` with `params` (report form), clustering
  /// with `cluster` and moving points with `live` (a strategy name, or nil
  /// when not measured), and with `filtered` (the strategy of filtered
  /// clustering, when measured) through a query of the map's filter. Tests
  /// compile each form it takes.
  static func swift(index: String, params: String, cluster: String?, live: String?, filtered: String? = nil) -> [String] {
    guard let type = indexType(named: index) else { return ["// \(index): not an index of this package (a database engine's rows: bench peer)"] }
    let buffered = live == "buffered"
    let base = String(describing: type)
    let typeName = buffered ? "BufferedIndex<\(base)>" : base
    var lines: [String] = []
    let changed = ParameterDefaults.changed(params, index: index)
    var arguments = "points: points"
    if !changed.isEmpty {
      lines.append("var parameters = \(typeName).Parameters()")
      lines += Self.assignments(type, buffered: buffered, changed)
      arguments += ", parameters: parameters"
    }
    // a live frame clusters in a single pass
    let clustering = cluster ?? filtered ?? (live != nil ? "single-pass" : nil)
    guard let strategy = clustering.map(Self.swiftCase) else {
      // a map that shows its points without clustering them
      lines.append("let index = try \(typeName)(\(arguments))")
      lines.append("index.query(in: visibleRect, into: &ids)   // ids: [Int32], reused")
      return lines
    }
    lines.append("var clusterer = try Clusterer<\(typeName)>(\(arguments))")
    if let filtered {
      // one line still: the query is the app's, made when its filter changes
      lines.append("try clusterer.cluster(viewport, strategy: \(Self.swiftCase(filtered)), query: query, "
        + "into: &markers, aggregates: &values)   // query: the map's filter, a PropertyQuery")
    } else {
      lines.append("clusterer.cluster(viewport, strategy: \(strategy), into: &markers)")
    }
    // only an index that moves its points, or a buffered one, can
    if live != nil && live != "rebuild" && (buffered || type is any DynamicSpatialIndex.Type) {
      lines.append("_ = try clusterer.move(id: id, to: position)   // as a point moves")
    }
    return lines
  }

  /// The typed statements that set `changed` on a variable `parameters`
  /// of `type`'s parameters, or of its buffered form's.
  static func assignments<I: DescribedIndex>(_ type: I.Type, buffered: Bool, _ changed: [ParameterValue]) -> [String] {
    changed.compactMap {
      buffered
        ? BufferedParameters<I.Parameters>.swiftAssignment($0.name, $0.value, on: "parameters")
        : I.Parameters.swiftAssignment($0.name, $0.value, on: "parameters")
    }
  }

  /// `kdtree (nodeSize=32), cluster aggregate, tap range`; without the
  /// variants, `kdtree (nodeSize=32)`.
  func choice(_ c: Candidate, variants: Bool = true) -> String {
    let changed = ParameterDefaults.changed(c.params, index: c.index)
    var text = c.index + (changed.isEmpty ? "" : " (\(ReportKey.paramsText(changed)))")
    // a strategy is a way to the answer, worth naming; nearest's k is the question
    for e in c.evidence where variants && !e.strategy.isEmpty && !budget.variantsAreQuestions(e.workload) {
      text += ", \(e.workload) \(e.strategy)"
    }
    return text
  }

  /// `per-cell` → `.perCell`.
  static func swiftCase(_ strategy: String) -> String {
    let parts = strategy.split(separator: "-")
    return "." + parts.enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
  }

  static func bytes(_ b: UInt64) -> String {
    let v = Double(b)
    return v >= 1e9 ? String(format: "%.2f GB", v / 1e9) : v >= 1e6 ? String(format: "%.1f MB", v / 1e6)
      : String(format: "%.0f kB", v / 1e3)
  }

  /// `use` as a percentage: `<1%`, `85%`; past a million percent (a
  /// report's p99 may be any finite number) in exponent form, `2.4e+303%`.
  func percent(_ use: Double) -> String {
    if use > 0 && use < 0.01 { return "<1%" }
    if !use.isFinite { return use.isNaN ? "n/a" : "∞%" }
    return abs(use) < 1e4 ? String(format: "%.0f%%", use * 100) : String(format: "%.2g%%", use * 100)
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
