import BenchFormats
import MapClustering
import SpatialIndexes
import Testing

@testable import BenchWorkloads

/// Steps made up rather than walked (`MapSteps(source:boxes:…)`): each
/// workload reads its part, a search stops at its reach, k = 0 finds no
/// one, and the live workload takes the scripted moves frame by frame.
@Suite struct ScriptedStepsTests {
  static let points = [Point(x: 179.9, y: 0), Point(x: 10, y: 10), Point(x: 10.001, y: 10)]

  static func steps(reaches: [Double]? = nil, moves: [[PointMove]]? = nil) -> MapSteps {
    let box = GeoQuery(minLat: -1, minLon: 170, maxLat: 1, maxLon: -170, zoom: 4)
    return MapSteps(
      source: "test", boxes: [box, box], taps: [Tap(at: Point(x: 10, y: 10), zoom: 8), Tap(at: Point(x: 0, y: 0), zoom: 8)],
      positions: [Point(x: 10, y: 10), Point(x: 10, y: 10)], reaches: reaches, moves: moves)
  }

  /// Every step's answers of `variant` of workload `name` over `steps`, on
  /// `index` (the k-d tree by default).
  func answers<A, I: DescribedIndex>(
    _ name: String, _ variant: String, _ steps: MapSteps, as: A.Type, on index: I? = nil as KDTreeIndex?
  ) throws -> [A] {
    let index = try index ?? I(points: Self.points)
    var bind = BindWorkload(
      index: index, data: WorkloadData(points: Self.points, steps: steps), variants: [variant], visitor: Record())
    _ = try withWorkloadType(named: name, &bind)
    return try bind.visitor.answers.map { try #require($0 as? A) }
  }

  @Test func eachWorkloadReadsItsPart() throws {
    let s = Self.steps()
    #expect(s.count == 2 && s.rects?[0].count == 2 && s.areas?[0].zoom == 4)
    #expect(try answers("viewport", "", s, as: [Int32].self) == [[0], [0]])
    #expect(try answers("tap", "range", s, as: Int32?.self) == [1, nil])
    #expect(try answers("nearest", "k=2", s, as: [Neighbor].self).map { $0.map(\.id) } == [[1, 2], [1, 2]])
  }

  @Test func aSearchStopsAtItsReachAndKZeroFindsNone() throws {
    let far = GreatCircle.distance(Point(x: 10, y: 10), Point(x: 10.001, y: 10))
    let s = Self.steps(reaches: [far, far.nextDown])
    #expect(try answers("nearest", "k=3", s, as: [Neighbor].self).map { $0.map(\.id) } == [[1, 2], [1]])
    #expect(try answers("nearest", "k=0", Self.steps(), as: [Neighbor].self) == [[], []])
    #expect(NearestWorkload.k(of: "k=0") == 0 && NearestWorkload.k(of: "k=-1") == nil)
  }

  /// Frame 0 moves point 0 across the antimeridian, frame 1 out of the box.
  @Test func theLiveWorkloadTakesTheScriptedMoves() throws {
    let s = Self.steps(moves: [[PointMove(id: 0, to: Point(x: -179.9, y: 0.5))], [PointMove(id: 0, to: Point(x: 0, y: 0))]])
    let grid = try GridHashIndex(points: Self.points)  // dynamic: every strategy runs
    for variant in LiveWorkload.variants {
      let frames = try answers("live", variant, s, as: LiveFrame.self, on: grid)
      #expect(frames.map(\.ids) == [[0], []], "\(variant)")
      #expect(frames[0].markers.first?.longitudeE7 == -1_799_000_000, "\(variant)")
    }
  }

  /// Every step's answer of the one runner it is handed.
  struct Record: WorkloadVisitor {
    var answers: [Any] = []
    mutating func visit<W: Workload, R: StepRunner>(_ w: W.Type, variant: String, _ runner: inout R) throws
    where R.Answer == W.Answer {
      answers = (0..<runner.stepCount).map { runner.answer(step: $0) }
    }
  }
}
