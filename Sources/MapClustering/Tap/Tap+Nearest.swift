import SpatialIndexes

extension SpatialIndex {
  /// The nearest point to `tap` within its radius (ties to the smaller id),
  /// found through the index's k-nearest search by great-circle distance
  /// (``SpatialIndex/nearest(to:k:maxDistance:into:counters:)``),
  /// the other way to answer a tap than ``nearestByRangeQuery(to:points:)``.
  ///
  /// Screen distance and distance on the sphere rank points differently,
  /// but Web Mercator stretches every length by sec(latitude) ≥ 1, so a
  /// point `s` screen points away is at most `s · 2πR / worldSize` metres
  /// away on the sphere. So the search asks for the `k` nearest within the
  /// radius's metres, ranks them by screen distance, and stops once the
  /// `k`-th is so far on the sphere that no point beyond it can be nearer on
  /// screen than the best found; else it asks again with 4`k`.
  ///
  /// Copies of one place tie on screen too, and only the earliest can be
  /// the answer; but `k` copies would fill the `k` asked for, and `k` would
  /// grow until it held them all. So when the `k` found hold a place twice
  /// and cannot settle the tap, the search asks again for `k` places
  /// (``NearestBuffer/distinctPositions``), each by its earliest point.
  ///
  /// `buffer` is reused from tap to tap: a tap allocates nothing once warm.
  @inlinable
  package func nearestByNeighbours<C: QueryCounters>(
    to tap: Tap, points: [Point], buffer: inout NearestBuffer, counters: inout C
  ) -> TapHit? {
    nearestByNeighbours(to: tap, points: points, buffer: &buffer, counters: &counters, candidates: EveryPoint())
  }

  /// The same among the points `candidates` admits: the others are passed
  /// over, and `k` grows until the admitted points settle the tap (at most
  /// to every point). Copies are taken by their earliest point only when
  /// every point is admitted (``TapCandidates/admitsEvery``).
  @inlinable
  package func nearestByNeighbours<C: QueryCounters, P: TapCandidates>(
    to tap: Tap, points: [Point], buffer: inout NearestBuffer, counters: inout C, candidates: P
  ) -> TapHit? {
    let m = tap.mapPosition
    let pointsPerMetre = m.worldSize / (2 * Double.pi * GreatCircle.earthRadius)
    let reach = tap.radius / pointsPerMetre * (1 + 1e-9)
    var k = 16
    buffer.distinctPositions = false
    defer { buffer.distinctPositions = false }
    while true {
      nearest(to: tap.coordinate, k: k, maxDistance: reach, into: &buffer, counters: &counters)
      var bestD2 = Double.infinity, bestID: Int32 = -1
      for n in buffer.neighbors where Int(n.id) < points.count {
        if let d2 = tap.distanceSquared(to: points[Int(n.id)], at: m),
           d2 < bestD2 || (d2 == bestD2 && n.id < bestID), candidates.admits(n.id) {
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
      if candidates.admitsEvery && !buffer.distinctPositions && Self.holdsCopies(buffer.neighbors, points) {
        buffer.distinctPositions = true
        continue
      }
      k = k > count / 4 ? count : k * 4
    }
  }

  /// Whether two of `neighbors` lie at one position: copies share their
  /// distance, so only neighbours of equal distance are compared.
  @inlinable
  static func holdsCopies(_ neighbors: [Neighbor], _ points: [Point]) -> Bool {
    var runStart = 0
    for i in neighbors.indices {
      if neighbors[i].distance != neighbors[runStart].distance { runStart = i }
      guard Int(neighbors[i].id) < points.count else { continue }
      let p = points[Int(neighbors[i].id)]
      for j in runStart..<i where Int(neighbors[j].id) < points.count && points[Int(neighbors[j].id)] == p {
        return true
      }
    }
    return false
  }
}
