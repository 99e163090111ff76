import _SeededRandom
import SpatialIndexes
import Testing
import _SpatialTestSupport
@testable import MapClustering

/// A clusterer whose points move gives, after the moves, the markers of a
/// clusterer built afresh over the new positions: every strategy, every
/// index, whether the index moves points itself or is rebuilt.
@Suite struct ClustererMoveTests {
  static let points = Fixtures.clustered(3000, blobs: 6, seed: 41)
    + Fixtures.identical(50) + [Point(x: 180, y: 10), Point(x: -180, y: 10), Point(x: 179.9, y: 85)]

  /// Views over the world, an antimeridian view, and zoomed views on the data.
  static let views: [VisibleArea] = [
    Viewport(center: Point(x: 0, y: 0), zoom: 0, width: 1024, height: 1024).visibleArea,
    Viewport(center: Point(x: 180, y: 10), zoom: 4, width: 390, height: 844).visibleArea,
    Viewport(center: Point(x: 2.35, y: 48.86), zoom: 9, width: 390, height: 844).visibleArea,
  ] + points.prefix(3).map { Viewport(center: $0, zoom: 6, width: 390, height: 844).visibleArea }

  /// Seeded moves: most a few hundred metres, some across the world, some
  /// onto another point, one id moved twice.
  static func moves(seed: UInt64) -> [PointMove] {
    var g = SplitMix64(seed: seed)
    var moves: [PointMove] = []
    for _ in 0..<400 {
      let id = Int32(g.nextInt(below: points.count))
      let p = points[Int(id)]
      let to = switch g.nextInt(below: 4) {
      case 0: Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -85, 85))
      case 1: points[g.nextInt(below: points.count)]
      default: Point(x: min(180, max(-180, p.x + g.nextDouble(in: -0.01, 0.01))), y: p.y + g.nextDouble(in: -0.01, 0.01))
      }
      moves.append(PointMove(id: id, to: to))
    }
    moves.append(PointMove(id: moves[0].id, to: Point(x: 1, y: 1)))
    return moves
  }

  static func moved(_ moves: [PointMove]) -> [Point] {
    var p = points
    for m in moves { p[Int(m.id)] = m.to }
    return p
  }

  func expectSameMarkers<I: DescribedIndex, J: DescribedIndex>(
    _ a: inout Clusterer<I>, _ b: inout Clusterer<J>, _ what: String
  ) {
    for (v, view) in Self.views.enumerated() {
      for strategy in ClusterStrategy.allCases {
        #expect(a.markers(for: view, strategy: strategy) == b.markers(for: view, strategy: strategy),
                "\(what), view \(v), \(strategy)")
      }
    }
  }

  @Test func aDynamicIndexMovesItsPointsAndTheRecordsFollow() throws {
    let world = BucketQuadtree.Parameters(bounds: .world)
    try check(LinearScanIndex.self, .init())
    try check(BucketQuadtree.self, world)
    try check(GridHashIndex.self, .init())
    try check(BufferedIndex<KDTreeIndex>.self, BufferedParameters(base: .init(), rebuildShare: 0.02))

    func check<I: DynamicSpatialIndex & DescribedIndex>(_ type: I.Type, _ parameters: I.Parameters) throws {
      var clusterer = try Clusterer<I>(points: Self.points, parameters: parameters)
      let before = clusterer
      // every strategy once first: its tables and prefix sums exist before the moves
      for strategy in ClusterStrategy.allCases { _ = clusterer.markers(for: Self.views[0], strategy: strategy) }
      let moves = Self.moves(seed: 1)
      for m in moves { #expect(try clusterer.move(id: m.id, to: m.to), "\(I.name) move \(m.id)") }
      var fresh = try Clusterer<LinearScanIndex>(points: Self.moved(moves))
      expectSameMarkers(&clusterer, &fresh, "\(I.name) after moves")
      // the copy taken before the moves still clusters the old positions
      var old = before, original = try Clusterer<LinearScanIndex>(points: Self.points)
      expectSameMarkers(&old, &original, "\(I.name) copy from before")
    }
  }

  /// A frame's batch: every other id once, in increasing order, long enough
  /// that the index moves on one thread while the records are worked out on
  /// another (on a machine with two cores or more), and one id no point
  /// has, last.
  static func frame(seed: UInt64) -> [PointMove] {
    var g = SplitMix64(seed: seed)
    let ids = stride(from: 0, to: points.count, by: 2).map { Int32($0) } + [Int32(points.count + 5)]
    return ids.map { id in
      let p = points[Int(min(id, Int32(points.count - 1)))]
      let to = g.nextInt(below: 10) == 0
        ? Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -85, 85))
        : Point(x: min(180, max(-180, p.x + g.nextDouble(in: -0.01, 0.01))), y: p.y + g.nextDouble(in: -0.01, 0.01))
      return PointMove(id: id, to: to)
    }
  }

  /// The batch leaves the clusterer as the same moves one by one do: the
  /// same points, per-point records and markers, the unknown id skipped.
  @Test func aBatchMovesAsOneByOneDoes() throws {
    try check(LinearScanIndex.self, .init())
    try check(BucketQuadtree.self, BucketQuadtree.Parameters(bounds: .world))
    try check(GridHashIndex.self, .init())

    func check<I: DynamicSpatialIndex & DescribedIndex>(_ type: I.Type, _ parameters: I.Parameters) throws {
      let moves = Self.frame(seed: 7)
      #expect(moves.count >= Clusterer<I>._sideBySideMoves)
      var batch = try Clusterer<I>(points: Self.points, parameters: parameters)
      var single = batch
      for strategy in ClusterStrategy.allCases { _ = batch.markers(for: Self.views[0], strategy: strategy) }
      for strategy in ClusterStrategy.allCases { _ = single.markers(for: Self.views[0], strategy: strategy) }
      #expect(try batch.move(moves) == moves.count - 1, "\(I.name)")
      for m in moves { _ = try single.move(id: m.id, to: m.to) }
      #expect(batch.points == single.points, "\(I.name)")
      let a = batch._tableStorage!, b = single._tableStorage!
      #expect((0..<a.count).allSatisfy { a.records[$0] == b.records[$0] }, "\(I.name) records")
      expectSameMarkers(&batch, &single, "\(I.name) batch against one by one")
    }
  }

  /// A move the index refuses stops the batch where one by one would stop:
  /// the moves before it done, in the index and in the records, none after.
  @Test func aRefusedMoveStopsTheBatchThere() throws {
    let bounds = Rect(minX: -180, minY: -86, maxX: 180, maxY: 86)
    var moves = Self.frame(seed: 8)
    moves[700].to = Point(x: 0, y: 89)  // outside the quadtree's fixed bounds
    var batch = try Clusterer<BucketQuadtree>(points: Self.points, parameters: .init(bounds: .fixed(bounds)))
    _ = batch.markers(for: Self.views[0], strategy: .aggregate)
    #expect(throws: IndexError.self) { try batch.move(moves) }
    var expected = try Clusterer<LinearScanIndex>(points: Self.moved(Array(moves.prefix(700))))
    #expect(batch.points == expected.points)
    expectSameMarkers(&batch, &expected, "after the refused move")
  }

  @Test func aStaticIndexIsRebuiltOverTheNewPositions() throws {
    try check(KDTreeIndex.self)
    try check(HilbertRTree.self)
    try check(CellTree.self)

    func check<I: DescribedIndex>(_ type: I.Type) throws {
      var clusterer = try Clusterer<I>(points: Self.points)
      for strategy in ClusterStrategy.allCases { _ = clusterer.markers(for: Self.views[0], strategy: strategy) }
      let moves = Self.moves(seed: 2)
      try clusterer.move(moves, rebuildingWith: I.Parameters())
      #expect(clusterer.points == Self.moved(moves))
      var fresh = try Clusterer<LinearScanIndex>(points: Self.moved(moves))
      expectSameMarkers(&clusterer, &fresh, "\(I.name) rebuilt")
    }
  }

  @Test func aRefusedMoveChangesNothing() throws {
    var clusterer = try Clusterer<GridHashIndex>(points: Self.points)
    let markers = clusterer.markers(for: Self.views[0])
    #expect(throws: IndexError.self) { try clusterer.move(id: 3, to: Point(x: .nan, y: 1)) }
    #expect(try !clusterer.move(id: -1, to: Point(x: 1, y: 1)))
    #expect(try !clusterer.move(id: Int32(Self.points.count), to: Point(x: 1, y: 1)))
    #expect(clusterer.points == Self.points && clusterer.markers(for: Self.views[0]) == markers)

    var kd = try Clusterer<KDTreeIndex>(points: Self.points)
    let kdMarkers = kd.markers(for: Self.views[0], strategy: .aggregate)
    for bad in [[PointMove(id: 1, to: Point(x: 2, y: 2)), PointMove(id: 2, to: Point(x: 1, y: .infinity))],
                [PointMove(id: Int32(Self.points.count), to: Point(x: 1, y: 1))]] {
      #expect(throws: IndexError.self) { try kd.move(bad, rebuildingWith: .init()) }
    }
    #expect(kd.points == Self.points && kd.markers(for: Self.views[0], strategy: .aggregate) == kdMarkers)
  }
}
