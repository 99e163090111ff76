extension SpatialIndex {
  /// The same, without counters.
  @inlinable
  public func nearest(
    to position: Point, k: Int, maxDistance: Double = .infinity, points: [Point],
    into buffer: inout NearestBuffer
  ) {
    var none = NoCounters()
    nearest(to: position, k: k, maxDistance: maxDistance, points: points, into: &buffer, counters: &none)
  }

  /// The neighbours into `results` (replaced): convenient, but the search's
  /// queue is allocated on each call; hot loops pass a ``NearestBuffer``.
  @inlinable
  public func nearest(
    to position: Point, k: Int, maxDistance: Double = .infinity, points: [Point],
    into results: inout [Neighbor]
  ) {
    var buffer = NearestBuffer()
    swap(&buffer.neighbors, &results)
    nearest(to: position, k: k, maxDistance: maxDistance, points: points, into: &buffer)
    swap(&buffer.neighbors, &results)
  }

  /// The default k-nearest, for an index without a search of its own: exact
  /// through range queries. The boxes that bound a circle on the sphere
  /// (``GreatCircle/boxes(around:radius:)``: split at the antimeridian, every
  /// longitude near a pole) are widened fourfold until `k` points lie within
  /// the circle or it reaches `maxDistance`; the points within are then
  /// ranked exactly.
  ///
  /// - Complexity: a few range queries over the circle that holds the `k`
  ///   nearest, plus sorting the points in it.
  @inlinable
  public func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double, points: [Point],
    into buffer: inout NearestBuffer, counters: inout C
  ) {
    _nearestThroughRanges(
      to: position, k: k, maxDistance: maxDistance, points: points, into: &buffer, counters: &counters)
  }

  /// The default's search, for an index that falls back to it; with
  /// `kWithinMax`, the caller knows `k` points lie within `maxDistance`, and
  /// one range query over that circle does.
  ///
  /// The points a range query finds go through the same candidates and
  /// cut as a best-first search's (``_NearestSearch/consider(x:y:id:)``):
  /// once `k` are kept, a point beyond the cut costs its cheap bound only,
  /// and about `k` are sorted. (Collecting every point in the
  /// circle and sorting them took 60 ms a search on blobs, where the last
  /// widening takes in whole blobs.)
  @inlinable
  public func _nearestThroughRanges<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double, points: [Point],
    into buffer: inout NearestBuffer, counters: inout C, kWithinMax: Bool = false
  ) {
    buffer.reset()
    guard let center = _nearestCenter(position, k: k, maxDistance: maxDistance, count: count) else { return }
    // a first radius holding about k points if they were spread evenly
    let area = 4 * Double.pi * GreatCircle.earthRadius * GreatCircle.earthRadius
    var radius = kWithinMax
      ? maxDistance : min(maxDistance, max(1, (area * Double(k) / Double(count) / .pi).squareRoot()))
    let metric = _SphereMetric(center: center)
    while true {
      var search = _NearestSearch(taking: &buffer, metric: metric, k: k, maxDistance: radius)
      let (first, second) = GreatCircle.boxes(around: center, radius: radius)
      for part in 0..<(second == nil ? 1 : 2) {
        forEach(in: part == 0 ? first : second!, counters: &counters) { id in
          guard Int(id) < points.count else { return true }  // not the index's points
          let p = points[Int(id)]
          search.consider(x: p.x, y: p.y, id: id)
          return true
        }
      }
      search.end(into: &buffer)
      let everywhere = radius >= .pi * GreatCircle.earthRadius
      if buffer.neighbors.count >= k || radius >= maxDistance || everywhere { break }
      radius = min(maxDistance, radius * 4)
    }
  }
}

/// The position a search starts from, or nil when it finds nothing: a
/// longitude outside ±180 is wrapped and a latitude outside ±90 clamped; a
/// NaN or infinite longitude, a NaN latitude, `k <= 0`, a NaN or negative
/// `maxDistance` or an empty index find nothing.
@inlinable
func _nearestCenter(_ position: Point, k: Int, maxDistance: Double, count: Int) -> Point? {
  guard k > 0, position.x.isFinite, !position.y.isNaN, maxDistance >= 0, count > 0 else { return nil }
  var center = position
  if !(-180...180).contains(center.x) {
    center.x -= 360 * ((center.x + 180) / 360).rounded(.down)
  }
  center.y = min(90, max(-90, center.y))
  return center
}
