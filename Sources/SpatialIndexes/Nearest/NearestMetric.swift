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
  /// An upper bound, in bound space, for the point (`x`, `y`): a point
  /// ranks no farther than a point whose lower bound exceeds it.
  func upper(x: Double, y: Double) -> Double
  /// A distance no smaller than that of any point whose bound-space value
  /// is at most `cut`.
  func distance(covering cut: Double) -> Double
  /// A lower bound, in bound space, for every point of a box.
  func bound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double
  /// A bound-space value that no point within `distance` exceeds.
  func cut(_ distance: Double) -> Double
  /// A bound-space value that no point of the box exceeds.
  func upperBound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double
  /// Whether ``tightBound(minX:minY:maxX:maxY:)`` improves on the cheap
  /// bound enough to be worth its cost on the nodes a search opens.
  static var refines: Bool { get }
  /// Whether it does for this box (asked only when ``refines``).
  func refines(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool
  /// A bound at least as large as the cheap one, still a lower bound.
  func tightBound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double
  /// ``bound(x:y:)`` of `count` points (coordinates interleaved in `xy`)
  /// into `out`, knowing that only bounds up to `cut` matter: a metric may
  /// take a cheaper bound that is tight only there.
  func bounds(_ xy: UnsafePointer<Double>, count: Int, into out: UnsafeMutablePointer<Double>, cut: Double)
}

extension _NearestMetric {
  @inlinable @inline(__always)
  func bounds(_ xy: UnsafePointer<Double>, count: Int, into out: UnsafeMutablePointer<Double>, cut: Double) {
    for j in 0..<count { out[j] = bound(x: xy[2 &* j], y: xy[2 &* j &+ 1]) }
  }
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
  /// A cut up to which a point that passes lies within half gaps of 1/8
  /// (see ``bounds(_:count:into:cut:)``).
  @usableFromInline let nearCut: Double

  @inlinable
  init(center: Point) {
    self.center = center
    phi = center.y * (Double.pi / 180)
    cosPhi = cos(phi)
    // h ≤ cut ≤ sin²(1/8) keeps the latitude's half gap within 1/8, so
    // |ψ| ≤ |φ| + 1/4; then cos φ cos ψ sin²(Δλ/2) ≤ cut keeps the
    // longitude's within 1/8 too when cut ≤ sin²(1/8) cos φ cos(|φ| + 1/4)
    let sin8 = 0.124_674_733_385_227  // sin(1/8) is 0.124674733385227689…
    nearCut = sin8 * sin8 * Swift.max(0, cosPhi * cos(Swift.min(Double.pi / 2, abs(phi) + 0.25))) * (1 - 1e-9)
  }

  /// The points' bounds with x − x³/6 for the sines when `cut` is at most
  /// `nearCut`: every point that can pass it has half gaps within 1/8, where
  /// that is within 3e-7 of the sine (and it is below the sine everywhere,
  /// so the others' bounds stay bounds). The series to x⁷, which far
  /// neighbours need, cost 5–10% of a search on uniform points, whose
  /// neighbours all lie that near.
  @inlinable @inline(__always)
  func bounds(_ xy: UnsafePointer<Double>, count: Int, into out: UnsafeMutablePointer<Double>, cut: Double) {
    if cut <= nearCut {
      for j in 0..<count {
        let g = halfGaps(x: xy[2 &* j], y: xy[2 &* j &+ 1])
        let s = g.latitude - g.latitude * g.latitude * g.latitude * (1.0 / 6)
        let t = g.longitude - g.longitude * g.longitude * g.longitude * (1.0 / 6)
        let c = Self.cosBelow(Swift.min(Double.pi / 2, g.psi))
        out[j] = (s * s + cosPhi * c * t * t) * (1 - 1e-9)
      }
    } else {
      for j in 0..<count { out[j] = bound(x: xy[2 &* j], y: xy[2 &* j &+ 1]) }
    }
  }

  @inlinable @inline(__always)
  func distance(x: Double, y: Double) -> Double {
    GreatCircle.distance(center, cosLatitude: cosPhi, Point(x: x, y: y))
  }

  /// sin x from below, for x in [0, π/2]: the series to x⁷, within 3e-6
  /// of sin x at x = 1. Candidates are kept on their lower bounds and the
  /// cut set by upper ones, so the two must be close also for far
  /// neighbours: with x − x³/6 (0.8% under at x = 1), a search from far
  /// away kept most of a distant cluster's points (`bench speed --nearest
  /// --blobs 20`: the R-tree's k = 1 took 150 µs, against 5.5 µs before
  /// distances were left to the end).
  @inlinable @inline(__always)
  static func sinBelow(_ x: Double) -> Double {
    let x2 = x * x
    return x - x * x2 * (1.0 / 6 - x2 * (1.0 / 120 - x2 * (1.0 / 5040)))
  }

  /// cos x from below, for x in [0, π/2]: the larger of its series to x⁶
  /// and, as sin(π/2 − x), the sine's series to y⁷ (y = π/2 − x, rounded
  /// down, as `Double.pi` is): the first is within 5e-6 of cos x up to
  /// 45°, the second from there to the pole, where the first alone was
  /// off by 0.7% at 85° and 5% at 89°.
  @inlinable @inline(__always)
  static func cosBelow(_ x: Double) -> Double {
    let x2 = x * x
    let series = 1 - x2 * (0.5 - x2 * (1.0 / 24 - x2 * (1.0 / 720)))
    let y = Double.pi / 2 - x, y2 = y * y
    let fromPole = y - y * y2 * (1.0 / 6 - y2 * (1.0 / 120 - y2 * (1.0 / 5040)))
    return Swift.max(0, series, fromPole)
  }

  /// The bound from the half gaps and the largest |latitude|, radians.
  @inlinable @inline(__always)
  func bound(halfLatitudeGap: Double, halfLongitudeGap: Double, maxAbsPsi: Double) -> Double {
    let s = Self.sinBelow(halfLatitudeGap), t = Self.sinBelow(halfLongitudeGap)
    let c = Self.cosBelow(Swift.min(Double.pi / 2, maxAbsPsi))
    return (s * s + cosPhi * c * t * t) * (1 - 1e-9)
  }

  /// The latitude of `y` degrees in radians less the centre's, as a
  /// point's distance takes it (``halfGaps(x:y:)``). Rounding keeps order,
  /// so for every point north of a box's edge `y` the gap its distance
  /// uses is at least this: a bound from an edge holds for its box's points
  /// even within a metre of the centre, where the rounding of each
  /// latitude is no longer small beside the gap (a bound from the gap in
  /// degrees missed a point 1 µm away at an edge of its k-d tree region).
  @inlinable @inline(__always)
  func latitudeGap(to y: Double) -> Double { y * (Double.pi / 180) - phi }

  /// A point's half gaps in radians and its latitude in radians, taken as
  /// ``GreatCircle/distance(_:_:)`` takes them (the latitude gap from the
  /// latitudes in radians, the longitude gap halved after), so that within
  /// a metre of the centre, where the rounding of the gap is no longer
  /// small beside it, a point's bounds bracket the very value its distance
  /// is computed from.
  @inlinable @inline(__always)
  func halfGaps(x: Double, y: Double) -> (latitude: Double, longitude: Double, psi: Double) {
    let toRadians = Double.pi / 180
    let psi = y * toRadians
    let dx = abs(x - center.x)
    return (abs(psi - phi) / 2, Swift.min(dx, 360 - dx) * toRadians / 2, abs(psi))
  }

  @inlinable @inline(__always)
  func bound(x: Double, y: Double) -> Double {
    let g = halfGaps(x: x, y: y)
    return bound(halfLatitudeGap: g.latitude, halfLongitudeGap: g.longitude, maxAbsPsi: g.psi)
  }

  /// From above, as ``bound(x:y:)`` is from below: the same terms with
  /// ``sinAbove(_:)`` and ``cosAbove(_:)``.
  @inlinable @inline(__always)
  func upper(x: Double, y: Double) -> Double {
    let g = halfGaps(x: x, y: y)
    let s = Self.sinAbove(g.latitude), t = Self.sinAbove(g.longitude)
    return (s * s + cosPhi * Self.cosAbove(g.psi) * t * t) * (1 + 1e-9)
  }

  /// cos x from above, for x in [0, π/2]: the smaller of its series to x⁸
  /// and ``sinAbove(_:)`` of π/2 − x, raised by 2e-16 for `Double.pi`'s
  /// rounding down. Near a pole the upper bounds set the cut, and the
  /// series to x⁴ alone was 17% over cos x at 85°: a search there kept
  /// and measured many more points (`bench speed --nearest`, poles).
  @inlinable @inline(__always)
  static func cosAbove(_ x: Double) -> Double {
    let x2 = x * x
    let series = 1 - x2 * (0.5 - x2 * (1.0 / 24 - x2 * (1.0 / 720 - x2 * (1.0 / 40320))))
    return Swift.min(series, sinAbove(Double.pi / 2 - x + 2e-16))
  }

  /// 2R asin(√h), rounded up by a margin; a half circle for h ≥ 1.
  @inlinable @inline(__always)
  func distance(covering cut: Double) -> Double {
    guard cut < 1 else { return .pi * GreatCircle.earthRadius }
    return 2 * GreatCircle.earthRadius * asin(Swift.max(0, cut).squareRoot()) * (1 + 1e-9)
  }

  @inlinable @inline(__always)
  func bound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double {
    // Without branches (a box's side of the centre is a coin toss): with
    // east = minX − lon and west = lon − maxX, at most one is positive, the
    // gap the shorter way round is the positive one or 360 plus the other
    // (its way round past the antimeridian), and both are ≤ 0 inside.
    let lon = center.x, toRadians = Double.pi / 180
    let dPhi = Swift.max(0, Swift.max(latitudeGap(to: minY), -latitudeGap(to: maxY)))
    let east = minX - lon, west = lon - maxX
    let dLambda = Swift.max(0, Swift.min(Swift.max(east, west), 360 + Swift.min(east, west)))
    return bound(halfLatitudeGap: dPhi / 2, halfLongitudeGap: dLambda * toRadians / 2,
                 maxAbsPsi: Swift.max(abs(minY), abs(maxY)) * toRadians)
  }

  @inlinable @inline(__always)
  static var refines: Bool { true }

  /// For a box taller than 2° of latitude or reaching past ±75°: there the
  /// cheap bound's cos ψ, the box's smallest, may be far below the one of
  /// its nearest point (around a pole it is 0 for every box). Elsewhere the
  /// tight bound (five calls to the maths library) gained a few per cent on
  /// a leaf-sized box and cost more than it saved: at 1M uniform points a
  /// nearest-1 search took 2.6 µs refining every node it opened, against
  /// 1.1 µs for the planar search.
  @inlinable @inline(__always)
  func refines(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
    maxY - minY > 2 || Swift.max(abs(minY), abs(maxY)) > 75
  }

  /// From above: sin x ≤ x, cos ψ ≤ 1, and the largest gaps (the longitude
  /// gap not wrapped, which is never smaller than the wrapped one, but at
  /// most 180°), with a margin for rounding.
  @inlinable @inline(__always)
  func upperBound(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Double {
    let half = Double.pi / 360
    let s = Swift.max(abs(latitudeGap(to: minY)), abs(latitudeGap(to: maxY))) / 2
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
      let gap = lat < minY ? latitudeGap(to: minY) : (lat > maxY ? -latitudeGap(to: maxY) : 0)
      let s = sin(gap / 2)
      h = s * s
    } else {
      // the nearer meridian edge the shorter way round, each gap rounded as
      // a point's on that edge is (``halfGaps(x:y:)``): `minX + 360 − lon`
      // rounded otherwise, and across the antimeridian the box's bound came
      // out above the points on its edge by 3e-7 of a 1e-7° gap
      let dw = abs(minX - lon), de = abs(maxX - lon)
      let gap = Swift.min(Swift.min(dw, 360 - dw), Swift.min(de, 360 - de))
      let dLambda = Swift.max(0, Swift.min(180, gap)) * toRadians
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
    func haversine(_ gap: Double) -> Double {  // of a latitude gap in radians
      let s = sin(Swift.max(0, gap) / 2)
      return s * s
    }
    func meridian(_ dLambdaDegrees: Double) -> Double {
      // less a few ulps of 360°: a point past the edge at +180° lies at
      // −180°, and its gap, 360° less a rounded 359.9999999°, may be that
      // much below the edge's, far more than the 1e-9 margin of a 1e-7° gap
      let d = Swift.max(0, dLambdaDegrees - 1e-12)
      if d > 90 { return haversine(Double.pi / 2 - abs(phi)) }
      let s = sin(d * toRadians)
      let u = cosPhi * cosPhi * s * s
      return u / (2 * (1 + (1 - u).squareRoot()))
    }
    var h = Double.infinity
    if north { h = Swift.min(h, haversine(latitudeGap(to: box.maxY))) }
    if south { h = Swift.min(h, haversine(-latitudeGap(to: box.minY))) }
    if east || west {
      // the lune between the two half-meridians: crossing either one
      h = Swift.min(h, meridian(box.maxX - center.x), meridian(center.x - box.minX))
    }
    return h * (1 - 1e-9)
  }

  /// sin x from above, for x in [0, π/2]: the series to x⁹ (in exact
  /// arithmetic; rounding can put it an ulp under, which the cut's 1e-9
  /// margin covers). A search lowers its cut each time a nearer point
  /// replaces the farthest kept; `sin` there was a fifth call to the maths
  /// library per point kept.
  @inlinable @inline(__always)
  static func sinAbove(_ x: Double) -> Double {
    let x2 = x * x
    return x * (1 - x2 * (1.0 / 6 - x2 * (1.0 / 120 - x2 * (1.0 / 5040 - x2 * (1.0 / 362_880)))))
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

  /// The bound itself, with a margin: points whose bounds differ in the
  /// last place may have the same distance, and then the smaller id ranks
  /// first.
  @inlinable @inline(__always)
  func upper(x: Double, y: Double) -> Double { bound(x: x, y: y) * (1 + 1e-9) }

  @inlinable @inline(__always)
  func distance(covering cut: Double) -> Double { cut.squareRoot() * (1 + 1e-9) }

  @inlinable @inline(__always)
  static var refines: Bool { false }

  @inlinable @inline(__always)
  func refines(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool { false }

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
