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
  /// way): the library's search
  /// (``SpatialIndex/nearestByNeighbours(to:points:buffer:counters:candidates:)``)
  /// among the points that pass, which never takes a run of copies by its
  /// earliest point, for the reason above.
  @inlinable
  func nearestPassingByNeighbours<C: QueryCounters>(
    _ query: PropertyQuery, to tap: Tap, points: [Point], buffer: inout NearestBuffer, counters: inout C
  ) -> TapHit? {
    nearestByNeighbours(
      to: tap, points: points, buffer: &buffer, counters: &counters, candidates: PassingPoints(query: query))
  }
}

/// The points a tap may land on under a filter: those `query` passes.
@usableFromInline
struct PassingPoints: TapCandidates {
  @usableFromInline let query: PropertyQuery

  @inlinable init(query: PropertyQuery) { self.query = query }
  @inlinable func admits(_ id: Int32) -> Bool { query.matches(id) }
  @inlinable var admitsEvery: Bool { false }
}
