import SpatialIndexes

extension SpatialIndex {
  /// The nearest point to `tap` within its radius (ties to the smaller id),
  /// found with range queries: the latitude/longitude boxes of the square
  /// around the tap (``Tap/forEachQueryRect(_:)``), then exact screen
  /// distances.
  ///
  /// `points` are the points the index was built from (ids are positions in it).
  ///
  /// - Complexity: one to three range queries, plus O(*k*) for *k* points in
  ///   the boxes; among copies of one place, O(log *n*) (see
  ///   ``nearestByRangeQuery(to:points:buffer:counters:)``).
  @inlinable
  public func nearestByRangeQuery(to tap: Tap, points: [Point]) -> TapHit? {
    var none = NoCounters()
    var buffer = NearestBuffer()
    return nearestByRangeQuery(to: tap, points: points, buffer: &buffer, counters: &none)
  }

  /// The same, counting the range queries' work in `counters`.
  ///
  /// A range query reads every point in the touch target, and a target on
  /// a million copies of one place would read a million: copies all tie,
  /// and only the earliest can be the answer. The indexes hand copies over
  /// side by side (a sorted crowded cell or leaf, a subtree at one
  /// position), so once ``Tap/copiesInARow`` points in a row repeat the
  /// position before them, the range queries stop and the tap is answered
  /// through k-nearest (``nearestByNeighbours(to:points:buffer:counters:)``),
  /// which takes a run of copies by its earliest id: the same answer, in
  /// O(k + log *n*). On data without such runs nothing changes. `buffer`
  /// serves that search and is reused from tap to tap.
  @inlinable
  package func nearestByRangeQuery<C: QueryCounters>(
    to tap: Tap, points: [Point], buffer: inout NearestBuffer, counters: inout C
  ) -> TapHit? {
    let m = tap.mapPosition
    var bestD2 = Double.infinity, bestID: Int32 = -1
    var previous = Point(x: .nan, y: .nan), repeats = 0, crowded = false
    tap.forEachQueryRect { rect in
      guard !crowded else { return }
      forEach(in: rect, counters: &counters) { id in
        let p = points[Int(id)]
        repeats = p == previous ? repeats &+ 1 : 0
        previous = p
        if repeats >= Tap.copiesInARow {
          crowded = true
          return false
        }
        if let d2 = tap.distanceSquared(to: p, at: m),
           d2 < bestD2 || (d2 == bestD2 && id < bestID) {
          bestD2 = d2
          bestID = id
        }
        return true
      }
    }
    if crowded { return nearestByNeighbours(to: tap, points: points, buffer: &buffer, counters: &counters) }
    return bestID < 0 ? nil : TapHit(id: bestID, distance: bestD2.squareRoot())
  }
}
