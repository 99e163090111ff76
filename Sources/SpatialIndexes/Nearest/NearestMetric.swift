#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a best-first search measures: the distance it reports, and cheap
/// lower bounds it prunes with, in a space of its own (the "bound space")
/// where comparing is cheaper than computing distances.
///
/// A bound never exceeds the bound-space value of any point it covers, and
/// ``cut(_:)`` maps a distance to a bound-space value no smaller than that
/// of any point at that distance: a node or point whose bound passes the
/// cut is never nearer. Searches report ``distance(x:y:)`` exactly, so
/// every index ranks alike.
@usableFromInline
protocol _NearestMetric {
  /// The distance reported for the point (`x`, `y`).
  func distance(x: Double, y: Double) -> Double
  /// A lower bound, in bound space, for the point (`x`, `y`).
  func bound(x: Double, y: Double) -> Double
  /// A lower bound, in bound space, for every point of a box.
  func bound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double
  /// A bound-space value that no point within `distance` exceeds.
  func cut(_ distance: Double) -> Double
  /// A bound-space value that no point of the box exceeds.
  func upperBound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double
  /// Whether ``tightBound(minX:minY:maxX:maxY:)`` improves on the cheap
  /// bound enough to be worth its cost on the nodes a search opens.
  static var refines: Bool { get }
  /// A bound at least as large as the cheap one, still a lower bound.
  func tightBound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double
}

/// Great-circle distance from one position (``GreatCircle/distance(_:_:)``,
/// bit for bit); bounds on the haversine `h = sin²(d / 2R)`, which grows
/// with the distance, built from polynomials that stay below sine and
/// cosine on [0, π/2]: no trigonometry per node.
///
/// For a point at latitude ψ whose latitude differs from the centre's φ by
/// at least Δφ and whose longitude differs by at least Δλ (the shorter way
/// round), `h = sin²(Δφ/2) + cos φ cos ψ sin²(Δλ/2)` is at least the sum of
/// each term's lower bound, with cos ψ at its smallest, where |ψ| is
/// largest. That bounds a whole longitude-latitude box at once (the gaps
/// from the centre to the box, the box's largest |latitude|), wherever it
/// lies: across the antimeridian (the shorter way round) or at a pole (cos ψ
/// goes to 0 and the bound to the latitude gap alone, as it should).
@usableFromInline
struct _SphereMetric: _NearestMetric {
  @usableFromInline let center: Point
  @usableFromInline let phi: Double
  @usableFromInline let cosPhi: Double

  @inlinable
  init(center: Point) {
    self.center = center
    phi = center.y * (Double.pi / 180)
    cosPhi = cos(phi)
  }

  @inlinable @inline(__always)
  func distance(x: Double, y: Double) -> Double {
    GreatCircle.distance(center, cosLatitude: cosPhi, Point(x: x, y: y))
  }

  /// sin x from below, for x in [0, π/2]: x − x³/6.
  @inlinable @inline(__always)
  static func sinBelow(_ x: Double) -> Double { x - x * x * x * (1.0 / 6) }

  /// cos x from below, for x in [0, π/2]: the series to x⁶, at least 0.
  @inlinable @inline(__always)
  static func cosBelow(_ x: Double) -> Double {
    let x2 = x * x
    return Swift.max(0, 1 - x2 * (0.5 - x2 * (1.0 / 24 - x2 * (1.0 / 720))))
  }

  /// The bound from the gaps in degrees and the largest |latitude|.
  @inlinable @inline(__always)
  func bound(latitudeGap: Double, longitudeGap: Double, maxAbsLatitude: Double) -> Double {
    let half = Double.pi / 360
    let s = Self.sinBelow(latitudeGap * half), t = Self.sinBelow(longitudeGap * half)
    let c = Self.cosBelow(Swift.min(90, maxAbsLatitude) * (Double.pi / 180))
    return (s * s + cosPhi * c * t * t) * (1 - 1e-9)
  }

  @inlinable @inline(__always)
  func bound(x: Double, y: Double) -> Double {
    let dx = abs(x - center.x)
    return bound(latitudeGap: abs(y - center.y), longitudeGap: Swift.min(dx, 360 - dx), maxAbsLatitude: abs(y))
  }

  @inlinable @inline(__always)
  func bound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double {
    // Without branches (a box's side of the centre is a coin toss): with
    // east = minX − lon and west = lon − maxX, at most one is positive, the
    // gap the shorter way round is the positive one or 360 plus the other
    // (its way round past the antimeridian), and both are ≤ 0 inside.
    let lat = center.y, lon = center.x
    let latitudeGap = Swift.max(0, Swift.max(minY - lat, lat - maxY))
    let east = minX - lon, west = lon - maxX
    let longitudeGap = Swift.max(0, Swift.min(Swift.max(east, west), 360 + Swift.min(east, west)))
    return bound(latitudeGap: latitudeGap, longitudeGap: longitudeGap,
                 maxAbsLatitude: Swift.max(abs(minY), abs(maxY)))
  }

  @inlinable @inline(__always)
  static var refines: Bool { true }

  /// From above: sin x ≤ x, cos ψ ≤ 1, and the largest gaps (the longitude
  /// gap not wrapped, which is never smaller than the wrapped one, but at
  /// most 180°), with a margin for rounding.
  @inlinable @inline(__always)
  func upperBound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double {
    let half = Double.pi / 360
    let s = Swift.max(abs(center.y - minY), abs(center.y - maxY)) * half
    let t = Swift.min(180, Swift.max(abs(center.x - minX), abs(center.x - maxX))) * half
    return (s * s + cosPhi * t * t) * (1 + 1e-9)
  }

  /// The haversine of the box's exact distance, less a rounding margin.
  ///
  /// With the centre's longitude inside the box, the nearest point lies on
  /// the centre's meridian: the latitude gap alone. Otherwise it lies on the
  /// box's meridian edge nearer in longitude (for a fixed latitude, distance
  /// grows with the longitude difference), at longitude difference Δλ. Along
  /// that meridian, cos d = sin φ sin ψ + cos φ cos Δλ cos ψ = M cos(ψ − ψ*),
  /// with ψ* = atan2(sin φ, cos φ cos Δλ) and M² = 1 − cos²φ sin²Δλ: the
  /// nearest point is the foot ψ* if the edge holds it, else an end of the
  /// edge (cos(ψ − ψ*) has no other maximum).
  @inlinable
  func tightBound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double {
    let toRadians = Double.pi / 180
    let lat = center.y, lon = center.x
    let h: Double
    if lon >= minX && lon <= maxX {
      let gap = (lat < minY ? minY - lat : (lat > maxY ? lat - maxY : 0)) * toRadians
      let s = sin(gap / 2)
      h = s * s
    } else {
      let west = lon < minX ? minX - lon : minX + 360 - lon  // eastwards to the box's west edge
      let east = lon > maxX ? lon - maxX : lon + 360 - maxX  // westwards to its east edge
      let dLambda = Swift.max(0, Swift.min(180, Swift.min(west, east))) * toRadians
      let sinD = sin(dLambda), cosD = cos(dLambda)
      let foot = atan2(sin(phi), cosPhi * cosD)
      if foot >= minY * toRadians && foot <= maxY * toRadians {
        let u = cosPhi * cosPhi * sinD * sinD
        h = u / (2 * (1 + (1 - u).squareRoot()))  // (1 − M) / 2, without cancellation
      } else {
        let t = sin(dLambda / 2)
        func corner(_ psi: Double) -> Double {
          let s = sin((psi - phi) / 2)
          return s * s + cosPhi * cos(psi) * t * t
        }
        h = Swift.min(corner(minY * toRadians), corner(maxY * toRadians))
      }
    }
    return h * (1 - 1e-9)
  }

  /// A lower bound for every point outside the box, the sides given by
  /// which of them have points beyond (a side at the data's edge has none):
  /// beyond the north or south edge, the latitude gap; beyond the east or
  /// west edge, the distance to that edge's half-meridian (any way from
  /// the centre to a longitude outside the box crosses one of the two, or a
  /// latitude edge first), which is the perpendicular one, sin d =
  /// cos φ sin Δλ, when Δλ ≤ 90°, else the pole's.
  @inlinable
  func boundOutside(_ box: Rect, north: Bool, south: Bool, east: Bool, west: Bool) -> Double {
    let toRadians = Double.pi / 180
    func latitudeGap(_ gap: Double) -> Double {
      let s = sin(Swift.max(0, gap) * toRadians / 2)
      return s * s
    }
    func meridian(_ dLambdaDegrees: Double) -> Double {
      let d = Swift.max(0, dLambdaDegrees)
      if d > 90 { return latitudeGap(90 - abs(center.y)) }
      let s = sin(d * toRadians)
      let u = cosPhi * cosPhi * s * s
      return u / (2 * (1 + (1 - u).squareRoot()))
    }
    var h = Double.infinity
    if north { h = Swift.min(h, latitudeGap(box.maxY - center.y)) }
    if south { h = Swift.min(h, latitudeGap(center.y - box.minY)) }
    if east || west {
      // the lune between the two half-meridians: crossing either one
      h = Swift.min(h, meridian(box.maxX - center.x), meridian(center.x - box.minX))
    }
    return h * (1 - 1e-9)
  }

  /// sin x from above, for x in [0, π/2]: x − x³/6 + x⁵/120 (in exact
  /// arithmetic; rounding can put it an ulp under, which the cut's 1e-9
  /// margin covers). A search lowers its cut each time a nearer point
  /// replaces the farthest kept; `sin` there was a fifth call to the maths
  /// library per point kept.
  @inlinable @inline(__always)
  static func sinAbove(_ x: Double) -> Double {
    let x2 = x * x
    return x * (1 - x2 * (1.0 / 6 - x2 * (1.0 / 120)))
  }

  @inlinable @inline(__always)
  func cut(_ distance: Double) -> Double {
    let angle = distance / (2 * GreatCircle.earthRadius)
    guard angle < Double.pi / 2 else { return .infinity }
    let s = Self.sinAbove(angle)
    return s * s * (1 + 1e-9)
  }
}

/// Planar distance in degrees, for measuring what the sphere costs: the
/// same searches, with the Euclidean distance of longitude and latitude as
/// the flat map of a naive app would use (wrong across the antimeridian and
/// near the poles, which is why the library does not).
@usableFromInline
struct _PlanarMetric: _NearestMetric {
  @usableFromInline let center: Point

  @inlinable init(center: Point) { self.center = center }

  @inlinable @inline(__always)
  func distance(x: Double, y: Double) -> Double { bound(x: x, y: y).squareRoot() }

  @inlinable @inline(__always)
  func bound(x: Double, y: Double) -> Double {
    let dx = x - center.x, dy = y - center.y
    return dx * dx + dy * dy
  }

  @inlinable @inline(__always)
  func bound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double {
    let dx = Swift.max(0, minX - center.x, center.x - maxX)
    let dy = Swift.max(0, minY - center.y, center.y - maxY)
    return dx * dx + dy * dy
  }

  @inlinable @inline(__always)
  func cut(_ distance: Double) -> Double { distance * distance * (1 + 1e-9) }

  @inlinable @inline(__always)
  static var refines: Bool { false }

  @inlinable @inline(__always)
  func upperBound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double {
    let dx = Swift.max(abs(center.x - minX), abs(center.x - maxX))
    let dy = Swift.max(abs(center.y - minY), abs(center.y - maxY))
    return (dx * dx + dy * dy) * (1 + 1e-9)
  }

  @inlinable @inline(__always)
  func tightBound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double {
    bound(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
  }
}
