import MapClustering
import SpatialIndexes

/// **tap**: the point nearest the tap within 22 screen points at the tap's
/// zoom, Euclidean between Web Mercator pixels and the shorter way round
/// the antimeridian; ties to the point earlier in the points file; none
/// when no point is that close. Only points the map shows are candidates:
/// longitude within ±180°, latitude within ±``WebMercator/maxLatitude``;
/// with a filter, only those that pass it (``PropertyQuery/matches(_:)``).
public enum TapRule: AnswerRule {
  public static let workload = TapWorkload.name

  public static func answers(_ data: WorkloadData, variant: String) -> [Int32?] {
    (data.steps.taps ?? []).enumerated().map { step, tap in
      let query = data.filter?.filterQuery(step: step)
      var best: (d2: Double, id: Int32)? = nil
      for i in data.points.indices where query?.matches(Int32(i)) ?? true {
        guard let d2 = distanceSquared(tap, data.points[i]), d2 <= tap.radius * tap.radius else { continue }
        if best == nil || d2 < best!.d2 { best = (d2, Int32(i)) }  // in file order: ties keep the earlier
      }
      return best?.id
    }
  }

  /// The same point, or another as near to a rounding (either wins), or
  /// none where the nearest is a rounding from the radius (and back).
  public static func allows(
    _ got: Int32?, expected: Int32?, step: Int, data: WorkloadData, variant: String
  ) -> Bool {
    if got == expected { return true }
    guard let tap = data.steps.taps?[step] else { return false }
    if let got, let query = data.filter?.filterQuery(step: step), !query.matches(got) { return false }
    let r2 = tap.radius * tap.radius
    func d2(_ id: Int32?) -> Double? { id.flatMap { Int($0) < data.points.count ? distanceSquared(tap, data.points[Int($0)]) : nil } }
    switch (d2(got), d2(expected)) {
    case let (g?, e?): return g != e && abs(g - e) <= slack(e) && g <= r2 + slack(r2)
    case let (g?, nil): return expected == nil && abs(g - r2) <= slack(r2)
    case let (nil, e?): return got == nil && abs(e - r2) <= slack(r2)
    default: return false
    }
  }

  /// A rounding's worth of a squared distance.
  static func slack(_ d2: Double) -> Double { 1e-9 * max(1, d2) }

  /// The squared screen distance from `tap` to `p`, or nil for a point the
  /// map does not show.
  static func distanceSquared(_ tap: Tap, _ p: Point) -> Double? {
    guard p.x >= -180 && p.x <= 180 && abs(p.y) <= WebMercator.maxLatitude else { return nil }
    let scale = WebMercator.scale(zoom: tap.zoom), world = 256 * scale
    func pixels(_ q: Point) -> (Double, Double) {
      (WebMercator.x(longitude: q.x) * scale, WebMercator.y(latitude: q.y) * scale)
    }
    let (tx, ty) = pixels(tap.coordinate), (px, py) = pixels(p)
    let across = abs(px - tx)
    let dx = min(across, world - across), dy = py - ty
    return dx * dx + dy * dy
  }
}
