/// One neighbour found: its id and its great-circle distance in metres.
@frozen
public struct Neighbor: Hashable, Sendable {
  public var id: Int32
  public var distance: Double

  @inlinable
  public init(id: Int32, distance: Double) {
    self.id = id
    self.distance = distance
  }
}

extension SpatialIndex {
  /// The `k` points nearest to `position` by great-circle distance
  /// (``GreatCircle/distance(_:_:)``), at most `maxDistance` metres away,
  /// nearest first, ties by the smaller id, into `results` (its contents are
  /// replaced; its storage is reused, so a query allocates nothing once the
  /// buffer has grown).
  ///
  /// Exact for every index, through range queries: the boxes that bound a
  /// circle on the sphere (``GreatCircle/boxes(around:radius:)``: split at the
  /// antimeridian, every longitude near a pole), widened fourfold until `k`
  /// points lie within the circle or it reaches `maxDistance`; the points
  /// within are then ranked exactly. `points` are those the index was built
  /// from (ids are positions in it; an id past its end is not considered).
  ///
  /// A longitude outside ±180 is wrapped and a latitude outside ±90 clamped;
  /// a NaN or infinite longitude, a NaN latitude, `k <= 0` or a NaN or
  /// negative `maxDistance` find nothing.
  ///
  /// - Complexity: a few range queries over the circle that holds the `k`
  ///   nearest, plus sorting the points in it.
  @inlinable
  public func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double = .infinity, points: [Point],
    into results: inout [Neighbor], counters: inout C
  ) {
    results.removeAll(keepingCapacity: true)
    guard k > 0, position.x.isFinite, !position.y.isNaN, maxDistance >= 0, count > 0 else { return }
    var center = position
    if !(-180...180).contains(center.x) {
      center.x -= 360 * ((center.x + 180) / 360).rounded(.down)
    }
    center.y = min(90, max(-90, center.y))
    // a first radius holding about k points if they were spread evenly
    let area = 4 * Double.pi * GreatCircle.earthRadius * GreatCircle.earthRadius
    var radius = min(maxDistance, max(1, (area * Double(k) / Double(count) / .pi).squareRoot()))
    while true {
      results.removeAll(keepingCapacity: true)
      let (first, second) = GreatCircle.boxes(around: center, radius: radius)
      for part in 0..<(second == nil ? 1 : 2) {
        forEach(in: part == 0 ? first : second!, counters: &counters) { id in
          guard Int(id) < points.count else { return true }  // not the index's points
          let d = GreatCircle.distance(center, points[Int(id)])
          if d <= radius { results.append(Neighbor(id: id, distance: d)) }
          return true
        }
      }
      let everywhere = radius >= .pi * GreatCircle.earthRadius
      if results.count >= k || radius >= maxDistance || everywhere { break }
      radius = min(maxDistance, radius * 4)
    }
    results.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
    if results.count > k { results.removeLast(results.count - k) }
  }

  /// The same, without counters.
  @inlinable
  public func nearest(
    to position: Point, k: Int, maxDistance: Double = .infinity, points: [Point],
    into results: inout [Neighbor]
  ) {
    var none = NoCounters()
    nearest(to: position, k: k, maxDistance: maxDistance, points: points, into: &results, counters: &none)
  }
}
