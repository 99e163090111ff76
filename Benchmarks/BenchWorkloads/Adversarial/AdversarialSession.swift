import BenchFormats
import MapClustering
import SpatialIndexes
import _SeededRandom

/// `bench verify`'s second session: steps made from the dataset to land
/// where the map session never does.
///
/// Step `i` takes its box, tap and position from the hostile kinds in turn
/// (``HostileBoxes/Kind``, ``HostileSpots/Kind``), so every kind comes up
/// within a few steps: boxes whose edges pass exactly through data points,
/// boxes across and up to the antimeridian, over a pole, of zero width,
/// screens on the hostile spots; taps and k-nearest positions exactly on
/// points, on duplicates, at ±179.9999999° beside points at ±180°, at the
/// poles, on cell edges. A quarter of the searches stop exactly at a
/// point's distance (``MapSteps/reaches``). Each live frame moves a few
/// points across the antimeridian, to a pole, off the map or out of the
/// data's box (``HostileMoves``).
///
/// The same points, count and seed give the same steps on every machine.
/// The work is bounded whatever the dataset's size: one pass to survey it
/// (``DataSurvey``), then O(`count`).
public enum AdversarialSession {
  /// Moves in a live frame, at most.
  public static let movesPerFrame = 16
  /// Cells a box covers at its zoom, at most (unless more than the dense
  /// buffer holds): about a phone screen's at zooms 0-12, so that the
  /// per-cell strategy's query a cell (a scan, for the linear scan) costs
  /// about what the map session's does.
  public static let maximumCells = 64.0
  /// Points a box of more cells than the dense buffer holds may show, about.
  public static let maximumSparsePoints = 2000.0
  /// The boxes' kinds in turn: the whole world and a polar cap, which hold
  /// many points and few edges, once in twelve steps each.
  static let boxKinds: [HostileBoxes.Kind] = [
    .throughPoints, .screen, .antimeridian, .degenerate, .throughPoints, .screen,
    .antimeridian, .polar, .degenerate, .screen, .throughPoints, .world,
  ]

  /// `count` steps over `points`, from `seed`.
  public static func steps(points: [Point], count: Int, seed: UInt64) -> MapSteps {
    let survey = DataSurvey(points: points, seed: seed)
    let root = SplitMix64(seed: seed).fork(41)
    var boxes: [GeoQuery] = [], taps: [Tap] = [], positions: [Point] = []
    var reaches: [Double] = [], moves: [[PointMove]] = []
    var moved: [Int32: Point] = [:]
    let spotKinds = HostileSpots.Kind.allCases
    for i in 0..<count {
      var g = root.fork(UInt64(i))
      let zoom = g.nextInt(below: 5) == 0 ? g.nextInt(below: 31) : g.nextInt(below: 20)
      var box = HostileBoxes.box(
        boxKinds[i % boxKinds.count], from: survey, zoom: zoom, maximumCells: maximumCells, &g)
      // a box of more cells than the dense buffer holds, with thousands of
      // points in it, is a marker a point (checked by every index and
      // strategy, a slow step): such boxes keep to a few points
      if HostileBoxes.cells(of: box, zoom: box.zoom!) > Double(Clusterer<LinearScanIndex>.maximumDenseCells)
        && survey.estimatedCount(in: box) > maximumSparsePoints {
        box.zoom = HostileBoxes.cheapZoom(for: box, near: box.zoom!, maximumCells: maximumCells, sparse: false)
      }
      boxes.append(box)
      let tapZoom = g.nextInt(below: 2) == 0 ? box.zoom! : g.nextInt(below: 23)
      taps.append(Tap(at: HostileSpots.spot(spotKinds[i % spotKinds.count], from: survey, &g), zoom: tapZoom))
      // offset from the taps' kinds, so a step's tap and position differ
      let position = HostileSpots.spot(spotKinds[(i + 4) % spotKinds.count], from: survey, &g)
      positions.append(position)
      switch g.nextInt(below: 8) {
      case 0, 1:  // exactly at a point's distance: the limit decides
        let p = HostileSpots.spot(.onPoint, from: survey, &g)
        reaches.append(GreatCircle.distance(position, p))
      case 2: reaches.append(0)
      default: reaches.append(.infinity)
      }
      let n = g.nextInt(below: movesPerFrame + 1)
      moves.append(HostileMoves.frame(
        count: n, points: points, moved: &moved, survey: survey, distinct: true, &g))
    }
    return MapSteps(
      source: "the adversarial session", boxes: boxes, taps: taps, positions: positions,
      reaches: reaches, moves: moves)
  }
}
