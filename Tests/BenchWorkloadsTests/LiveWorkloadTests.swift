import BenchFormats
import BenchHarness
import MapClustering
import SpatialIndexes
import Testing
import _SpatialTestSupport

@testable import BenchWorkloads

/// The live workload: how the fleet moves, and how each strategy runs.
@Suite struct LiveWorkloadTests {
  /// Points at the edges the motion must keep on the map: the antimeridian,
  /// the Web Mercator limit, the poles (off the map from the start).
  static let points = Fixtures.clustered(2000, blobs: 4, seed: 51)
    + [Point(x: 180, y: 0), Point(x: -180, y: 0), Point(x: 179.9999, y: 85.05), Point(x: 0, y: -85.05),
       Point(x: 10, y: 90), Point(x: -10, y: -90)]

  static func frames(_ count: Int, share: Double, seed: UInt64) -> [[PointMove]] {
    var motion = FleetMotion(count: points.count, settings: LiveSettings(share: share, seed: seed))
    var positions = points, moves: [PointMove] = [], all: [[PointMove]] = []
    for _ in 0..<count {
      motion.nextFrame(positions: positions, into: &moves)
      for m in moves { positions[Int(m.id)] = m.to }
      all.append(moves)
    }
    return all
  }

  @Test func theSameSeedMovesTheSamePointsToTheSameBits() {
    let a = Self.frames(30, share: 0.05, seed: 1), b = Self.frames(30, share: 0.05, seed: 1)
    #expect(a == b)
    #expect(a != Self.frames(30, share: 0.05, seed: 2))
  }

  @Test func aFrameMovesAboutTheShareInIdOrder() {
    for frame in Self.frames(20, share: 0.05, seed: 3) {
      let drawn = LiveSettings(share: 0.05).movers(count: Self.points.count)
      // drawn with replacement: a few repeats fall out
      #expect(frame.count <= drawn && frame.count >= drawn * 9 / 10, "\(frame.count) of \(drawn)")
      #expect(zip(frame, frame.dropFirst()).allSatisfy { $0.id < $1.id })
    }
    #expect(Self.frames(3, share: 0, seed: 3).allSatisfy { $0.isEmpty })
  }

  /// Nearly every point reports every frame for a long while: no position
  /// leaves the map, and none is farther from the last report than 30 m/s
  /// allows over the seconds since.
  @Test func theFleetStaysOnTheMapAtPlausibleSpeeds() {
    var motion = FleetMotion(count: Self.points.count, settings: LiveSettings(share: 1, framesPerSecond: 1, seed: 4))
    var positions = Self.points, moves: [PointMove] = []
    var lastReport = [Int](repeating: 0, count: Self.points.count)
    var farthest = 0.0, tooFar = 0, offMap = 0
    for frame in 1...400 {
      motion.nextFrame(positions: positions, into: &moves)
      for m in moves {
        let i = Int(m.id), d = GreatCircle.distance(positions[i], m.to)
        let allowed = 30 * Double(frame - lastReport[i]) * 1.0001
        farthest = max(farthest, d)
        // a point that starts off the map bounces back onto it at once
        if d > allowed && abs(positions[i].y) <= WebMercator.maxLatitude { tooFar += 1 }
        if abs(m.to.y) > WebMercator.maxLatitude || abs(m.to.x) > 180 { offMap += 1 }
        positions[i] = m.to
        lastReport[i] = frame
      }
    }
    #expect(tooFar == 0 && offMap == 0)
    #expect(farthest > 20, "vehicles do move: \(farthest) m")
    // drawn with replacement, about 1 − 1/e of the points report a frame
    #expect(moves.count > Self.points.count / 2)
  }

  @Test func moveRunsOnEveryDynamicIndexAndNoStaticOne() throws {
    struct Count: WorkloadVisitor {
      var variants: [String] = []
      mutating func visit<W: Workload, R: StepRunner>(_ workload: W.Type, variant: String, _ runner: inout R) throws
      where R.Answer == W.Answer { variants.append(variant) }
    }
    struct Visit: IndexTypeOperation {
      func run<I: DescribedIndex>(_ type: I.Type) throws -> [String] {
        let index = try I(points: LiveWorkloadTests.points)
        let steps = MapSteps(session: ViewportSession(points: LiveWorkloadTests.points, parameters: SessionParameters(steps: 3, seed: 1)))
        var count = Count()
        try LiveWorkload.visitRunners(
          on: index, WorkloadData(points: LiveWorkloadTests.points, steps: steps), variants: LiveWorkload.variants, &count)
        return count.variants
      }
    }
    for type in allIndexTypes {
      var visit = Visit()
      let ran = try #require(try withIndexType(named: type.name, &visit))
      let dynamic = type is any DynamicSpatialIndex.Type
      #expect(ran == (dynamic ? LiveWorkload.variants : ["buffered", "rebuild"]), "\(type.name)")
      #expect(LiveWorkload.runs("move", on: type) == dynamic)
    }
  }

  /// Many frames with a fifth of the points moving each: every strategy of
  /// every index gives the linear scan's ids and markers after every frame,
  /// the buffered ones through several background rebuilds.
  @Test func everyStrategyAgreesWithTheLinearScanFrameAfterFrame() throws {
    var steps = MapSteps(session: ViewportSession(points: Self.points, parameters: SessionParameters(steps: 60, seed: 5)))
    steps.live = LiveSettings(share: 0.2, framesPerSecond: 1, seed: 6)
    let dataset = LoadedDataset(name: "edges", points: Self.points, ids: Self.points.indices.map { UInt64($0) })
    let results = try Verification.run(
      dataset: dataset, steps: steps, indexes: allIndexTypes.map { $0.name }, sweeps: [],
      workloads: [WorkloadChoice(LiveWorkload.self)])
    #expect(results.count >= 2 * (allIndexTypes.count - 1))
    for r in results { #expect(r.agrees && r.steps == 60, "\(r)") }
  }

  /// A quadtree held to a box smaller than the map would refuse the moves
  /// that leave it, and every frame would show those points where they no
  /// longer are: the live workload refuses it before any frame, whatever
  /// the strategy. A box that holds the map moves like the linear scan.
  @Test func aQuadtreeBoxSmallerThanTheMapIsRefused() throws {
    let points = Fixtures.clustered(2000, blobs: 4, seed: 51)
    var steps = MapSteps(session: ViewportSession(points: points, parameters: SessionParameters(steps: 30, seed: 5)))
    steps.live = LiveSettings(share: 0.5, framesPerSecond: 1, seed: 6)
    let dataset = LoadedDataset(name: "blobs", points: points, ids: points.indices.map { UInt64($0) })
    func verify(_ bounds: String) throws -> [Verification.Result] {
      try Verification.run(
        dataset: dataset, steps: steps, indexes: ["quadtree"],
        sweeps: [ParameterSweep(key: "bounds", values: [bounds])], workloads: [WorkloadChoice(LiveWorkload.self)])
    }
    // the points' own box: every point starts inside it
    let box = try #require(Rect(bounding: points))
    #expect {
      _ = try verify("\(box.minX):\(box.minY):\(box.maxX):\(box.maxY)")
    } throws: { error in
      guard case .invalidParameter(name: "bounds", value: _, reason: _) = error as? IndexError else { return false }
      return true
    }
    let results = try verify("-200:-90:200:90")
    #expect(results.count == LiveWorkload.variants.count)
    for r in results { #expect(r.agrees && r.steps == 30, "\(r)") }
  }

  /// A grid of a fixed cell size too small to span the globe (more than
  /// 2^31 columns) builds over points close together, but the `rebuild`
  /// strategy builds it again once a point moves far: that build throws,
  /// and the frame showed the point where it no longer was (found by
  /// `bench fuzz`: a point moved from (0, 0) to (-180, 0) stayed in view at
  /// (0, 0)). The live workload refuses such a grid before any frame; one
  /// that spans the globe moves like the linear scan.
  @Test func aGridThatCannotSpanTheGlobeIsRefused() throws {
    let points = [Point(x: 0, y: 0), Point(x: 0.001, y: 0.001)]
    let box = GeoQuery(minLat: -1, minLon: -1, maxLat: 1, maxLon: 1, zoom: 4)
    var steps = MapSteps(
      source: "test", boxes: [box], taps: [Tap(at: Point(x: 0, y: 0), zoom: 4)], positions: [Point(x: 0, y: 0)],
      moves: [[PointMove(id: 0, to: Point(x: -180, y: 0))]])
    steps.live = LiveSettings(share: 0, framesPerSecond: 1, seed: 6)
    let dataset = LoadedDataset(name: "two", points: points, ids: [0, 1])
    func verify(_ cellSize: String, _ storage: String = "auto") throws -> [Verification.Result] {
      try Verification.run(
        dataset: dataset, steps: steps, indexes: ["grid"],
        sweeps: [ParameterSweep(key: "cellSize", values: [cellSize]), ParameterSweep(key: "storage", values: [storage])],
        workloads: [WorkloadChoice(LiveWorkload.self)])
    }
    for (cellSize, storage) in [("1e-7", "auto"), ("0.0001", "dense")] {
      #expect {
        _ = try verify(cellSize, storage)
      } throws: { error in
        guard case .invalidParameter(name: "cellSize", value: _, reason: _) = error as? IndexError else { return false }
        return true
      }
    }
    let results = try verify("0.0001")  // sparse storage spans the globe
    #expect(results.count == LiveWorkload.variants.count)
    for r in results { #expect(r.agrees && r.steps == 1, "\(r)") }
  }
}
