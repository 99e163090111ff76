import BenchFormats
import MapClustering
import SpatialIndexes
import _SeededRandom

/// Draws the fuzzer's cases: small datasets that are hostile on purpose,
/// and steps that ask every workload something hard of them.
///
/// **Points** (0 to 3,000; most cases far fewer, so a shrunk case reads at
/// a glance): a plain part, uniform in a region (the world, a town-sized
/// box anywhere, a band along the antimeridian, a polar cap, a meridian),
/// then hostile spots (``HostileSpots``: ±180°, ±179.9999999°, the poles,
/// the map's edge and beyond, cell edges, antipodes), then runs of
/// duplicates (up to thousands of one place), sometimes rounded to a few
/// decimals (more ties and edges), sometimes shuffled (a place's
/// duplicates spread through the file, ids far apart).
///
/// **Steps** (1 to 6): a hostile box with its zoom (``HostileBoxes``), a
/// tap and a search position on hostile spots, a reach (none, zero, exactly
/// a point's distance, or any), and a live frame of hostile moves
/// (``HostileMoves``). **k**: two to four of 0, 1, 2, 3, n − 1, n, n + 1,
/// 10 and a random one. **Parameters**: ``IndexParameterDraws``.
/// **Properties**, filters and aggregates (two cases in three):
/// ``FuzzProperties``, from a stream of their own.
///
/// Case `number` of seed `seed` comes from its own sub-stream: the same
/// whatever the thread count and whichever cases ran before, and on every
/// machine whose maths library rounds `sin`, `atan` and the like alike
/// (the projection's cell edges and a point's distance come from them, as
/// the map session's viewports do).
public enum FuzzCaseGenerator {
  /// Most points a case holds.
  public static let maximumPoints = 3000
  /// Cells a box covers at most (unless more than the dense buffer holds):
  /// the linear scan's per-cell strategy scans every point a cell.
  public static let maximumCells = 4096.0

  /// Case `number` of the run seeded `seed`.
  public static func fuzzCase(seed: UInt64, number: Int) -> FuzzCase {
    var g = SplitMix64(seed: seed).fork(UInt64(number))
    return draw(&g)
  }

  static func draw(_ g: inout SplitMix64) -> FuzzCase {
    let points = drawPoints(&g)
    let survey = DataSurvey(points: points, seed: g.next())
    var moved: [Int32: Point] = [:]
    let steps = (0..<1 + g.nextInt(below: 6)).map { _ in
      drawStep(points: points, survey: survey, moved: &moved, &g)
    }
    let n = points.count
    let candidates = [0, 1, 2, 3, n - 1, n, n + 1, 10, g.nextInt(below: n + 2)].filter { $0 >= 0 }
    var ks: Set<Int> = []
    for _ in 0..<2 + g.nextInt(below: 3) { ks.insert(HostileSpots.pick(candidates, &g)!) }
    let parameters = IndexParameterDraws.draw(for: points, &g)
    var c = FuzzCase(points: points, steps: steps, ks: ks.sorted(), parameters: parameters)
    var p = g.fork(FuzzProperties.stream)
    if let drawn = FuzzProperties.draw(pointCount: points.count, stepCount: steps.count, &p) {
      c.properties = drawn.properties
      c.filter = drawn.filter
      c.aggregates = drawn.aggregates
      for s in c.steps.indices { c.steps[s].filter = drawn.steps[s] }
    }
    return c
  }

  /// The size of a case: 0 to ``maximumPoints``, small ones most often.
  static func size(_ g: inout SplitMix64) -> Int {
    switch g.nextInt(below: 100) {
    case 0..<4: return 0
    case 4..<30: return 1 + g.nextInt(below: 8)
    case 30..<60: return 9 + g.nextInt(below: 56)
    case 60..<88: return 65 + g.nextInt(below: 448)
    default: return 513 + g.nextInt(below: maximumPoints - 512)
    }
  }

  static func drawPoints(_ g: inout SplitMix64) -> [Point] {
    let n = size(&g)
    let region = drawRegion(&g)
    let hostileShare = HostileSpots.pick([0, 0.1, 0.3, 0.7, 1.0], &g)!
    let plain = max(n > 0 ? 1 : 0, Int(Double(n) * (1 - hostileShare)))
    var points = (0..<plain).map { _ in
      Point(x: g.nextDouble(in: region.minX, region.maxX), y: g.nextDouble(in: region.minY, region.maxY))
    }
    let survey = DataSurvey(points: points, seed: g.next())
    while points.count < n {
      if g.nextInt(below: 8) == 0 {  // a run of duplicates
        let spot = HostileSpots.pick(points, &g).flatMap { g.nextInt(below: 2) == 0 ? $0 : nil }
          ?? HostileSpots.anySpot(from: survey, &g)
        let most = HostileSpots.pick([2, 10, 100, maximumPoints], &g)!
        let copies = 1 + g.nextInt(below: min(most, n - points.count))
        points += repeatElement(spot, count: copies)
      } else {
        points.append(HostileSpots.anySpot(from: survey, &g))
      }
    }
    if g.nextInt(below: 3) == 0 {  // few decimals: ties and points on edges
      let scale = HostileSpots.pick([1.0, 10, 100, 1000, 1e7], &g)!
      points = points.map {
        Point(x: min(180, max(-180, ($0.x * scale).rounded() / scale)),
              y: min(90, max(-90, ($0.y * scale).rounded() / scale)))
      }
    }
    if g.nextInt(below: 2) == 0 {  // Fisher–Yates: duplicates spread through the file
      for i in stride(from: points.count - 1, to: 0, by: -1) { points.swapAt(i, g.nextInt(below: i + 1)) }
    }
    return points
  }

  /// Where the plain points lie.
  static func drawRegion(_ g: inout SplitMix64) -> Rect {
    switch g.nextInt(below: 5) {
    case 0: return .world
    case 1:  // a town or a block, anywhere (clipped to the globe)
      let c = HostileSpots.anywhere(&g), half = HostileSpots.pick([1e-5, 1e-3, 0.05, 1], &g)!
      return Rect(minX: max(-180, c.x - half), minY: max(-90, c.y - half),
                  maxX: min(180, c.x + half), maxY: min(90, c.y + half))
    case 2:  // along the antimeridian, on its east or west side
      let east = g.nextInt(below: 2) == 0, width = HostileSpots.pick([1e-6, 0.01, 1], &g)!
      return Rect(minX: east ? -180 : 180 - width, minY: -80, maxX: east ? -180 + width : 180, maxY: 80)
    case 3:  // a polar cap, on the map's edge and beyond it
      let north = g.nextInt(below: 2) == 0
      return Rect(minX: -180, minY: north ? 84 : -90, maxX: 180, maxY: north ? 90 : -84)
    default:  // a meridian: ±180 or a random one
      let x = HostileSpots.pick([-180, 180, g.nextDouble(in: -180, 180)], &g)!
      return Rect(minX: x, minY: -90, maxX: x, maxY: 90)
    }
  }

  static func drawStep(
    points: [Point], survey: DataSurvey, moved: inout [Int32: Point], _ g: inout SplitMix64
  ) -> FuzzCase.Step {
    let box = HostileBoxes.anyBox(from: survey, maximumCells: maximumCells, &g)
    let tap = HostileSpots.anySpot(from: survey, &g)
    let tapZoom = g.nextInt(below: 5) == 0 ? g.nextInt(below: 31) : g.nextInt(below: 20)
    let position = HostileSpots.anySpot(from: survey, &g)
    let reach: Double
    switch g.nextInt(below: 20) {
    case 0: reach = 0
    case 1..<5: reach = GreatCircle.distance(position, HostileSpots.spot(.onPoint, from: survey, &g))
    case 5..<8:  // 1 m to 10,000 km
      reach = g.nextDouble(in: 1, 10) * HostileSpots.pick([1, 10, 100, 1e3, 1e4, 1e5, 1e6], &g)!
    default: reach = .infinity
    }
    let count = g.nextInt(below: 5) < 2 ? 0 : g.nextInt(below: min(8, points.count) + 1)
    let moves = HostileMoves.frame(count: count, points: points, moved: &moved, survey: survey, distinct: false, &g)
    return FuzzCase.Step(box: box, tap: tap, tapZoom: tapZoom, position: position, reach: reach, moves: moves)
  }
}
