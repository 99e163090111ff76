/// A point on the map: `x` is the longitude and `y` the latitude, in degrees.
///
/// The indexes treat the plane as flat; projection (Web Mercator) and the
/// antimeridian are handled above them, by the workloads.
@frozen
public struct Point: Hashable, Sendable, CustomStringConvertible {
  /// Longitude in degrees.
  public var x: Double
  /// Latitude in degrees.
  public var y: Double

  /// A point at longitude `x` and latitude `y`, in degrees.
  @inlinable @inline(__always)
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// A point from geographic coordinates (latitude first, as people write them).
  @inlinable
  public init(latitude: Double, longitude: Double) {
    self.init(x: longitude, y: latitude)
  }

  /// Both coordinates are finite (no NaN, no infinity).
  @inlinable
  package var isFinite: Bool { x.isFinite && y.isFinite }

  /// `(x, y)`: longitude first.
  public var description: String { "(\(x), \(y))" }
}
