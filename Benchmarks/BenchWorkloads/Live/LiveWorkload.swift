import BenchFormats
import BenchHarness
import MapClustering
import SpatialIndexes

/// A fleet map: each frame a share of the points moves (``FleetMotion``),
/// the index follows, and the frame's viewport is queried and clustered
/// (`aggregate`: whole cells from the clusterer's totals where the index
/// forms no groups, see `_CellPyramid`). Every call of a step is one more frame: the session's
/// viewports come round again while the fleet keeps moving, so a timed
/// pass is frames `p·steps ..< (p+1)·steps`; answers are those of the
/// first `steps` frames from the dataset's positions.
///
/// Strategies, how the index follows the points:
/// - `move`: ``DynamicSpatialIndex/move(id:from:to:)`` on a dynamic index
///   (linear, quadtree, grid); not run on a static one.
/// - `buffered`: any index as the base of a ``BufferedIndex`` (moved points
///   in buffers, rebuilt in the background). Its frames run in real time,
///   one every 1/fps seconds, so the background build has the time a map
///   would give it (the wait is not timed; its runs take steps/fps seconds
///   a pass).
/// - `rebuild`: the index built anew every frame, for the break-even.
///
/// Rows: `live` is the whole frame; `live.update` (the moves applied to
/// the index and the clusterer) and `live.query` (the viewport and its
/// clustering) split it, sample by sample.
///
/// Answers: the frame's markers, as the cluster workload writes them
/// (`query,cell_x,cell_y,count,lat,lon,id`); `bench verify` also compares
/// the ids in view.
public enum LiveWorkload: Workload {
  public typealias Answer = LiveFrame

  public static let name = "live"
  /// Half a frame: a live frame moves points and then clusters them.
  public static let frameShare: Double? = 0.5
  /// Static data have no moves to weigh.
  public static let countsOnlyWhenLive = true
  public static let summary =
    "points move each frame (1% by default), then the viewport and its clusters; strategies move, buffered, rebuild"
  public static let need = StepNeed.zoom
  public static let variants = ["move", "buffered", "rebuild"]
  public static let answerColumns = ClusterWorkload.answerColumns
  /// The parts of a frame timed on their own, each a row `live.NAME`.
  public static let phases = ["update", "query"]

  package static func runs(_ variant: String, on type: any DescribedIndex.Type) -> Bool {
    variant != "move" || type is any DynamicSpatialIndex.Type
  }

  package static func visitRunners<I: DescribedIndex, V: WorkloadVisitor>(
    on index: I, _ data: WorkloadData, variants: [String], _ visitor: inout V
  ) throws {
    try requireRoomToMove(index)
    for variant in variants where runs(variant, on: I.self) {
      switch variant {
      case "move":
        var visit = VisitMove(data: data, visitor: visitor, builtBytes: index.memoryBytes)
        try withMovableIndex(index, points: data.points, &visit)
        visitor = visit.visitor
      case "buffered":
        let buffered = try BufferedIndex<I>(
          points: data.points,
          parameters: BufferedParameters(base: index.parameters, rebuildShare: data.steps.live.rebuildShare))
        var runner = Runner(
          clusterer: try Clusterer(index: buffered, points: data.points), data, realTime: true,
          builtBytes: index.memoryBytes
        ) {
          clusterer, moves throws(IndexError) in
          try clusterer.move(moves)
        }
        try visitor.visit(Self.self, variant: variant, &runner)
      case "rebuild":
        let parameters = index.parameters
        var runner = Runner(
          clusterer: try Clusterer(index: index, points: data.points), data, realTime: false,
          builtBytes: index.memoryBytes
        ) {
          clusterer, moves throws(IndexError) in
          try clusterer.move(moves, rebuildingWith: parameters)
        }
        try visitor.visit(Self.self, variant: variant, &runner)
      default: continue
      }
    }
  }

  /// Refuses, before any frame, a quadtree held to a fixed box that does
  /// not cover the globe: moving points go anywhere (a fleet on the map, a
  /// scripted move past it), the quadtree refuses a point outside its box,
  /// and a frame would then show a point where it no longer is (every
  /// strategy: `move` moves it, `buffered` and `rebuild` build again with
  /// the same box).
  ///
  /// Likewise a grid of a fixed cell size that cannot span the globe (more
  /// than 2^31 columns, or more cells than its dense storage takes): built
  /// over points close together, it is built again over points that moved
  /// apart, and that build throws (the `rebuild` strategy then showed the
  /// frame's points where they were before).
  static func requireRoomToMove<I: DescribedIndex>(_ index: I) throws(IndexError) {
    if let grid = index as? GridHashIndex, let size = grid.parameters.cellSize {
      let corners = [Point(x: -180, y: -90), Point(x: 180, y: 90)]
      do {
        _ = try GridHashIndex(points: corners, parameters: grid.parameters)
      } catch {
        throw .invalidParameter(
          name: "cellSize", value: "\(size)",
          reason: "must let the grid span the globe for the live workload, whose points move anywhere (\(error))")
      }
    }
    guard let quadtree = index as? BucketQuadtree, case .fixed(let box) = quadtree.parameters.bounds,
          !box.contains(.world)
    else { return }
    throw .invalidParameter(
      name: "bounds", value: quadtree.parameters.bounds.description,
      reason: "must hold the whole globe for the live workload, whose points move anywhere (world, or data)")
  }

  /// The `move` runner of a dynamic index.
  struct VisitMove<V: WorkloadVisitor>: DynamicIndexOperation {
    let data: WorkloadData
    var visitor: V
    let builtBytes: Int

    mutating func run<D: DynamicSpatialIndex & DescribedIndex>(_ index: D) throws {
      var runner = Runner(
        clusterer: try Clusterer(index: index, points: data.points), data, realTime: false,
        builtBytes: builtBytes
      ) {
        clusterer, moves throws(IndexError) in
        try clusterer.move(moves)
      }
      try visitor.visit(LiveWorkload.self, variant: "move", &runner)
    }
  }

  public static func writeAnswer(
    _ answer: Answer, query: Int, ids: ExternalIDs, to csv: inout CSVWriter
  ) {
    ClusterWorkload.writeAnswer(ClusterAnswer(markers: answer.markers), query: query, ids: ids, to: &csv)
  }

  public static func difference(expected: Answer, got: Answer) -> String {
    if expected.ids != got.ids { return idDifference(expected: expected.ids, got: got.ids) }
    return ClusterWorkload.difference(
      expected: ClusterAnswer(markers: expected.markers), got: ClusterAnswer(markers: got.markers))
  }

  struct Runner<X: DescribedIndex>: StepRunner {
    var clusterer: Clusterer<X>
    let update: (inout Clusterer<X>, [PointMove]) throws(IndexError) -> Void
    var motion: FleetMotion
    /// The steps' scripted moves, frame by frame, used instead of the fleet's.
    let scripted: [[PointMove]]?
    /// Frames run so far: the next one's index in ``scripted``.
    var framesRun = 0
    let areas: [VisibleArea]
    let rects: [[Rect]]
    /// Frames run one every 1/fps seconds (the wait untimed).
    let realTime: Bool
    /// The bytes of the index as built, which the row's index column shows.
    let builtBytes: Int
    var nextFrameAt: UInt64 = 0
    var moves: [PointMove] = []
    /// Whether `moves` holds the next frame's moves, worked out untimed.
    var prepared = false
    var ids: [Int32] = []
    var markers: [ClusterMarker] = []
    var updateNanos: [Double] = []
    var queryNanos: [Double] = []

    init(
      clusterer: Clusterer<X>, _ data: WorkloadData, realTime: Bool, builtBytes: Int,
      update: @escaping (inout Clusterer<X>, [PointMove]) throws(IndexError) -> Void
    ) {
      self.clusterer = clusterer
      self.update = update
      motion = FleetMotion(count: data.steps.moves == nil ? data.points.count : 0, settings: data.steps.live)
      scripted = data.steps.moves.flatMap { $0.isEmpty ? nil : $0 }
      areas = data.steps.areas ?? []
      rects = data.steps.rects ?? []
      self.realTime = realTime
      self.builtBytes = builtBytes
    }

    var stepCount: Int { min(areas.count, rects.count) }

    mutating func prepareSample(_ step: Int) {
      if !prepared {
        nextFrame()
        prepared = true
      }
      guard realTime else { return }
      let now = Stopwatch.now()
      if nextFrameAt > now { Stopwatch.sleep(nanoseconds: nextFrameAt - now) }
      nextFrameAt = max(now, nextFrameAt) &+ UInt64(1e9 / motion.settings.framesPerSecond)
    }

    mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepOutcome {
      let t0 = Stopwatch.now()
      if !prepared { nextFrame() }
      prepared = false
      // The fleet keeps the points finite and on the map, and every
      // index's bounds hold the map (``requireRoomToMove(_:)``). Scripted
      // moves (the adversarial session, the fuzzer) may leave the map: were
      // one refused, the answers would differ from the linear scan's, which
      // `verify` and `fuzz` report.
      try? update(&clusterer, moves)
      let t1 = Stopwatch.now()
      ids.removeAll(keepingCapacity: true)
      for rect in rects[step] { clusterer.index.query(in: rect, into: &ids, counters: &counters) }
      clusterer.cluster(areas[step], strategy: .aggregate, into: &markers, counters: &counters)
      let t2 = Stopwatch.now()
      updateNanos.append(Double(t1 &- t0))
      queryNanos.append(Double(t2 &- t1))
      var digest: UInt64 = 0
      for id in ids { digest &+= mix64(UInt64(UInt32(bitPattern: id))) }
      for m in markers { digest = digest &* 0x100_0000_01B3 &+ ClusterWorkload.Runner<X>.hash(m) }
      return StepOutcome(digest: digest, count: ids.count)
    }

    /// The next frame's moves into `moves`: the script's, or the fleet's.
    mutating func nextFrame() {
      defer { framesRun += 1 }
      guard let scripted else {
        motion.nextFrame(positions: clusterer.points, into: &moves)
        return
      }
      moves.removeAll(keepingCapacity: true)
      moves.append(contentsOf: scripted[framesRun % scripted.count])
    }

    mutating func answer(step: Int) -> LiveFrame {
      _ = runStep(step)
      return LiveFrame(ids: ids.sorted(), markers: markers)
    }

    var indexParameters: [ParameterValue]? { clusterer.index.parameterValues }

    /// Beyond the index as built: the clusterer's records and totals, and
    /// what the index grew by as points moved (buffers and a second base,
    /// the grid's slot of each id).
    var workloadBytes: Int? {
      clusterer.memoryBytes(for: .aggregate) + max(0, clusterer.index.memoryBytes - builtBytes)
    }

    var phases: [StepPhase] {
      [StepPhase(name: "update", nanos: updateNanos), StepPhase(name: "query", nanos: queryNanos)]
    }
  }
}

/// One frame's answer: the ids in view, ascending, and the markers.
public struct LiveFrame: Equatable, Sendable {
  public var ids: [Int32]
  public var markers: [ClusterMarker]
}

/// A generic operation on a dynamic index, run by ``withDynamicIndex(_:_:)``
/// with its concrete type.
protocol DynamicIndexOperation {
  mutating func run<D: DynamicSpatialIndex & DescribedIndex>(_ index: D) throws
}

/// Runs `operation` on `index` as its concrete dynamic type, so the moves
/// and queries specialise (opened from `any DynamicSpatialIndex`, they
/// would run generic code); does nothing for a static index. A test checks
/// that every dynamic index of the catalogue is here.
///
/// A quadtree whose root is the data's box (the default) is built again
/// over the world first: moving points leave that box, and the quadtree
/// refuses a point outside its root. Its report row shows `bounds=world`
/// (``StepRunner/indexParameters``).
func withMovableIndex<I: DescribedIndex, O: DynamicIndexOperation>(
  _ index: I, points: [Point], _ operation: inout O
) throws {
  if let d = index as? LinearScanIndex { return try operation.run(d) }
  if var d = index as? BucketQuadtree {
    if d.parameters.bounds == .data {
      var p = d.parameters
      p.bounds = .world
      d = try BucketQuadtree(points: points, parameters: p)
    }
    return try operation.run(d)
  }
  if let d = index as? GridHashIndex { return try operation.run(d) }
}
