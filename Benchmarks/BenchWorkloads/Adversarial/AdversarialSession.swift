import BenchFormats
import MapClustering
import SpatialIndexes

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
  /// buffer holds): about a phone screen's, so that the per-cell strategy's
  /// query a cell costs what the map session's does.
  public static let maximumCells = 256.0

  /// `count` steps over `points`, from `seed`.
  public static func steps(points: [Point], count: Int, seed: UInt64) -> MapSteps {
    let survey = DataSurvey(points: points, seed: seed)
    let root = SplitMix64(seed: seed).fork(41)
    var boxes: [GeoQuery] = [], taps: [Tap] = [], positions: [Point] = []
    var reaches: [Double] = [], moves: [[PointMove]] = []
    var moved: [Int32: Point] = [:]
    let boxKinds = HostileBoxes.Kind.allCases, spotKinds = HostileSpots.Kind.allCases
    for i in 0..<count {
      var g = root.fork(UInt64(i))
      let zoom = g.nextInt(below: 5) == 0 ? g.nextInt(below: 31) : g.nextInt(below: 20)
      let box = HostileBoxes.box(
        boxKinds[i % boxKinds.count], from: survey, zoom: zoom, maximumCells: maximumCells, &g)
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
