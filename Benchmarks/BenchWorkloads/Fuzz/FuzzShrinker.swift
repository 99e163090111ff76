import BenchFormats
import BenchHarness
import MapClustering
import SpatialIndexes

/// Makes a failing case small while the same check keeps failing: one step
/// (or the live frames up to it), the points that matter, the moves that
/// matter, one `k`, the index's defaults where they do, and round numbers.
///
/// Greedy, in passes, each change kept when the check still fails (Zeller's
/// delta debugging for the lists: halves, then quarters, … then one at a
/// time). It stops when a pass changes nothing, or at its budget of
/// attempts or seconds; what it has then is still a failing case.
public struct FuzzShrinker {
  public var check: FuzzCheck
  public let signature: FuzzFailure.Signature
  /// Checks run so far.
  public private(set) var attempts = 0
  public var maximumAttempts: Int
  /// Seconds it may take (0: no limit).
  public var seconds: Double
  var started: UInt64 = 0

  public init(check: FuzzCheck, signature: FuzzFailure.Signature, maximumAttempts: Int = 3000, seconds: Double = 30) {
    self.check = check
    self.signature = signature
    self.maximumAttempts = maximumAttempts
    self.seconds = seconds
  }

  /// The smallest failing case found from `c`, and its failure.
  public mutating func shrink(_ c: FuzzCase, _ failure: FuzzFailure) -> (FuzzCase, FuzzFailure) {
    started = Stopwatch.now()
    var best = (c, failure)
    // one k, the failing index's parameters only
    var first = c
    first.ks = NearestWorkload.k(of: signature.variant).map { [$0] } ?? []
    if signature.workload != NearestWorkload.name { first.ks = [] }
    first.parameters = c.parameters.filter { $0.key == signature.index }
    // the filters only where the failing workload reads them
    if signature.workload == FilterSessionWorkload.name {
      first.filter = []
    } else if RunFilter.filteredWorkloads.contains(signature.workload) {
      for s in first.steps.indices { first.steps[s].filter = nil }
    } else {
      first = first.unfiltered
    }
    if let f = fails(first) { best = (first, f) }
    var changed = true
    while changed && !outOfBudget {
      changed = false
      changed = shrinkSteps(&best) || changed
      changed = shrinkList(&best, count: { $0.points.count }, removing: Self.removingPoints) || changed
      for s in best.0.steps.indices {
        changed = shrinkList(&best, count: { s < $0.steps.count ? $0.steps[s].moves.count : 0 }) { c, range in
          var d = c
          d.steps[s].moves.removeSubrange(range)
          return d
        } || changed
      }
      changed = shrinkParameters(&best) || changed
      changed = shrinkFilters(&best) || changed
      changed = simplifyNumbers(&best) || changed
    }
    return best
  }

  var outOfBudget: Bool {
    attempts >= maximumAttempts || seconds > 0 && Double(Stopwatch.now() &- started) / 1e9 > seconds
  }

  /// The failure of the signature's check on `c`, if it still fails.
  mutating func fails(_ c: FuzzCase) -> FuzzFailure? {
    if outOfBudget { return nil }
    attempts += 1
    return check.failures(of: c, only: signature).first { $0.signature == signature }
  }

  /// Keeps `candidate` when it fails.
  mutating func keep(_ candidate: FuzzCase, _ best: inout (FuzzCase, FuzzFailure)) -> Bool {
    guard candidate != best.0, let f = fails(candidate) else { return false }
    best = (candidate, f)
    return true
  }

  /// The steps after the failing one dropped, then the others one by one
  /// (the live workload's frames build on each other, so an earlier step
  /// may matter).
  mutating func shrinkSteps(_ best: inout (FuzzCase, FuzzFailure)) -> Bool {
    var changed = false
    var prefix = best.0
    prefix.steps = Array(prefix.steps.prefix(best.1.step + 1))
    changed = keep(prefix, &best) || changed
    var s = best.0.steps.count - 1
    while s >= 0 && best.0.steps.count > 1 && !outOfBudget {
      var c = best.0
      c.steps.remove(at: s)
      changed = keep(c, &best) || changed
      s = min(s - 1, best.0.steps.count - 1)
    }
    return changed
  }

  /// Delta debugging over a list of `count(case)` items: chunks of half the
  /// list, a quarter, … one, each removed when the case still fails.
  mutating func shrinkList(
    _ best: inout (FuzzCase, FuzzFailure), count: (FuzzCase) -> Int,
    removing: (FuzzCase, Range<Int>) -> FuzzCase
  ) -> Bool {
    var changed = false
    var chunk = max(1, count(best.0) / 2)
    while chunk >= 1 && !outOfBudget {
      var start = 0
      while start < count(best.0) && !outOfBudget {
        let range = start..<min(count(best.0), start + chunk)
        if keep(removing(best.0, range), &best) { changed = true } else { start += chunk }
      }
      if chunk == 1 { break }
      chunk /= 2
    }
    return changed
  }

  /// The run's filter clauses, the aggregates, each step's filter and the
  /// columns no filter or aggregate reads, dropped one by one.
  mutating func shrinkFilters(_ best: inout (FuzzCase, FuzzFailure)) -> Bool {
    guard best.0.filters else { return false }
    var changed = keep(best.0.unfiltered, &best)
    changed = shrinkList(&best, count: { $0.filter.count }) { c, range in
      var d = c
      d.filter.removeSubrange(range)
      return d
    } || changed
    changed = shrinkList(&best, count: { $0.aggregates.count }) { c, range in
      var d = c
      d.aggregates.removeSubrange(range)
      return d
    } || changed
    for s in best.0.steps.indices where best.0.steps[s].filter != nil {
      var c = best.0
      c.steps[s].filter = nil
      changed = keep(c, &best) || changed
    }
    for name in best.0.properties.names {
      var c = best.0
      c.properties = PropertyTable(columns: c.properties.columns.filter { $0.name != name })
      // a column a filter reads fails to compile, which is another failure
      changed = keep(c, &best) || changed
    }
    return changed
  }

  /// `c` without the points at `range`: their properties and the moves of
  /// those points dropped, the ids of the later ones renumbered.
  static func removingPoints(_ c: FuzzCase, _ range: Range<Int>) -> FuzzCase {
    var d = c
    d.points.removeSubrange(range)
    if c.filters {
      d.properties = c.properties.gathering(Array(c.points.indices.prefix(upTo: range.lowerBound))
        + Array(c.points.indices.suffix(from: range.upperBound)))
    }
    let gone = Int32(range.count), low = Int32(range.lowerBound), high = Int32(range.upperBound)
    for s in d.steps.indices {
      d.steps[s].moves = d.steps[s].moves.compactMap { m in
        if m.id < low { return m }
        if m.id < high { return nil }
        return PointMove(id: m.id - gone, to: m.to)
      }
    }
    // the nearest workload's k where it was: past the points, a few short
    // of them all (the cut among the farthest), or a few
    let n = c.points.count, m = d.points.count
    d.ks = d.ks.map { k in k > n ? m + 1 : 2 * k > n ? max(0, m - (n - k)) : min(k, m) }
    return d
  }

  /// The failing index's parameters back to their defaults, one by one;
  /// the numbers of those that stay made rounder (a quadtree's bounds).
  mutating func shrinkParameters(_ best: inout (FuzzCase, FuzzFailure)) -> Bool {
    var changed = false
    for key in best.0.parameters(of: signature.index).map(\.key) {
      var c = best.0
      c.parameters[signature.index]?.removeAll { $0.key == key }
      if c.parameters[signature.index]?.isEmpty == true { c.parameters[signature.index] = nil }
      changed = keep(c, &best) || changed
    }
    // small nodes: a tree of a few points shows what took a thousand
    // with the defaults
    for key in Self.sizeKeys where best.0.points.count > 8 {
      let set = best.0.parameters(of: signature.index)
      guard IndexParameterDraws.choices(for: signature.index, points: []).contains(where: { $0.0 == key }),
            !set.contains(where: { $0.key == key && Int($0.values[0]).map { $0 <= 2 } == true })
      else { continue }
      for value in ["1", "2"] {
        var c = best.0
        c.parameters[signature.index] = set.filter { $0.key != key } + [ParameterSweep(key: key, values: [value])]
        if keep(c, &best) {
          changed = true
          break
        }
      }
    }
    for (i, sweep) in best.0.parameters(of: signature.index).enumerated() {
      var parts = sweep.values[0].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      for p in parts.indices {
        guard let v = Double(parts[p]) else { continue }
        for candidate in Self.rounder(v) where candidate != v {
          var c = best.0
          var tried = parts
          tried[p] = "\(candidate)"
          c.parameters[signature.index]![i].values = [tried.joined(separator: ":")]
          if keep(c, &best) {
            parts = tried
            changed = true
            break
          }
        }
      }
    }
    return changed
  }

  /// Every number made rounder: 0, a whole number, then 1 to 6 decimals,
  /// the first that keeps the case failing.
  mutating func simplifyNumbers(_ best: inout (FuzzCase, FuzzFailure)) -> Bool {
    var changed = false
    for i in best.0.points.indices {
      changed = simplify(&best, \.points[i].x, -180...180) || changed
      changed = simplify(&best, \.points[i].y, -90...90) || changed
    }
    for s in best.0.steps.indices {
      changed = simplifyZoom(&best, \.steps[s].box.zoom) || changed
      changed = simplifyZoom(&best, \.steps[s].tapZoom) || changed
      changed = simplify(&best, \.steps[s].box.minLon, -180...180) || changed
      changed = simplify(&best, \.steps[s].box.maxLon, -180...180) || changed
      changed = simplify(&best, \.steps[s].box.minLat, -90...best.0.steps[s].box.maxLat) || changed
      changed = simplify(&best, \.steps[s].box.maxLat, best.0.steps[s].box.minLat...90) || changed
      changed = simplify(&best, \.steps[s].tap.x, -180...180) || changed
      changed = simplify(&best, \.steps[s].tap.y, -90...90) || changed
      changed = simplify(&best, \.steps[s].position.x, -180...180) || changed
      changed = simplify(&best, \.steps[s].position.y, -90...90) || changed
      if best.0.steps[s].reach != .infinity {
        var c = best.0
        c.steps[s].reach = .infinity
        changed = keep(c, &best) || simplify(&best, \.steps[s].reach, 0...Double.greatestFiniteMagnitude) || changed
      }
      for m in best.0.steps[s].moves.indices {
        changed = simplify(&best, \.steps[s].moves[m].to.x, -180...180) || changed
        changed = simplify(&best, \.steps[s].moves[m].to.y, -90...90) || changed
      }
    }
    return changed
  }

  mutating func simplify(
    _ best: inout (FuzzCase, FuzzFailure), _ path: WritableKeyPath<FuzzCase, Double>, _ range: ClosedRange<Double>
  ) -> Bool {
    let v = best.0[keyPath: path]
    for candidate in Self.rounder(v) where candidate != v && range.contains(candidate) {
      var c = best.0
      c[keyPath: path] = candidate
      if keep(c, &best) { return true }
    }
    return false
  }

  mutating func simplifyZoom(_ best: inout (FuzzCase, FuzzFailure), _ path: WritableKeyPath<FuzzCase, Int>) -> Bool {
    let z = best.0[keyPath: path]
    for candidate in [0, z / 2, z - 1] where candidate >= 0 && candidate < z {
      var c = best.0
      c[keyPath: path] = candidate
      if keep(c, &best) { return true }
    }
    return false
  }

  mutating func simplifyZoom(_ best: inout (FuzzCase, FuzzFailure), _ path: WritableKeyPath<FuzzCase, Int?>) -> Bool {
    guard let z = best.0[keyPath: path] else { return false }
    for candidate in [0, z / 2, z - 1] where candidate >= 0 && candidate < z {
      var c = best.0
      c[keyPath: path] = candidate
      if keep(c, &best) { return true }
    }
    return false
  }

  /// The parameters that size a node or a cell by its points.
  static let sizeKeys = ["nodeSize", "leafSize", "capacity", "pointsPerCell"]

  /// Rounder values than `v`, roundest first.
  static func rounder(_ v: Double) -> [Double] {
    guard v.isFinite else { return [] }
    var list = [0, v.rounded()]
    var scale = 10.0
    for _ in 1...6 {
      list.append((v * scale).rounded() / scale)
      scale *= 10
    }
    return list
  }
}
