#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances on the sphere, for nearest-neighbour searches.
///
/// The haversine formula, on a sphere of the Earth's mean radius: it is
/// well conditioned for small distances (the law of cosines loses them to
/// rounding below about a metre), which is where "the hotel nearest to me"
/// lives, and its error against the ellipsoid (up to 0.5%) ranks the same
/// neighbours for every index, which is what the searches compare.
public enum GreatCircle {
  /// The mean Earth radius (IUGG), metres.
  @usableFromInline package static let earthRadius = 6_371_008.8

  /// The great-circle distance between `a` and `b` (`x` = longitude, `y` =
  /// latitude, degrees), in metres.
  @inlinable
  public static func distance(_ a: Point, _ b: Point) -> Double {
    distance(a, cosLatitude: cos(a.y * (Double.pi / 180)), b)
  }

  /// The same, with the cosine of `a`'s latitude computed once for many
  /// `b`s: bit for bit the same result (the same operations in the same
  /// order), one call to the maths library fewer.
  ///
  /// The longitude difference is taken the shorter way round, in degrees,
  /// before it becomes radians: across the antimeridian, 359.9999999° in
  /// radians rounded to a few 1e-16 of 2π, which is a relative error of
  /// 3e-7 on the 1e-7° that are left once the sine folds it. The searches'
  /// bounds take the gap that way (``_SphereMetric/halfGaps(x:y:)``), and a
  /// distance smaller than its own bound lost neighbours there.
  @inlinable @inline(__always)
  static func distance(_ a: Point, cosLatitude cosPhi1: Double, _ b: Point) -> Double {
    let toRadians = Double.pi / 180
    let phi1 = a.y * toRadians, phi2 = b.y * toRadians
    let dx = abs(b.x - a.x)
    let dPhi = phi2 - phi1, dLambda = Swift.min(dx, 360 - dx) * toRadians
    let s = sin(dPhi / 2), t = sin(dLambda / 2)
    let h = min(1, s * s + cosPhi1 * cos(phi2) * t * t)
    return 2 * earthRadius * asin(h.squareRoot())
  }

  /// Longitude-latitude boxes that hold every point within `radius` metres
  /// of `center`: one box, or two split at the antimeridian, or a band of
  /// every longitude when the circle reaches a pole. (Bounding a circle on
  /// the sphere: its latitudes are the centre's ± the angular radius δ, its
  /// longitudes the centre's ± asin(sin δ / cos φ) unless a pole is inside.)
  /// Widened by 1e-9° so that rounding never leaves out a point on the circle.
  @usableFromInline
  package static func boxes(around center: Point, radius: Double) -> (Rect, Rect?) {
    let toDegrees = 180 / Double.pi
    let delta = radius / earthRadius
    let pad = 1e-9
    if !(delta < .pi) { return (.world, nil) }
    let deltaDegrees = delta * toDegrees
    let south = center.y - deltaDegrees - pad, north = center.y + deltaDegrees + pad
    if south <= -90 || north >= 90 {  // a pole inside: every longitude
      return (Rect(minX: -180, minY: max(-90, south), maxX: 180, maxY: min(90, north)), nil)
    }
    let spread = asin(min(1, sin(delta) / cos(center.y / toDegrees))) * toDegrees + pad
    let west = center.x - spread, east = center.x + spread
    if spread >= 180 { return (Rect(minX: -180, minY: south, maxX: 180, maxY: north), nil) }
    if west < -180 {
      return (Rect(minX: -180, minY: south, maxX: east, maxY: north),
              Rect(minX: west + 360, minY: south, maxX: 180, maxY: north))
    }
    if east > 180 {
      return (Rect(minX: west, minY: south, maxX: 180, maxY: north),
              Rect(minX: -180, minY: south, maxX: east - 360, maxY: north))
    }
    return (Rect(minX: west, minY: south, maxX: east, maxY: north), nil)
  }
}
