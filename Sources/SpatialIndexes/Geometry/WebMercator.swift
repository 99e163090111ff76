#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Web Mercator as map SDKs use it (EPSG:3857 on a 256-point tile): at zoom
/// level `z` the world is `256 · 2^z` screen points wide and as many high,
/// `x` grows eastward from the antimeridian and `y` southward from the top.
public enum WebMercator {
  /// The zoom levels this package handles: a map SDK's 0–22 and beyond. At
  /// zoom 30 the world is 2^38 points wide, so map positions and cell edges
  /// stay exact in a `Double`.
  public static let zoomRange = 0...30

  /// The latitude where the square world map ends: `atan(sinh(π))` in degrees.
  public static let maxLatitude = 85.051_128_779_806_59

  /// The latitudes the map shows: ±``maxLatitude``, widened to what
  /// ``latitude(y:)`` gives at the map's edges should the platform's `atan`
  /// and `sinh` land an ulp beyond (on glibc they land on it exactly). A
  /// viewport never reaches past them; a point beyond is never shown.
  @usableFromInline package static let latitudeRange: ClosedRange<Double> =
    Swift.min(-maxLatitude, latitude(y: 256))...Swift.max(maxLatitude, latitude(y: 0))

  /// Side of the whole world map at `zoom`, in screen points.
  @inlinable
  package static func worldSize(zoom: Int) -> Double {
    256 * scale(zoom: zoom)
  }

  /// `2^zoom`, exactly.
  @inlinable
  package static func scale(zoom: Int) -> Double {
    Double(sign: .plus, exponent: zoom, significand: 1)
  }

  /// Map x at zoom 0, in [0, 256], of a longitude in degrees.
  @inlinable
  package static func x(longitude: Double) -> Double {
    (longitude + 180) / 360 * 256
  }

  /// Map y at zoom 0, in [0, 256], of a latitude in degrees (clamped to the map).
  ///
  /// At ±``maxLatitude`` the formula lands a rounding away from the map's
  /// edge, on either side; the result is clamped into [0, 256], so a point
  /// at the edge lies in the edge's row of cells, never in a row −1.
  @inlinable
  package static func y(latitude: Double) -> Double {
    let lat = min(maxLatitude, max(-maxLatitude, latitude))
    let phi = lat * .pi / 180
    return min(256, max(0, (1 - log(tan(.pi / 4 + phi / 2)) / .pi) / 2 * 256))
  }

  /// The longitude of a map x at zoom 0 (not wrapped).
  @inlinable
  package static func longitude(x: Double) -> Double {
    x / 256 * 360 - 180
  }

  /// The latitude of a map y at zoom 0 (clamped to the map).
  @inlinable
  package static func latitude(y: Double) -> Double {
    let t = min(256, max(0, y))
    return atan(sinh(.pi * (1 - 2 * t / 256))) * 180 / .pi
  }

  /// `longitude` moved by a whole number of turns into [-180, 180): 180 becomes
  /// −180, 190 becomes −170. Not finite stays not finite.
  @inlinable
  package static func wrappedLongitude(_ longitude: Double) -> Double {
    if longitude >= -180 && longitude < 180 { return longitude }
    var r = longitude - 360 * ((longitude + 180) / 360).rounded(.down)
    // rounding can land exactly on the excluded end
    if r >= 180 { r -= 360 }
    if r < -180 { r += 360 }
    return r
  }
}
