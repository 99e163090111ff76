import SpatialIndexes

/// What the user sees: a centre, an integer zoom level and a screen size in points.
///
/// Zoom levels are integers here because the clustering table and the cell
/// grid are defined per level, as in the original design.
public struct Viewport: Hashable, Sendable {
  /// Centre of the screen; `x` is the longitude, `y` the latitude.
  public var center: Point
  /// The zoom level: the world is `256 · 2^zoom` points wide; levels
  /// beyond ``WebMercator/zoomRange`` are taken to its nearest end.
  public var zoom: Int
  /// Screen width in points.
  public var width: Double
  /// Screen height in points.
  public var height: Double

  /// A phone in portrait, in points.
  public static let phone = (width: 390.0, height: 844.0)

  /// A screen of `width` by `height` points (a ``phone`` by default)
  /// centred on `center` at `zoom`.
  public init(center: Point, zoom: Int, width: Double = Viewport.phone.width,
              height: Double = Viewport.phone.height) {
    self.center = center
    self.zoom = zoom
    self.width = width
    self.height = height
  }

  /// The visible area in map points at this zoom: `(minX, minY, maxX, maxY)`,
  /// `y` growing southward, not wrapped and not clamped.
  package var mapBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
    let s = WebMercator.scale(zoom: zoom)
    let cx = WebMercator.x(longitude: center.x) * s
    let cy = WebMercator.y(latitude: center.y) * s
    return (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
  }

  /// The latitude/longitude rectangles this viewport shows (`x` = longitude),
  /// with its zoom; see ``rects``.
  ///
  /// - Complexity: O(1); allocates nothing.
  @usableFromInline
  package var visibleArea: VisibleArea {
    // A zoom beyond the map's is taken to its nearest end; a centre outside
    // [-180, 180] (a pan that went round the world) is moved by whole turns
    // first (without it both edges lay east of 180 and the first rectangle
    // came out inverted, matching nothing). A NaN anywhere, or a negative
    // size, shows nothing.
    let zoom = min(WebMercator.zoomRange.upperBound, max(WebMercator.zoomRange.lowerBound, self.zoom))
    var centered = self
    centered.zoom = zoom
    if !(-180...180).contains(center.x) { centered.center.x = WebMercator.wrappedLongitude(center.x) }
    guard centered.center.x.isFinite, !center.y.isNaN, width >= 0, height >= 0 else {
      return VisibleArea(zoom: zoom, rect: VisibleArea.nothing)
    }
    let s = WebMercator.scale(zoom: zoom)
    let b = centered.mapBounds
    let maxLat = WebMercator.latitude(y: b.minY / s)
    let minLat = WebMercator.latitude(y: b.maxY / s)
    if width >= WebMercator.worldSize(zoom: zoom) {
      return VisibleArea(zoom: zoom, rect: Rect(minX: -180, minY: minLat, maxX: 180, maxY: maxLat))
    }
    let west = WebMercator.longitude(x: b.minX / s)
    let east = WebMercator.longitude(x: b.maxX / s)
    if west < -180 {
      return VisibleArea(
        zoom: zoom, east: Rect(minX: west + 360, minY: minLat, maxX: 180, maxY: maxLat),
        west: Rect(minX: -180, minY: minLat, maxX: east, maxY: maxLat))
    }
    if east > 180 {
      return VisibleArea(
        zoom: zoom, east: Rect(minX: west, minY: minLat, maxX: 180, maxY: maxLat),
        west: Rect(minX: -180, minY: minLat, maxX: east - 360, maxY: maxLat))
    }
    return VisibleArea(zoom: zoom, rect: Rect(minX: west, minY: minLat, maxX: east, maxY: maxLat))
  }

  /// The latitude/longitude rectangles this viewport shows (`x` = longitude).
  ///
  /// Latitudes are clamped at ±``WebMercator/maxLatitude``. A viewport that
  /// crosses the antimeridian gives two rectangles, east part first; one as
  /// wide as the world or wider covers every longitude in a single rectangle.
  /// A centre longitude outside [-180, 180] is taken modulo 360.
  public var rects: [Rect] { visibleArea.rects }

  /// The viewport as the bench's messages write it.
  package var description: String {
    "(\(center.y), \(center.x)) z\(zoom) \(Int(width))x\(Int(height))"
  }
}
