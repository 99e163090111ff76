import SpatialIndexes

/// A query box in geographic coordinates, as a map viewport or a GeoJSON
/// `bbox` gives it.
///
/// Latitude bounds are ordered (`minLat <= maxLat`). Longitude bounds need
/// not be: `minLon > maxLon` means the box crosses the antimeridian, as in
/// RFC 7946 §5.2, and covers `lon >= minLon || lon <= maxLon`. Every bound
/// is inclusive.
public struct GeoQuery: Hashable, Sendable, CustomStringConvertible {
  public var minLat: Double
  public var minLon: Double
  public var maxLat: Double
  public var maxLon: Double
  /// The map zoom the query was taken at, if the file says.
  public var zoom: Int?

  public init(minLat: Double, minLon: Double, maxLat: Double, maxLon: Double, zoom: Int? = nil) {
    self.minLat = minLat
    self.minLon = minLon
    self.maxLat = maxLat
    self.maxLon = maxLon
    self.zoom = zoom
  }

  /// The box wraps around from 180° east to 180° west.
  @inlinable
  public var crossesAntimeridian: Bool { minLon > maxLon }

  /// The one rectangle this box covers, or the two halves of a box that
  /// crosses the antimeridian: `[minLon, 180]` then `[-180, maxLon]`
  /// (`x` = longitude, `y` = latitude). An index queried with each rectangle
  /// returns exactly the points for which ``contains(lat:lon:)`` is true.
  ///
  /// - Complexity: O(1).
  public func rects() -> [Rect] {
    if crossesAntimeridian {
      return [
        Rect(minX: minLon, minY: minLat, maxX: 180, maxY: maxLat),
        Rect(minX: -180, minY: minLat, maxX: maxLon, maxY: maxLat),
      ]
    }
    return [Rect(minX: minLon, minY: minLat, maxX: maxLon, maxY: maxLat)]
  }

  /// The place lies in the box (edges included), taking the antimeridian
  /// into account.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func contains(lat: Double, lon: Double) -> Bool {
    guard lat >= minLat && lat <= maxLat else { return false }
    return crossesAntimeridian ? (lon >= minLon || lon <= maxLon) : (lon >= minLon && lon <= maxLon)
  }

  public var description: String {
    let box = "lat [\(minLat), \(maxLat)] lon [\(minLon), \(maxLon)]"
    return zoom.map { "\(box) zoom \($0)" } ?? box
  }
}
