import SpatialIndexes
import Testing
import _SpatialTestSupport

/// The quadtree's structure: invariants, the depth cap, bounds, parameters,
/// split lines and deterministic work counts. (Answers are checked against
/// the linear scan by ``ConformanceTests`` and again here after updates.)
@Suite struct BucketQuadtreeTests {
  typealias Parameters = BucketQuadtree.Parameters

  private func parameters(
    capacity: Int = 16, maxDepth: Int = 32, bounds: Parameters.Bounds = .data
  ) -> Parameters {
    Parameters(capacity: capacity, maxDepth: maxDepth, bounds: bounds)
  }

  private func expectSound(_ tree: BucketQuadtree, _ context: String = "") {
    let problems = tree._invariantViolations()
    #expect(problems.isEmpty, "\(context): \(problems)")
  }

  // MARK: Builds

  @Test(arguments: [1, 4, 16, 128])
  func invariantsAfterBuild(capacity: Int) throws {
    for fixture in Fixtures.standard(capacity: capacity) {
      for maxDepth in [1, 3, 32] {
        let tree = try BucketQuadtree(
          points: fixture.points, parameters: parameters(capacity: capacity, maxDepth: maxDepth))
        expectSound(tree, "capacity \(capacity), maxDepth \(maxDepth), \(fixture)")
        #expect(tree.count == fixture.points.count)
      }
    }
  }

  @Test func smallTreesAgreeWithTheLinearScan() throws {
    for capacity in [1, 4] {
      for fixture in Fixtures.standard(capacity: capacity) where fixture.points.count <= 2000 {
        let tree = try BucketQuadtree(
          points: fixture.points, parameters: parameters(capacity: capacity))
        let checker = IndexChecker(points: fixture.points)
        let queries = QueryFixtures.queries(for: fixture.points, count: 60, seed: 9)
        let problems = checker.differences(tree, queries: queries)
        #expect(problems.isEmpty, "capacity \(capacity), \(fixture): \(problems)")
      }
    }
  }

  /// The bulk load builds the tree the inserts build, array for array:
  /// every node, bucket and slot, on spread, clustered, duplicate, tiny and
  /// empty data, with small buckets and a low depth cap.
  @Test(arguments: [(1, 32), (4, 6), (16, 32), (16, 3), (64, 32)])
  func theBulkLoadBuildsTheTreeTheInsertsBuild(capacity: Int, maxDepth: Int) throws {
    let sets: [(String, [Point])] = [
      ("uniform", Fixtures.uniform(3000, seed: 5)), ("clustered", Fixtures.clustered(2000, blobs: 4, seed: 6)),
      ("identical", Fixtures.identical(300)), ("one", [Point(x: 1, y: 2)]), ("none", []),
      ("lattice", (0..<900).map { Point(x: Double($0 % 30), y: Double($0 / 30)) }),
    ]
    for (label, points) in sets {
      for bounds in [Parameters.Bounds.data, .world] {
        var p = parameters(capacity: capacity, maxDepth: maxDepth, bounds: bounds)
        let bulk = try BucketQuadtree(points: points, parameters: p)
        p.build = .inserts
        let inserted = try BucketQuadtree(points: points, parameters: p)
        let a = bulk._storage, b = inserted._storage
        #expect(a.nodes == b.nodes && a.coords == b.coords && a.ids == b.ids && a.packed && b.packed,
                "\(label) \(bounds): \(a.nodes.count / 4) nodes against \(b.nodes.count / 4)")
        expectSound(bulk, "\(label) bulk")
      }
    }
  }

  /// On threads the bulk load visits the top of the tree, partitions its
  /// large nodes in chunks and builds the subtrees below apart: the arrays
  /// are the one-thread load's (and so the inserts'), value for value, on
  /// spread and clustered data and on duplicates deep enough to reach the
  /// depth cap, at sizes that take every one of those paths.
  @Test(arguments: [2, 3, 8])
  func aBulkLoadOnThreadsIsTheOneThreadLoad(threads: Int) throws {
    let sets: [(String, [Point])] = [
      ("uniform", Fixtures.uniform(200_000, seed: 7)),
      ("clustered", Fixtures.clustered(150_000, blobs: 3, seed: 8) + Fixtures.identical(60_000)),
    ]
    for (label, points) in sets {
      for maxDepth in [32, 9] {
        var p = parameters(maxDepth: maxDepth)
        p.threads = 1
        let one = try BucketQuadtree(points: points, parameters: p)._storage
        p.threads = threads
        let tree = try BucketQuadtree(points: points, parameters: p)
        let many = tree._storage
        #expect(many.nodes == one.nodes && many.coords == one.coords && many.ids == one.ids && many.packed,
                "\(label), maxDepth \(maxDepth): \(many.nodes.count / 4) nodes against \(one.nodes.count / 4)")
        expectSound(tree, "\(label) on \(threads) threads")
      }
    }
    // sizes either side of where the threads start (2^16 points) and of the
    // partition in chunks (2^17 past a bucket), the top's subtrees at odd
    // and even levels; one point a bucket; depth caps of 1 and 2
    let edges: [(String, [Point], Parameters)] = [0, 1, 17, 65_535, 65_536, 131_088, 131_089].map {
      ("\($0) spread", Fixtures.uniform($0, seed: UInt64($0)), Parameters())
    } + [
      ("identical, capacity 1", Fixtures.identical(70_000), Parameters(capacity: 1)),
      ("maxDepth 1", Fixtures.uniform(70_000, seed: 3), Parameters(maxDepth: 1)),
      ("maxDepth 2", Fixtures.uniform(140_000, seed: 4), Parameters(maxDepth: 2)),
    ]
    for (label, points, parameters) in edges {
      var p = parameters
      p.threads = 1
      let one = try BucketQuadtree(points: points, parameters: p)._storage
      p.threads = threads
      let many = try BucketQuadtree(points: points, parameters: p)._storage
      #expect(many.nodes == one.nodes && many.coords == one.coords && many.ids == one.ids, "\(label)")
    }
    let points = sets[1].1
    let bulk = try BucketQuadtree(points: points, parameters: Parameters(threads: threads))._storage
    let inserted = try BucketQuadtree(points: points, parameters: Parameters(build: .inserts))._storage
    #expect(bulk.nodes == inserted.nodes && bulk.coords == inserted.coords && bulk.ids == inserted.ids)
  }

  /// A bulk-loaded tree takes inserts and removals like any other (the
  /// model suite runs them on the default, bulk, build).
  @Test func theBuildParameterReadsAndReports() throws {
    var p = Parameters()
    #expect(p.build == .bulk)
    try p.set("build", to: "Inserts")
    #expect(p.build == .inserts)
    #expect(throws: IndexError.self) { try p.set("build", to: "sorted") }
    let tree = try BucketQuadtree(points: Fixtures.uniform(10, seed: 1), parameters: p)
    #expect(tree.parameterValues.contains(ParameterValue("build", "inserts")))
    #expect(tree.parameterValues.contains(ParameterValue("threads", "auto")))
    try p.set("threads", to: "3")
    #expect(p.threads == 3)
    #expect(throws: IndexError.self) { try p.set("threads", to: "0") }
  }

  @Test(arguments: [4, 16])
  func nodeCountAroundCapacity(capacity: Int) throws {
    let box = Rect(minX: 0, minY: 0, maxX: 1, maxY: 1)
    for (n, nodes) in [(capacity - 1, 1), (capacity, 1), (capacity + 1, 5)] {
      let points = Fixtures.uniform(n, seed: UInt64(n), in: box)
      let tree = try BucketQuadtree(points: points, parameters: parameters(capacity: capacity))
      #expect(tree.nodeCount == nodes, "n = \(n)")
      #expect(tree.count(in: box) == n)
      expectSound(tree, "n = \(n)")
    }
  }

  @Test func emptyDataUsesWorldBounds() throws {
    var tree = try BucketQuadtree(points: [])
    #expect(tree.bounds == .world)
    #expect(tree.parameterValues.contains(ParameterValue("bounds", "world")))
    #expect(tree.ids(in: .world).isEmpty)
    let id = try tree.insert(Point(x: -180, y: 90))
    #expect(id == 0)
    #expect(tree.ids(in: .world) == [0])
    expectSound(tree)
  }

  /// The original's stack overflow: every `capacity` duplicates add a level.
  @Test func depthCapHoldsManyIdenticalPoints() throws {
    let p = Point(x: 2.3522, y: 48.8566)
    let n = 300_000
    let tree = try BucketQuadtree(
      points: Fixtures.identical(n, at: p), parameters: parameters(capacity: 4, bounds: .world))
    // one full node per level above the cap, plus 3 empty siblings each
    #expect(tree.nodeCount == 1 + 4 * 31)
    expectSound(tree)
    #expect(tree.count(in: Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)) == n)
    var counters = WorkCounters()
    var ids: [Int32] = []
    tree.query(in: Rect(minX: 0, minY: 0, maxX: 10, maxY: 90), into: &ids, counters: &counters)
    #expect(ids.count == n)
    #expect(counters.pointsReported == n)
  }

  // MARK: Bounds and parameters

  @Test func pointsOutsideExplicitBoundsThrow() throws {
    let box = Rect(minX: 0, minY: 0, maxX: 10, maxY: 10)
    let outside = Point(x: 10.5, y: 5)
    #expect(throws: IndexError.pointOutsideBounds(id: 1, point: outside, bounds: box)) {
      try BucketQuadtree(
        points: [Point(x: 1, y: 1), outside], parameters: parameters(bounds: .fixed(box)))
    }
    var tree = try BucketQuadtree(
      points: [Point(x: 10, y: 10)], parameters: parameters(bounds: .fixed(box)))
    #expect(throws: IndexError.pointOutsideBounds(id: 1, point: outside, bounds: box)) {
      try tree.insert(outside)
    }
    do {
      _ = try tree.insert(Point(x: .nan, y: 0))
      Issue.record("a NaN point was inserted")
    } catch {
      guard case .nonFinitePoint(id: 1, _) = error else {
        Issue.record("\(error)")
        return
      }
    }
    #expect(try tree.insert(Point(x: 0, y: 0)) == 1)  // on the corner: inside
    #expect(tree.count == 2)
  }

  @Test func defaultBoundsRefuseInsertsOutsideTheData() throws {
    var tree = try BucketQuadtree(points: [Point(x: 0, y: 0), Point(x: 2, y: 1)])
    #expect(tree.bounds == Rect(minX: 0, minY: 0, maxX: 2, maxY: 1))
    #expect(throws: IndexError.self) { try tree.insert(Point(x: 3, y: 0)) }
    #expect(try tree.insert(Point(x: 1, y: 1)) == 2)
    #expect(throws: IndexError.nonFinitePoint(id: 1, point: Point(x: 0, y: .infinity))) {
      try BucketQuadtree(points: [Point(x: 0, y: 0), Point(x: 0, y: .infinity)])
    }
  }

  @Test func invalidParametersThrowFromSetAndFromInit() throws {
    let refused: [(String, String)] = [
      ("capacity", "0"), ("capacity", "-1"), ("capacity", "four"), ("capacity", ""),
      ("maxDepth", "0"), ("maxDepth", "33"),
      ("bounds", "nan:0:1:1"), ("bounds", "0:0:inf:1"), ("bounds", "1:0:0:1"),
      ("bounds", "0:1:1:0"), ("bounds", "0:0:1"), ("bounds", "0:0:1:1:2"), ("bounds", "earth"),
    ]
    for (name, value) in refused {
      var p = Parameters()
      #expect(throws: IndexError.self, "\(name)=\(value)") { try p.set(name, to: value) }
      #expect(p == Parameters(), "\(name)=\(value) changed the parameters")
    }
    var p = Parameters()
    let known = ["capacity", "maxDepth", "bounds", "build", "threads"]
    #expect(throws: IndexError.unknownParameter(name: "depth", known: known)) {
      try p.set("depth", to: "3")
    }
    // a caller who fills the struct in directly gets the same refusals from the build
    let direct: [Parameters] = [
      parameters(capacity: 0), parameters(capacity: -1),
      parameters(maxDepth: 0), parameters(maxDepth: 40),
      parameters(bounds: .fixed(Rect(minX: .nan, minY: 0, maxX: 1, maxY: 1))),
      parameters(bounds: .fixed(Rect(minX: 2, minY: 0, maxX: 1, maxY: 1))),
      parameters(bounds: .fixed(Rect(minX: 0, minY: 0, maxX: 1, maxY: .infinity))),
      Parameters(threads: 0), Parameters(threads: 257),
    ]
    for params in direct {
      #expect(throws: IndexError.self, "\(params)") {
        try BucketQuadtree(points: [Point(x: 0.5, y: 0.5)], parameters: params)
      }
    }
  }

  @Test func parametersParseAndReport() throws {
    var p = Parameters()
    try p.set("capacity", to: "8")
    try p.set("maxdepth", to: "12")
    try p.set("bounds", to: "-10:-5.5:10:5.5")
    let box = Rect(minX: -10, minY: -5.5, maxX: 10, maxY: 5.5)
    #expect(p == parameters(capacity: 8, maxDepth: 12, bounds: .fixed(box)))
    let tree = try BucketQuadtree(points: [Point(x: 0, y: 0)], parameters: p)
    #expect(tree.label == "quadtree(capacity=8,maxDepth=12,bounds=-10.0:-5.5:10.0:5.5,build=bulk,threads=auto)")
    try p.set("bounds", to: "world")
    #expect(p.bounds == .world)
    try p.set("bounds", to: "data")
    #expect(p.bounds == .data)
    let defaults = try BucketQuadtree(points: [Point(x: 1, y: 2), Point(x: 3, y: 5)])
    #expect(defaults.parameterValues == [
      ParameterValue("capacity", "16"), ParameterValue("maxDepth", "32"),
      ParameterValue("bounds", "1.0:2.0:3.0:5.0"), ParameterValue("build", "bulk"),
      ParameterValue("threads", "auto"),
    ])
    #expect(Parameters.descriptions.map(\.name) == ["capacity", "maxDepth", "bounds", "build", "threads"])
  }

  // MARK: Geometry

  /// Points exactly on split lines go east / north, and queries whose edges
  /// are those lines find them.
  @Test func pointsOnSplitLines() throws {
    var points: [Point] = []
    for x in [-180.0, -90, -45, 0, 45, 90, 180] {
      for y in [-90.0, -45, -22.5, 0, 22.5, 45, 90] {
        points.append(Point(x: x, y: y))
        points.append(Point(x: x, y: y))
      }
    }
    for capacity in [1, 2, 4] {
      let tree = try BucketQuadtree(
        points: points, parameters: parameters(capacity: capacity, bounds: .world))
      expectSound(tree, "capacity \(capacity)")
      var queries: [Rect] = []
      for a in [-90.0, -45, 0, 45] {
        queries.append(Rect(minX: a, minY: -90, maxX: a, maxY: 90))  // on a vertical split line
        queries.append(Rect(minX: -180, minY: a / 2, maxX: 180, maxY: a / 2))
        // exactly a node's box, three levels down
        queries.append(Rect(minX: a, minY: a / 2, maxX: a + 45, maxY: a / 2 + 22.5))
        queries.append(Rect(minX: a.nextUp, minY: -90, maxX: (a + 45).nextDown, maxY: 90))
      }
      let problems = IndexChecker(points: points).differences(tree, queries: queries)
      #expect(problems.isEmpty, "capacity \(capacity): \(problems)")
    }
  }

  /// Work counts a reader can check by hand. Capacity 1, world bounds:
  /// A (10, 10) stays in the root, B (-100, -50) goes south-west and
  /// C (100, 50) north-east; the root's center is (0, 0).
  @Test func countersAreDeterministic() throws {
    let points = [Point(x: 10, y: 10), Point(x: -100, y: -50), Point(x: 100, y: 50)]
    let tree = try BucketQuadtree(
      points: points, parameters: parameters(capacity: 1, bounds: .world))
    #expect(tree.nodeCount == 5)
    func work(_ rect: Rect) -> (WorkCounters, [Int32]) {
      var counters = WorkCounters()
      var ids: [Int32] = []
      tree.forEach(in: rect, counters: &counters) { ids.append($0); return true }
      var again = WorkCounters()
      _ = tree.count(in: rect, counters: &again)
      #expect(again == counters, "count(in:) and forEach disagree on \(rect)")
      return (counters, ids.sorted())
    }
    // the root is tested (A inside), only the north-east child meets the rect (C inside)
    #expect(work(Rect(minX: 5, minY: 5, maxX: 150, maxY: 80)) ==
      (WorkCounters(nodesVisited: 2, pointsTested: 2, pointsReported: 2), [0, 2]))
    // exactly the south-west quadrant: the root is tested (A outside), the south-west child
    // lies inside and is reported untested (B), the two empty leaves are skipped, and the
    // north-east child touches the rect's corner: visited, C tested (outside)
    #expect(work(Rect(minX: -180, minY: -90, maxX: 0, maxY: 0)) ==
      (WorkCounters(nodesVisited: 3, pointsTested: 2, pointsReported: 1), [1]))
    // the whole root box lies inside: one run of ids, reported from the root
    #expect(work(.world) ==
      (WorkCounters(nodesVisited: 1, pointsTested: 0, pointsReported: 3), [0, 1, 2]))
    // outside the bounds, inverted, NaN: nothing visited
    for rect in [
      Rect(minX: 181, minY: 0, maxX: 190, maxY: 1), Rect(minX: 1, minY: 0, maxX: 0, maxY: 1),
      Rect(minX: .nan, minY: 0, maxX: 1, maxY: 1),
    ] {
      #expect(work(rect) == (WorkCounters(), []))
    }
    let infinite = Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
    #expect(work(infinite).1 == [0, 1, 2])
  }

  /// After an update the pool is no longer packed: a subtree inside the
  /// rectangle is walked node by node until ``BucketQuadtree/compact()``.
  @Test func updatesUnpackUntilCompacted() throws {
    let points = [Point(x: 10, y: 10), Point(x: -100, y: -50), Point(x: 100, y: 50)]
    var tree = try BucketQuadtree(
      points: points, parameters: parameters(capacity: 1, bounds: .world))
    let d = try tree.insert(Point(x: 120, y: 60))  // below C, in a new north-east grandchild
    #expect(d == 3 && tree.nodeCount == 9)
    var counters = WorkCounters()
    #expect(tree.count(in: .world, counters: &counters) == 4)
    // root, south-west child, north-east child, its non-empty child
    #expect(counters == WorkCounters(nodesVisited: 4, pointsTested: 0, pointsReported: 4))
    expectSound(tree, "after insert")
    tree.compact()
    expectSound(tree, "compacted")
    counters = WorkCounters()
    #expect(tree.count(in: .world, counters: &counters) == 4)
    #expect(counters == WorkCounters(nodesVisited: 1, pointsTested: 0, pointsReported: 4))
    let removed = tree.remove(id: 1, at: points[1])
    #expect(removed)
    expectSound(tree, "after removal")
    counters = WorkCounters()
    #expect(tree.ids(in: .world).sorted() == [0, 2, 3])
    #expect(tree.count(in: .world, counters: &counters) == 3)
    #expect(counters == WorkCounters(nodesVisited: 3, pointsTested: 0, pointsReported: 3))
  }

  // MARK: Updates

  @Test func removingEverythingThenRefilling() throws {
    let points = Fixtures.uniform(300, seed: 3)
    var tree = try BucketQuadtree(
      points: points, parameters: parameters(capacity: 4, bounds: .world))
    for (i, p) in points.enumerated().reversed() {
      let removed = tree.remove(id: Int32(i), at: p)
      #expect(removed)
    }
    #expect(tree.count == 0)
    #expect(tree.ids(in: .world).isEmpty)
    expectSound(tree, "emptied")
    let neverInserted = tree.remove(id: 300, at: points[0])
    let negative = tree.remove(id: -1, at: points[0])
    let nan = tree.remove(id: 0, at: Point(x: .nan, y: 0))
    #expect(!neverInserted && !negative && !nan)
    for p in points { _ = try tree.insert(p) }
    #expect(tree.count == points.count)
    #expect(Set(tree.ids(in: .world)) == Set(300..<600))
    expectSound(tree, "refilled")
  }

  @Test func memoryStaysSmall() throws {
    let n = 50_000
    let tree = try BucketQuadtree(points: Fixtures.uniform(n, seed: 8))
    let perPoint = Double(tree.memoryBytes) / Double(n)
    #expect(perPoint >= 20 && perPoint <= 30, "\(perPoint) bytes per point")
  }
}
