import SpatialIndexes

/// A position on the screen in points: `x` from the left edge, `y` down from
/// the top edge, as UIKit and the map SDKs measure taps.
public struct ScreenPosition: Hashable, Sendable {
  /// Points from the left edge.
  public var x: Double
  /// Points down from the top edge.
  public var y: Double

  /// The position `x` points from the left edge and `y` down from the top.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The position as the bench's messages write it.
  package var description: String { "(\(x), \(y)) pt" }
}

extension Viewport {
  /// The latitude/longitude under a screen position (`x` = longitude).
  ///
  /// The longitude is wrapped into [-180, 180), so a tap east of the
  /// antimeridian gives a western longitude. The latitude is clamped to the
  /// map (±``WebMercator/maxLatitude``): a position above or below the map
  /// edge gives the edge. Positions off the screen are allowed.
  ///
  /// - Complexity: O(1).
  public func coordinate(at position: ScreenPosition) -> Point {
    let s = WebMercator.scale(zoom: zoom)
    let b = mapBounds
    let lon = WebMercator.longitude(x: (b.minX + position.x) / s)
    let lat = WebMercator.latitude(y: (b.minY + position.y) / s)
    return Point(x: WebMercator.wrappedLongitude(lon), y: lat)
  }

  /// Where a latitude/longitude (`x` = longitude) is drawn on this screen.
  ///
  /// The map repeats every world width east and west, so a point at map x is
  /// also drawn at x ± `worldSize`: near the antimeridian a point at −179.9°
  /// shows on the right of a screen centred at 179.9°. Of those copies this
  /// returns the one nearest the screen's centre, which is the visible one
  /// whenever the screen is narrower than the world. The latitude is clamped
  /// to the map. The position may be off the screen, outside `0...width` by
  /// `0...height`.
  ///
  /// For any on-screen position of a screen narrower than the world and
  /// inside the map's latitudes, `screenPosition(of: coordinate(at: p))`
  /// gives back `p` up to rounding.
  ///
  /// - Complexity: O(1).
  public func screenPosition(of point: Point) -> ScreenPosition {
    let s = WebMercator.scale(zoom: zoom)
    let world = WebMercator.worldSize(zoom: zoom)
    let b = mapBounds
    let centreX = (b.minX + b.maxX) / 2
    var x = WebMercator.x(longitude: point.x) * s
    x -= world * ((x - centreX) / world).rounded()  // the nearest copy
    let y = WebMercator.y(latitude: point.y) * s
    return ScreenPosition(x: x - b.minX, y: y - b.minY)
  }

  /// The position is on the screen: `0 <= x <= width` and `0 <= y <= height`.
  package func isOnScreen(_ position: ScreenPosition) -> Bool {
    position.x >= 0 && position.x <= width && position.y >= 0 && position.y <= height
  }
}
