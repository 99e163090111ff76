import MapClustering
import SpatialIndexes
import _SeededRandom

/// Moves a live map's fleet never makes but an app's data may: across the
/// antimeridian, to a pole, off the map, onto another point, out of the
/// data's box (and so out of an index built with the data's bounds), a
/// hair, or to the far side of the Earth.
public enum HostileMoves {
  /// One frame of `count` moves of points drawn from `0..<pointCount`;
  /// `moved` holds where the points moved so far are (updated here), the
  /// others being at `points[id]`. With `distinct`, each id moves at most
  /// once and the moves come in id order (as an app applies a frame of
  /// reports); otherwise an id may move twice, the second move from where
  /// the first left it.
  package static func frame(
    count: Int, points: [Point], moved: inout [Int32: Point], survey: DataSurvey, distinct: Bool,
    _ g: inout SplitMix64
  ) -> [PointMove] {
    guard !points.isEmpty else { return [] }
    var ids = (0..<count).map { _ in Int32(g.nextInt(below: points.count)) }
    if distinct { ids = Array(Set(ids)).sorted() }
    var frame: [PointMove] = []
    for id in ids {
      let to = target(from: moved[id] ?? points[Int(id)], survey: survey, &g)
      moved[id] = to
      frame.append(PointMove(id: id, to: to))
    }
    return frame
  }

  /// Where a point at `p` goes: a hostile place, on the globe.
  package static func target(from p: Point, survey: DataSurvey, _ g: inout SplitMix64) -> Point {
    switch g.nextInt(below: 7) {
    case 0:  // across the antimeridian
      return HostileSpots.across(p, &g)
    case 1:  // a pole, or off the map
      let lat = HostileSpots.pick(HostileSpots.edgeLatitudes, &g)!
      return Point(x: p.x, y: lat)
    case 2:  // out of the data's box, just past an edge
      guard let b = survey.bounds else { return HostileSpots.anywhere(&g) }
      let pad = HostileSpots.pick([1e-9, 1e-6, 0.01, 1], &g)!
      var q = p
      switch g.nextInt(below: 4) {
      case 0: q.x = min(180, b.maxX + pad)
      case 1: q.x = max(-180, b.minX - pad)
      case 2: q.y = min(90, b.maxY + pad)
      default: q.y = max(-90, b.minY - pad)
      }
      return q
    case 3:  // a hair
      let dx = HostileSpots.pick([1e-7, -1e-7, 1e-12, 0], &g)!, dy = HostileSpots.pick([1e-7, -1e-7, 0], &g)!
      return Point(x: min(180, max(-180, p.x + dx)), y: min(90, max(-90, p.y + dy)))
    default:  // a hostile spot: onto a point, a cell edge, the far side
      return HostileSpots.anySpot(from: survey, &g)
    }
  }
}
