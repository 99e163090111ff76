import SpatialIndexes

/// A tap on the map: where the finger landed, at which zoom, and the radius
/// of its touch target.
///
/// The tap finds the nearest point within ``radius`` screen points (22 by
/// default: a 44-point touch target), ties going to the smaller id; when no
/// point is that close the answer is `nil`. Distance is Euclidean in screen
/// points at the tap's zoom, between Web Mercator map positions, and wraps
/// around the antimeridian: a point may be nearer through map x ± the
/// world's width.
///
/// The candidates are the points the map can show: longitude in [−180, 180]
/// and latitude within ±``WebMercator/maxLatitude`` (the viewport's
/// rectangles end there too). A point just off screen but within the radius
/// is a candidate: its marker is partly visible.
///
/// A tap is its map position (a coordinate), so a tap read from a file is
/// the same tap: a screen position above or below the map's edge taps the
/// edge (``Viewport/coordinate(at:)`` clamps it).
public struct Tap: Hashable, Sendable {
  /// The touch target's half side, in screen points.
  public static let touchRadius = 22.0

  /// Points in a row at the position of the point before them after which
  /// a tap by range queries stops and answers through k-nearest instead
  /// (``SpatialIndex/nearestByRangeQuery(to:points:buffer:counters:)``):
  /// real data repeat a place a few times, copies by the thousand.
  @usableFromInline package static let copiesInARow = 64

  /// Where the tap landed (`x` = longitude, wrapped into [−180, 180);
  /// `y` = latitude, on the map).
  public var coordinate: Point
  /// The zoom level the distances are measured at.
  public var zoom: Int
  /// How far a point may be, in screen points.
  public var radius: Double

  /// A tap at `coordinate` on a map at `zoom`; the longitude is wrapped and
  /// the latitude clamped to the map.
  public init(at coordinate: Point, zoom: Int, radius: Double = Tap.touchRadius) {
    self.coordinate = Point(
      x: WebMercator.wrappedLongitude(coordinate.x),
      y: min(WebMercator.maxLatitude, max(-WebMercator.maxLatitude, coordinate.y)))
    self.zoom = zoom
    self.radius = radius
  }

  /// A tap at screen position (`x`, `y`) of `viewport`.
  public init(x: Double, y: Double, in viewport: Viewport, radius: Double = Tap.touchRadius) {
    self.init(
      at: viewport.coordinate(at: ScreenPosition(x: x, y: y)), zoom: viewport.zoom, radius: radius)
  }

  /// The tap as the bench's messages write it.
  package var description: String { "tap \(coordinate) z\(zoom) r\(radius)" }

  /// The tap's pixel position at its zoom, `x` in [0, world size) and `y`
  /// growing southward, with the zoom's scale (`2^z`) and world size.
  @inlinable
  package var mapPosition: (x: Double, y: Double, scale: Double, worldSize: Double) {
    let s = WebMercator.scale(zoom: zoom), w = WebMercator.worldSize(zoom: zoom)
    var tx = WebMercator.x(longitude: coordinate.x) * s
    if tx >= w { tx -= w }  // rounding can land on w itself
    return (tx, WebMercator.y(latitude: coordinate.y) * s, s, w)
  }

  /// The squared screen distance from the tap to `point`, or `nil` when the
  /// point is not a candidate (off the map) or farther than ``radius``.
  @inlinable @inline(__always)
  package func distanceSquared(
    to point: Point, at m: (x: Double, y: Double, scale: Double, worldSize: Double)
  ) -> Double? {
    guard point.x >= -180, point.x <= 180,
          point.y >= -WebMercator.maxLatitude, point.y <= WebMercator.maxLatitude else { return nil }
    let px = WebMercator.x(longitude: point.x) * m.scale
    let py = WebMercator.y(latitude: point.y) * m.scale
    var dx = abs(px - m.x)  // both in [0, w]: the wrapped distance is the shorter way
    dx = min(dx, m.worldSize - dx)
    let dy = py - m.y
    let d2 = dx * dx + dy * dy
    return d2 <= radius * radius ? d2 : nil
  }

  /// Calls `body` with each latitude/longitude rectangle (one to three)
  /// that together cover the square of side `2 · radius` around the tap,
  /// split at the antimeridian, widened by a hair against rounding, and
  /// clipped to the candidates' range. A radius of half the world or more
  /// gives the whole map.
  @inlinable
  package func forEachQueryRect(_ body: (Rect) -> Void) {
    let m = mapPosition
    let pad = 1e-9  // degrees: rounding is ≈1e-13°, a screen point ≥ 5e-6° up to zoom 19
    let maxLat = WebMercator.maxLatitude
    let north = min(maxLat, WebMercator.latitude(y: (m.y - radius) / m.scale) + pad)
    let south = max(-maxLat, WebMercator.latitude(y: (m.y + radius) / m.scale) - pad)
    if 2 * radius >= m.worldSize {
      body(Rect(minX: -180, minY: south, maxX: 180, maxY: north))
      return
    }
    let a = m.x - radius, b = m.x + radius
    for k in -1...1 {  // copies of the square shifted by a world width
      let lo = max(0, a + Double(k) * m.worldSize), hi = min(m.worldSize, b + Double(k) * m.worldSize)
      if lo > hi { continue }
      body(Rect(
        minX: max(-180, WebMercator.longitude(x: lo / m.scale) - pad), minY: south,
        maxX: min(180, WebMercator.longitude(x: hi / m.scale) + pad), maxY: north))
    }
  }

  /// The nearest candidate among all `points` (ties to the smaller id): the
  /// reference the index searches are tested against.
  ///
  /// - Complexity: O(*n*).
  package func nearestByBruteForce(in points: [Point]) -> TapHit? {
    let m = mapPosition
    var best: (d2: Double, id: Int32)? = nil
    for (i, p) in points.enumerated() {
      guard let d2 = distanceSquared(to: p, at: m) else { continue }
      let id = Int32(truncatingIfNeeded: i)
      if best == nil || d2 < best!.d2 || (d2 == best!.d2 && id < best!.id) { best = (d2, id) }
    }
    return best.map { TapHit(id: $0.id, distance: $0.d2.squareRoot()) }
  }
}

/// The point a tap found.
@frozen
public struct TapHit: Hashable, Sendable {
  /// The point's id: its position in the points the index was built from.
  public var id: Int32
  /// Screen points from the tap, at the viewport's zoom.
  public var distance: Double

  @inlinable
  package init(id: Int32, distance: Double) {
    self.id = id
    self.distance = distance
  }

  /// The hit as the bench's messages write it.
  package var description: String { "id \(id) at \(distance) pt" }
}
