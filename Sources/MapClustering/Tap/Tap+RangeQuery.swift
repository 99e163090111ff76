import SpatialIndexes

extension SpatialIndex {
  /// The nearest point to `tap` within its radius (ties to the smaller id),
  /// found with range queries: the latitude/longitude boxes of the square
  /// around the tap (``Tap/forEachQueryRect(_:)``), then exact screen
  /// distances.
  ///
  /// `points` are the points the index was built from (ids are positions in it).
  ///
  /// - Complexity: one to three range queries, plus O(*k*) for *k* points in the boxes.
  @inlinable
  public func nearestByRangeQuery(to tap: Tap, points: [Point]) -> TapHit? {
    var none = NoCounters()
    return nearestByRangeQuery(to: tap, points: points, counters: &none)
  }

  /// The same, counting the range queries' work in `counters`.
  @inlinable
  package func nearestByRangeQuery<C: QueryCounters>(
    to tap: Tap, points: [Point], counters: inout C
  ) -> TapHit? {
    let m = tap.mapPosition
    var bestD2 = Double.infinity, bestID: Int32 = -1
    tap.forEachQueryRect { rect in
      forEach(in: rect, counters: &counters) { id in
        if let d2 = tap.distanceSquared(to: points[Int(id)], at: m),
           d2 < bestD2 || (d2 == bestD2 && id < bestID) {
          bestD2 = d2
          bestID = id
        }
        return true
      }
    }
    return bestID < 0 ? nil : TapHit(id: bestID, distance: bestD2.squareRoot())
  }
}
