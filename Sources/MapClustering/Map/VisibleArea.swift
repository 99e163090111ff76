import SpatialIndexes

/// What a map shows at one moment: its integer zoom and the
/// latitude/longitude rectangles on screen, one, or two where the view
/// crosses the antimeridian, cut to the map (see ``onTheMap(_:)``). Clustering and the viewport query read it; it
/// comes from a ``Viewport`` (``Viewport/visibleArea``) or from a box in a
/// file (its rectangles and zoom). It holds the rectangles inline, so making
/// one allocates nothing.
@usableFromInline package struct VisibleArea: Hashable, Sendable, CustomStringConvertible {
  /// The zoom level whose clustering cells apply.
  @usableFromInline package var zoom: Int
  /// How many rectangles: 1, or 2 across the antimeridian.
  @usableFromInline package private(set) var count: Int
  /// The one rectangle, or the part east of the antimeridian's west side
  /// (the one ending at 180°).
  @usableFromInline package private(set) var first: Rect
  /// The part starting at −180° when ``count`` is 2; unused otherwise.
  @usableFromInline package private(set) var second: Rect

  /// One rectangle at `zoom`.
  package init(zoom: Int, rect: Rect) {
    self.zoom = zoom
    count = 1
    first = Self.onTheMap(rect)
    second = first
  }

  /// Two rectangles at `zoom`: the one ending at 180° first, then the one
  /// starting at −180°.
  package init(zoom: Int, east: Rect, west: Rect) {
    self.zoom = zoom
    count = 2
    first = Self.onTheMap(east)
    second = Self.onTheMap(west)
  }

  /// `rect` cut to what a map shows: longitudes within ±180, latitudes
  /// within ``WebMercator/latitudeRange`` (a box from a file may reach the
  /// poles; no screen does). A rectangle wholly beyond, inverted or with a
  /// NaN, is ``nothing``.
  static func onTheMap(_ rect: Rect) -> Rect {
    guard rect.isValid else { return nothing }
    let lat = WebMercator.latitudeRange
    let cut = Rect(
      minX: max(-180, rect.minX), minY: max(lat.lowerBound, rect.minY),
      maxX: min(180, rect.maxX), maxY: min(lat.upperBound, rect.maxY))
    return cut.isValid ? cut : nothing
  }

  /// The rectangle that matches nothing: what an area holds in place of an
  /// inverted, NaN or off-map one.
  package static let nothing = Rect(minX: 1, minY: 1, maxX: 0, maxY: 0)

  /// Whether the area shows any part of the map.
  @inlinable package var isEmpty: Bool { !first.isValid && (count == 1 || !second.isValid) }

  /// The area of 1 or 2 `rects` (an empty array or more than two: the
  /// first two, or an area that matches nothing).
  package init(zoom: Int, rects: [Rect]) {
    switch rects.count {
    case 0: self.init(zoom: zoom, rect: Self.nothing)
    case 1: self.init(zoom: zoom, rect: rects[0])
    default: self.init(zoom: zoom, east: rects[0], west: rects[1])
    }
  }

  /// The rectangles, in order (allocates; hot loops use ``rect(_:)``).
  package var rects: [Rect] { count == 1 ? [first] : [first, second] }

  /// Rectangle `k`, 0 or 1.
  @inlinable
  package func rect(_ k: Int) -> Rect { k == 0 ? first : second }

  @usableFromInline package var description: String {
    count == 1 ? "z\(zoom) \(first)" : "z\(zoom) \(first) + \(second)"
  }
}
