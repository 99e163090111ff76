import Foundation
import SpatialIndexes

/// **nearest**: the `k` points nearest the step's position by great-circle
/// distance, rank 1 the nearest, ties to the point earlier in the points
/// file; fewer when fewer points lie within the step's reach (at most that
/// far). The distance is the haversine formula on a sphere of radius
/// 6,371,008.8 m, with φ latitudes and λ longitudes in radians:
/// `h = sin²((φ2 − φ1)/2) + cos φ1 cos φ2 sin²((λ2 − λ1)/2)`,
/// `d = 2R · asin(√min(1, h))`.
///
/// The contract gives the formula, not the order of its operations, and two
/// orders can differ in the last bit of `h`: near the antipode `asin` turns
/// that into centimetres, enough to swap two points 1.4 m apart there. So
/// the ranking (the ties, the `k` cut, the reach) uses the library's
/// evaluation of the formula, ``GreatCircle/distance(_:_:)``, and each
/// neighbour's distance is checked against this rule's own evaluation, to a
/// rounding.
public enum NearestRule: AnswerRule {
  public static let workload = NearestWorkload.name

  public static let radius = 6_371_008.8

  public static func answers(_ data: WorkloadData, variant: String) -> [[Neighbor]] {
    let k = NearestWorkload.k(of: variant) ?? 0
    return (data.steps.positions ?? []).indices.map { step in
      let position = data.steps.positions![step], reach = reach(data, step)
      var all: [Neighbor] = []
      for (i, p) in data.points.enumerated() {
        let d = GreatCircle.distance(position, p)
        if d <= reach { all.append(Neighbor(id: Int32(i), distance: d)) }
      }
      return Array(all.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }.prefix(k))
    }
  }

  static func reach(_ data: WorkloadData, _ step: Int) -> Double {
    data.steps.reaches.map { step < $0.count ? $0[step] : .infinity } ?? .infinity
  }

  /// The haversine distance in metres, evaluated as the contract writes it;
  /// `a` is the position (φ1, λ1).
  static func haversine(_ a: Point, _ b: Point) -> Double {
    let toRadians = Double.pi / 180
    let phi1 = a.y * toRadians, phi2 = b.y * toRadians
    let s = sin((phi2 - phi1) / 2), t = sin((b.x - a.x) * toRadians / 2)
    let h = s * s + cos(phi1) * cos(phi2) * (t * t)
    return 2 * radius * asin(min(1, h).squareRoot())
  }

  /// A rounding's worth of distance: near the antipode `asin` magnifies an
  /// ulp of `h` (√ of it: 0.13 m).
  static func slack(_ d: Double) -> Double {
    d > 0.999 * .pi * radius ? 0.2 : 1e-6 + 1e-12 * d
  }

  /// The same neighbours in the same order, each at the contract's distance
  /// to a rounding.
  public static func allows(
    _ got: [Neighbor], expected: [Neighbor], step: Int, data: WorkloadData, variant: String
  ) -> Bool {
    guard got.map(\.id) == expected.map(\.id) else { return false }
    let position = data.steps.positions![step]
    return got.allSatisfy { n in
      let d = haversine(position, data.points[Int(n.id)])
      return abs(d - n.distance) <= slack(d)
    }
  }
}
