import MapClustering
import SpatialIndexes
import _SeededRandom

/// Places where map code goes wrong, shared by `bench verify`'s
/// adversarial session and `bench fuzz`: the antimeridian and a hair beside
/// it, the poles, the Web Mercator map's edge and just past it, the edges of
/// the clustering cells, and the data's own points (duplicates, an edge
/// through a point, a search from exactly a point).
///
/// Every choice comes from the ``SplitMix64`` passed in, so the same seed
/// gives the same spots on every machine.
public enum HostileSpots {
  /// A longitude beside the antimeridian, about a centimetre from it, as a
  /// phone reports a tap beside a point at ±180°.
  public static let besideAntimeridian = 179.999_999_9

  /// Longitudes on and beside the antimeridian: ±180, ±179.9999999, and
  /// the doubles next to ±180.
  public static let antimeridianLongitudes: [Double] = [
    -180, 180, -besideAntimeridian, besideAntimeridian, (-180.0).nextUp, (180.0).nextDown,
  ]

  /// Latitudes at the poles and a hair from them, at the Web Mercator map's
  /// edge (the constant, the doubles either side, the edge as people write
  /// it), and beyond the map, south and north; and the equator.
  public static let edgeLatitudes: [Double] = {
    let edge = WebMercator.maxLatitude
    let north = [90, 89.999_999_9, 89, 85.06, edge, edge.nextUp, edge.nextDown, 85.051_128_779_806_6]
    return north + north.map { -$0 } + [0]
  }()

  /// The kinds of spot ``spot(_:from:_:)`` draws.
  public enum Kind: CaseIterable, Sendable {
    /// Exactly a data point.
    case onPoint
    /// Exactly a point that is there more than once.
    case onDuplicate
    /// On the antimeridian (±180°, or the doubles beside it), at a data
    /// point's latitude or an edge latitude.
    case antimeridian
    /// Beside a data point at ±180°, across the antimeridian from it: a
    /// point at 180° gives a spot at −179.9999999°.
    case acrossAntimeridian
    /// At or a hair from a pole.
    case pole
    /// At a latitude of the map's edge, or beyond it.
    case mapEdge
    /// A data point moved onto the nearest clustering cell edge (west, north
    /// or both) at a random zoom.
    case cellEdge
    /// The antipode of a data point: as far as the Earth allows.
    case antipode
    /// Anywhere on the globe.
    case anywhere
  }

  /// A spot of `kind`, from what `survey` found in the data (anywhere on the
  /// globe when the data hold none of what the kind needs).
  package static func spot(_ kind: Kind, from survey: DataSurvey, _ g: inout SplitMix64) -> Point {
    switch kind {
    case .onPoint:
      return pick(survey.sample, &g) ?? anywhere(&g)
    case .onDuplicate:
      return pick(survey.duplicates, &g) ?? pick(survey.sample, &g) ?? anywhere(&g)
    case .antimeridian:
      let lat = g.nextInt(below: 2) == 0
        ? pick(survey.sample, &g)?.y ?? pick(edgeLatitudes, &g)! : pick(edgeLatitudes, &g)!
      return Point(x: pick(antimeridianLongitudes, &g)!, y: lat)
    case .acrossAntimeridian:
      let p = pick(survey.onAntimeridian, &g) ?? pick(survey.sample, &g)
        ?? Point(x: 180, y: pick(edgeLatitudes, &g)!)
      return across(p, &g)
    case .pole:
      let lat = pick([90, -90, 89.999_999_9, -89.999_999_9], &g)!
      let lon = g.nextInt(below: 2) == 0 ? pick(antimeridianLongitudes + [0], &g)! : g.nextDouble(in: -180, 180)
      return Point(x: lon, y: lat)
    case .mapEdge:
      let lon = pick(survey.sample, &g)?.x ?? g.nextDouble(in: -180, 180)
      return Point(x: lon, y: pick(edgeLatitudes, &g)!)
    case .cellEdge:
      let p = pick(survey.sample, &g) ?? anywhere(&g)
      return onCellEdge(near: p, zoom: g.nextInt(below: 23), axes: g.nextInt(below: 3))
    case .antipode:
      let p = pick(survey.sample, &g) ?? anywhere(&g)
      return Point(x: p.x > 0 ? p.x - 180 : p.x + 180, y: -p.y)
    case .anywhere:
      return anywhere(&g)
    }
  }

  /// A spot of a kind drawn uniformly.
  package static func anySpot(from survey: DataSurvey, _ g: inout SplitMix64) -> Point {
    spot(Kind.allCases[g.nextInt(below: Kind.allCases.count)], from: survey, &g)
  }

  /// Uniform over the longitude and latitude box of the globe.
  package static func anywhere(_ g: inout SplitMix64) -> Point {
    Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -90, 90))
  }

  /// Beside `p` across the antimeridian (or on it): a point east of 0°
  /// gives one at −180° or a hair east of it, a point west of 0° one at
  /// 180° or a hair west of it; the latitude is kept.
  package static func across(_ p: Point, _ g: inout SplitMix64) -> Point {
    let hair = g.nextInt(below: 3) != 0
    let x = p.x >= 0 ? (hair ? -besideAntimeridian : -180) : (hair ? besideAntimeridian : 180)
    return Point(x: x, y: p.y)
  }

  /// `p` moved onto the edges of its clustering cell at `zoom` (default
  /// cell sizes): its column's west edge (`axes` 0), its row's north edge
  /// (1), or both (2). The edge is the projection of a whole number of
  /// cells, so the point lies on it up to the projection's rounding: the
  /// cases where a cell's half-open rule decides.
  public static func onCellEdge(
    near p: Point, zoom: Int, axes: Int, cellTable: ClusterCellTable = .default
  ) -> Point {
    let s = WebMercator.scale(zoom: zoom), c = cellTable.cellSize(zoom: zoom)
    let column = MapCells.index(WebMercator.x(longitude: p.x), scale: s, cellSize: c, inverse: 1 / c)
    let row = MapCells.index(WebMercator.y(latitude: p.y), scale: s, cellSize: c, inverse: 1 / c)
    var q = p
    if axes != 1 { q.x = min(180, max(-180, WebMercator.longitude(x: Double(column) * c / s))) }
    if axes != 0 { q.y = WebMercator.latitude(y: Double(row) * c / s) }
    return q
  }

  /// A uniformly chosen element, or nil for none.
  static func pick<T>(_ list: [T], _ g: inout SplitMix64) -> T? {
    list.isEmpty ? nil : list[g.nextInt(below: list.count)]
  }
}
