extension SpatialIndex {
  /// The same, without counters.
  @inlinable
  public func nearest(
    to position: Point, k: Int, maxDistance: Double = .infinity, into buffer: inout NearestBuffer
  ) {
    var none = NoCounters()
    nearest(to: position, k: k, maxDistance: maxDistance, into: &buffer, counters: &none)
  }

  /// The neighbours into `results` (replaced): convenient, but the search's
  /// queue is allocated on each call; hot loops pass a ``NearestBuffer``.
  @inlinable
  package func nearest(
    to position: Point, k: Int, maxDistance: Double = .infinity, into results: inout [Neighbor]
  ) {
    var buffer = NearestBuffer()
    swap(&buffer.neighbors, &results)
    nearest(to: position, k: k, maxDistance: maxDistance, into: &buffer)
    swap(&buffer.neighbors, &results)
  }

  /// A k-nearest search for an index without one of its own, exact through
  /// range queries: what ``nearest(to:k:maxDistance:into:counters:)`` of an
  /// index that keeps its points by id can be. `point(id)` is where point
  /// `id` lies, nil for one removed.
  ///
  /// The boxes that bound a circle on the sphere
  /// (``GreatCircle/boxes(around:radius:)``: split at the antimeridian, every
  /// longitude near a pole) are widened fourfold until `k` points lie within
  /// the circle or it reaches `maxDistance`; the points within are then
  /// ranked exactly.
  ///
  /// - Complexity: a few range queries over the circle that holds the `k`
  ///   nearest, plus ranking the points in it.
  @inlinable
  public func nearestThroughRanges<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double,
    into buffer: inout NearestBuffer, counters: inout C, point: (Int32) -> Point?
  ) {
    _nearestThroughRanges(to: position, k: k, maxDistance: maxDistance, into: &buffer, counters: &counters) {
      rect, counters, consider in
      forEach(in: rect, counters: &counters) { id in
        if let p = point(id) { consider(id, p.x, p.y) }
        return true
      }
    }
  }

  /// The search of ``nearestThroughRanges(to:k:maxDistance:into:counters:point:)``
  /// over `walk`, a range query that hands each point inside its rectangle
  /// to `consider` with its coordinates (the library's indexes read them
  /// beside the ids); with `kWithinMax`, the caller knows `k` points lie
  /// within `maxDistance`, and one range query over that circle does.
  ///
  /// The points a range query finds go through the same candidates and
  /// cut as a best-first search's (``_NearestSearch/consider(x:y:id:)``):
  /// once `k` are kept, a point beyond the cut costs its cheap bound only,
  /// and about `k` are sorted. (Collecting every point in the
  /// circle and sorting them took 60 ms a search on blobs, where the last
  /// widening takes in whole blobs.)
  @inlinable
  func _nearestThroughRanges<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double,
    into buffer: inout NearestBuffer, counters: inout C, kWithinMax: Bool = false,
    _ walk: (Rect, inout C, _ consider: (Int32, Double, Double) -> Void) -> Void
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
        walk(part == 0 ? first : second!, &counters) { id, x, y in
          search.consider(x: x, y: y, id: id)
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
