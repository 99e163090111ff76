import SpatialIndexes

/// Compares an index with a plain model, query by query, as sets, in both
/// directions: every id reported is inside the rectangle, none is reported
/// twice, and every point inside is reported. All four query forms are checked.
///
/// The model is an array of the points by id, a flag for each that is still
/// held, and a filter written out here, so it shares no code with any index, the linear
/// scan included.
package struct IndexChecker {
  /// Every point ever added, by id, removed ones included.
  package private(set) var points: [Point]
  /// Whether each id is still held.
  package private(set) var live: [Bool]

  package init(points: [Point]) {
    self.points = points
    live = Array(repeating: true, count: points.count)
  }

  /// How many points are live.
  package var liveCount: Int { live.reduce(0) { $1 ? $0 + 1 : $0 } }

  /// Adds `p` under the next id and returns it.
  @discardableResult
  package mutating func insert(_ p: Point) -> Int32 {
    points.append(p)
    live.append(true)
    return Int32(points.count - 1)
  }

  /// Removes `id`; false when it is not live.
  @discardableResult
  package mutating func remove(id: Int32) -> Bool {
    guard id >= 0, Int(id) < points.count, live[Int(id)] else { return false }
    live[Int(id)] = false
    return true
  }

  /// Moves the live point `id` to `p`; false when it is not live.
  @discardableResult
  package mutating func move(id: Int32, to p: Point) -> Bool {
    guard id >= 0, Int(id) < points.count, live[Int(id)] else { return false }
    points[Int(id)] = p
    return true
  }

  /// The live ids inside `r`, bounds included; nothing for a rectangle with
  /// a NaN edge or inverted edges (no point passes both comparisons).
  package func expected(in r: Rect) -> [Int32] {
    var ids: [Int32] = []
    for (i, p) in points.enumerated() where live[i] {
      if r.minX <= p.x && p.x <= r.maxX && r.minY <= p.y && p.y <= r.maxY { ids.append(Int32(i)) }
    }
    return ids
  }

  /// Every difference between `index` and the reference over `queries`, described.
  package func differences<I: DescribedIndex>(_ index: I, queries: [Rect], limit: Int = 5) -> [String] {
    var problems: [String] = []
    func note(_ s: @autoclosure () -> String) {
      if problems.count < limit { problems.append(s()) }
    }
    if index.count != liveCount {
      note("count \(index.count), model \(liveCount)")
    }
    var buffer: [Int32] = []
    for (q, rect) in queries.enumerated() {
      let expected = Set(expected(in: rect))
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
