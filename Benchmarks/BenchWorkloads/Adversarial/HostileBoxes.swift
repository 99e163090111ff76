import BenchFormats
import MapClustering
import SpatialIndexes
import _SeededRandom

/// Viewport boxes where map code goes wrong: edges through data points,
/// across or up to the antimeridian, over a pole, of zero width or height,
/// screens centred on the hostile spots, the whole world; each with a zoom.
///
/// A box's zoom is kept where clustering it stays cheap: the `per-cell`
/// strategy asks one range query per cell, so a box is given a zoom at which
/// it covers at most `maximumCells` cells, or one at which it covers more
/// than the clusterer's dense buffer holds (``Clusterer/maximumDenseCells``,
/// where every strategy sums points in a hash table instead).
public enum HostileBoxes {
  /// The kinds of box ``box(_:from:zoom:_:)`` draws.
  public enum Kind: CaseIterable, Sendable {
    /// Each edge through a data point's coordinate; west of east or, across
    /// the antimeridian, east of it.
    case throughPoints
    /// A screen of up to 1024 × 1024 points centred on a hostile spot.
    case screen
    /// Across the antimeridian, or up to it from either side.
    case antimeridian
    /// From the map's edge (or beyond it) to a pole.
    case polar
    /// A line or a single spot: zero width, zero height, or both.
    case degenerate
    /// Every latitude and longitude.
    case world
  }

  /// A box of `kind` at about `zoom`, from what `survey` found, covering at
  /// most `maximumCells` cells (or more than the dense buffer holds).
  package static func box(
    _ kind: Kind, from survey: DataSurvey, zoom: Int, maximumCells: Double, _ g: inout SplitMix64
  ) -> GeoQuery {
    var q: GeoQuery
    switch kind {
    case .throughPoints:
      // the second point the nearest of a few: a box of a few points more
      // often than one of half the world
      let a = HostileSpots.anySpot(from: survey, &g)
      var b = HostileSpots.spot(.onPoint, from: survey, &g)
      for _ in 0..<g.nextInt(below: 16) {
        let c = HostileSpots.spot(.onPoint, from: survey, &g)
        if abs(c.x - a.x) + abs(c.y - a.y) < abs(b.x - a.x) + abs(b.y - a.y) { b = c }
      }
      q = GeoQuery(minLat: min(a.y, b.y), minLon: a.x, maxLat: max(a.y, b.y), maxLon: b.x)
    case .screen:
      let centre = HostileSpots.anySpot(from: survey, &g)
      let width = Double(g.nextInt(below: 1025)), height = Double(g.nextInt(below: 1025))
      q = box(of: Viewport(center: centre, zoom: zoom, width: width, height: height).visibleArea)
    case .antimeridian:
      let west = HostileSpots.pick([180, HostileSpots.besideAntimeridian, g.nextDouble(in: 170, 180)], &g)!
      let east = HostileSpots.pick([-180, -HostileSpots.besideAntimeridian, g.nextDouble(in: -180, -170)], &g)!
      let a = HostileSpots.anySpot(from: survey, &g), b = HostileSpots.anySpot(from: survey, &g)
      q = GeoQuery(minLat: min(a.y, b.y), minLon: west, maxLat: max(a.y, b.y), maxLon: east)
      switch g.nextInt(below: 3) {
      case 0: q.minLon = g.nextDouble(in: -180, 180); q.maxLon = 180  // up to +180
      case 1: q.minLon = -180; q.maxLon = g.nextDouble(in: -180, 180)  // from -180
      default: break
      }
    case .polar:
      let edge = HostileSpots.pick(HostileSpots.edgeLatitudes.filter { $0 > 0 }, &g)!
      let a = g.nextDouble(in: -180, 180), b = g.nextDouble(in: -180, 180)
      q = GeoQuery(minLat: edge, minLon: min(a, b), maxLat: 90, maxLon: max(a, b))
      if g.nextInt(below: 2) == 0 { (q.minLat, q.maxLat) = (-90, -edge) }
    case .degenerate:
      let p = HostileSpots.anySpot(from: survey, &g), other = HostileSpots.anySpot(from: survey, &g)
      q = GeoQuery(minLat: p.y, minLon: p.x, maxLat: p.y, maxLon: p.x)
      switch g.nextInt(below: 3) {
      case 0: (q.minLat, q.maxLat) = (min(p.y, other.y), max(p.y, other.y))  // a meridian's segment
      case 1: (q.minLon, q.maxLon) = (min(p.x, other.x), max(p.x, other.x))  // a parallel's segment
      default: break  // one spot
      }
    case .world:
      q = GeoQuery(minLat: -90, minLon: -180, maxLat: 90, maxLon: 180)
    }
    q.zoom = cheapZoom(for: q, near: zoom, maximumCells: maximumCells, sparse: g.nextInt(below: 4) == 0)
    return q
  }

  /// A box of a kind drawn uniformly, at a zoom drawn from 0...30 (mostly
  /// 0...19, the zooms of a map app).
  package static func anyBox(from survey: DataSurvey, maximumCells: Double, _ g: inout SplitMix64) -> GeoQuery {
    let zoom = g.nextInt(below: 5) == 0 ? g.nextInt(below: 31) : g.nextInt(below: 20)
    return box(
      Kind.allCases[g.nextInt(below: Kind.allCases.count)], from: survey, zoom: zoom,
      maximumCells: maximumCells, &g)
  }

  /// The box a visible area shows: its one rectangle, or the two across
  /// the antimeridian as one box whose west edge is east of its east edge.
  package static func box(of area: VisibleArea) -> GeoQuery {
    let a = area.first
    guard area.count == 2 else { return GeoQuery(minLat: a.minY, minLon: a.minX, maxLat: a.maxY, maxLon: a.maxX) }
    return GeoQuery(minLat: a.minY, minLon: a.minX, maxLat: a.maxY, maxLon: area.second.maxX)
  }

  /// `zoom`, or the nearest zoom below it at which `box` covers at most
  /// `maximumCells` cells; with `sparse`, the nearest above it at which it
  /// covers more than the dense buffer holds, if there is one.
  public static func cheapZoom(for box: GeoQuery, near zoom: Int, maximumCells: Double, sparse: Bool) -> Int {
    var z = min(WebMercator.zoomRange.upperBound, max(0, zoom))
    if cells(of: box, zoom: z) <= maximumCells { return z }
    if sparse {
      var up = z
      while up < WebMercator.zoomRange.upperBound && cells(of: box, zoom: up) <= Double(Clusterer<LinearScanIndex>.maximumDenseCells) {
        up += 1
      }
      if cells(of: box, zoom: up) > Double(Clusterer<LinearScanIndex>.maximumDenseCells) { return up }
    }
    while z > 0 && cells(of: box, zoom: z) > maximumCells { z -= 1 }
    return z
  }

  /// The cells the box's rectangles cover at `zoom`, counted as a
  /// clustering step lays them out (the columns both rectangles of a box
  /// across the antimeridian share count once).
  public static func cells(of box: GeoQuery, zoom: Int, cellTable: ClusterCellTable = .default) -> Double {
    let area = VisibleArea(zoom: zoom, rects: box.rects())
    return Double(Clusterer<LinearScanIndex>.stepCellCount(area, cellTable: cellTable))
  }
}
