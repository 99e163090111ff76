import SpatialIndexes

/// Compares an index with the linear scan, query by query, as sets, in both
/// directions: every id reported is inside the rectangle, none is reported
/// twice, and every point inside is reported. All four query forms are checked.
package struct IndexChecker {
  package var reference: LinearScanIndex
  /// The points by id (removed ones included: the reference knows which are live).
  package var points: [Point]

  package init(points: [Point]) throws {
    self.points = points
    reference = try LinearScanIndex(points: points)
  }

  /// Every difference between `index` and the reference over `queries`, described.
  package func differences<I: SpatialIndex>(_ index: I, queries: [Rect], limit: Int = 5) -> [String] {
    var problems: [String] = []
    func note(_ s: @autoclosure () -> String) {
      if problems.count < limit { problems.append(s()) }
    }
    if index.count != reference.count {
      note("count \(index.count), reference \(reference.count)")
    }
    var buffer: [Int32] = []
    for (q, rect) in queries.enumerated() {
      let expected = Set(reference.ids(in: rect))
      var visited: [Int32] = []
      let finished = index.forEach(in: rect) { visited.append($0); return true }
      if !finished { note("query \(q) \(rect): forEach reported a stop nobody asked for") }
      let got = Set(visited)
      if got.count != visited.count {
        note("query \(q) \(rect): \(visited.count - got.count) ids reported twice")
      }
      let missing = expected.subtracting(got), extra = got.subtracting(expected)
      if !missing.isEmpty || !extra.isEmpty {
        let m = missing.sorted().prefix(3).map { "\($0)\(points[Int($0)])" }
        let e = extra.sorted().prefix(3).map { "\($0)\(Int($0) < points.count ? "\(points[Int($0)])" : "?")" }
        note("query \(q) \(rect): \(missing.count) missing \(m), \(extra.count) extra \(e)")
      }
      let c = index.count(in: rect)
      if c != expected.count { note("query \(q) \(rect): count \(c), expected \(expected.count)") }
      buffer.removeAll(keepingCapacity: true)
      buffer.append(-7)  // query(into:) appends: what was there stays
      index.query(in: rect, into: &buffer)
      if buffer.first != -7 || Set(buffer.dropFirst()) != expected || buffer.count != expected.count + 1 {
        note("query \(q) \(rect): query(into:) gave \(buffer.count - 1) ids, expected \(expected.count)")
      }
      if expected.count >= 2 {  // early stop: exactly k visits, then false
        let k = expected.count / 2
        var seen = 0
        let result = index.forEach(in: rect) { _ in seen += 1; return seen < k }
        if result || seen != k { note("query \(q): stop after \(k) visited \(seen), returned \(result)") }
      }
    }
    return problems
  }
}
