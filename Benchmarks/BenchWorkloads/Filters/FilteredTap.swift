import MapClustering
import SpatialIndexes

extension SpatialIndex {
  /// The nearest point to `tap` within its radius that passes `query`'s
  /// filter (ties to the smaller id), by range queries over the touch
  /// target's boxes: the tap workload's `range` way with a filter.
  ///
  /// Unlike the unfiltered tap it never hands a run of copies to k-nearest:
  /// the earliest copy of a place may fail the filter and a later one pass.
  /// The work stays bounded by the points in the target.
  @inlinable
  func nearestPassing<C: QueryCounters>(
    _ query: PropertyQuery, to tap: Tap, points: [Point], counters: inout C
  ) -> TapHit? {
    let m = tap.mapPosition
    var bestD2 = Double.infinity, bestID: Int32 = -1
    tap.forEachQueryRect { rect in
      forEach(in: rect, counters: &counters) { id in
        if let d2 = tap.distanceSquared(to: points[Int(id)], at: m),
           d2 < bestD2 || (d2 == bestD2 && id < bestID), query.matches(id) {
          bestD2 = d2
          bestID = id
        }
        return true
      }
    }
    return bestID < 0 ? nil : TapHit(id: bestID, distance: bestD2.squareRoot())
  }

  /// The same answer through the index's k-nearest search (the `nearest`
  /// way), as ``SpatialIndex/nearestByNeighbours(to:points:buffer:counters:)``
  /// finds it, the points that fail the filter passed over; copies of a
  /// place are not taken by their earliest point, for the reason above, so
  /// `k` grows until the passing points settle the tap (at most to every
  /// point).
  @inlinable
  func nearestPassingByNeighbours<C: QueryCounters>(
    _ query: PropertyQuery, to tap: Tap, points: [Point], buffer: inout NearestBuffer, counters: inout C
  ) -> TapHit? {
    let m = tap.mapPosition
    let pointsPerMetre = m.worldSize / (2 * Double.pi * GreatCircle.earthRadius)
    let reach = tap.radius / pointsPerMetre * (1 + 1e-9)
    var k = 16
    buffer.distinctPositions = false
    while true {
      nearest(to: tap.coordinate, k: k, maxDistance: reach, into: &buffer, counters: &counters)
      var bestD2 = Double.infinity, bestID: Int32 = -1
      for n in buffer.neighbors where Int(n.id) < points.count {
        if let d2 = tap.distanceSquared(to: points[Int(n.id)], at: m),
           d2 < bestD2 || (d2 == bestD2 && n.id < bestID), query.matches(n.id) {
          bestD2 = d2
          bestID = n.id
        }
      }
      let found = bestID < 0 ? nil : TapHit(id: bestID, distance: bestD2.squareRoot())
      // fewer than k: every point within reach was seen
      guard buffer.neighbors.count == k, let last = buffer.neighbors.last else { return found }
      // beyond the k-th on the sphere, no point is nearer on screen than this
      let unseen = last.distance * pointsPerMetre * (1 - 1e-9)
      if bestID >= 0 && bestD2.squareRoot() < unseen { return found }
      if k >= count { return found }
      k = k > count / 4 ? count : k * 4
    }
  }
}
