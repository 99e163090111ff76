import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport

@Suite struct KDTreeIndexTests {
  @Test(arguments: [0, -1, 65537])
  func nonsenseNodeSizeThrows(nodeSize: Int) {
    #expect(throws: IndexError.self) {
      _ = try KDTreeIndex(points: Fixtures.uniform(10, seed: 1), parameters: .init(nodeSize: nodeSize))
    }
    var p = KDTreeIndex.Parameters()
    #expect(throws: IndexError.self) { try p.set("nodeSize", to: "\(nodeSize)") }
  }

  /// The parallel build splits the top of the tree, then builds the
  /// subtrees side by side: the arrays are the serial build's, value for
  /// value, whatever the threads (ids in the same order; the coordinates
  /// follow the ids). Large enough that the top is split (subtrees above
  /// 16,384 points), with duplicates so equal keys meet in a partition.
  @Test(arguments: [2, 3, 8, 64])
  func aParallelBuildIsTheSerialBuild(threads: Int) throws {
    let points = Fixtures.clustered(150_000, seed: 31) + Fixtures.identical(40_000)
      + Fixtures.lattice(steps: 100, repeats: 2, seed: 3)
    let serial = try KDTreeIndex(points: points, parameters: .init(nodeSize: 64, threads: 1))
    let parallel = try KDTreeIndex(points: points, parameters: .init(nodeSize: 64, threads: threads))
    #expect(parallel.groupOrder == serial.groupOrder)
    #expect(parallel._invariantViolations().isEmpty)
    #expect(parallel.parameterValues.contains(ParameterValue("threads", "\(threads)")))
  }

  /// The last step of a build puts the split points first, by pre-order
  /// number, and moves the other points right past them, keeping their
  /// order; on several threads in pieces, each reading its head from a copy
  /// the piece before overwrites. Every count of pieces gives the layout of
  /// the definition, also with split points so many that a head would
  /// reach past its piece (one piece then) and with split points at the ends.
  @Test(arguments: [(5_000, 250), (5_000, 2_600), (5_000, 4_999), (64, 0), (7, 7)])
  func splitPointsMoveFirstInAnyNumberOfPieces(n: Int, splits: Int) {
    var random = SplitMix64(seed: UInt64(n * 31 + splits))
    var positions = Array(0..<n)
    for i in stride(from: n - 1, to: 0, by: -1) { positions.swapAt(i, Int(random.next() % UInt64(i + 1))) }
    var splitAt = Array(positions.prefix(splits))
    if splits > 2 { splitAt[0] = 0; splitAt[1] = n - 1 }  // the ends too
    splitAt = Array(Set(splitAt))
    let holes = Set(splitAt)
    let coords = (0..<2 * n).map { Double($0) }
    let ids = (0..<n).map { Int32($0) }
    let expectedIDs = splitAt.map { Int32($0) } + ids.filter { !holes.contains(Int($0)) }
    let expectedCoords = expectedIDs.flatMap { [Double(2 * Int($0)), Double(2 * Int($0) + 1)] }
    for threads in [1, 2, 3, 4, 8] {
      var movedCoords = coords, movedIDs = ids
      splitAt.withUnsafeMutableBufferPointer { splitAt in
        movedCoords.withUnsafeMutableBufferPointer { c in
          movedIDs.withUnsafeMutableBufferPointer { i in
            KDTreeIndex.moveSplitsFirst(splitAt, c, i, threads: threads, piecesFrom: 0)
          }
        }
      }
      let wrong = movedIDs.indices.first { movedIDs[$0] != expectedIDs[$0] }
      #expect(wrong == nil, "threads \(threads): first wrong id at \(wrong ?? -1)")
      #expect(movedCoords == expectedCoords, "threads \(threads): the coordinates follow the ids")
    }
  }

  /// The build's first pass runs in chunks on the threads: a non-finite
  /// point in a late chunk is still refused, by id, and the bounds are
  /// every chunk's.
  @Test(arguments: [1, 2])
  func theFirstPassChecksEveryChunk(threads: Int) throws {
    var points = Fixtures.uniform(200_000, seed: 5, in: Rect(minX: -10, minY: -10, maxX: 10, maxY: 10))
    points[199_000] = Point(x: 170, y: -80)
    let index = try KDTreeIndex(points: points, parameters: .init(nodeSize: 64, threads: threads))
    #expect(index.count(in: Rect(minX: 169, minY: -81, maxX: 171, maxY: -79)) == 1)
    points[150_001] = Point(x: .infinity, y: 0)
    #expect(throws: IndexError.nonFinitePoint(id: 150_001, point: points[150_001])) {
      try KDTreeIndex(points: points, parameters: .init(nodeSize: 64, threads: threads))
    }
  }

  @Test func threadsParseAndReject() throws {
    var p = KDTreeIndex.Parameters()
    #expect(p.threads == nil)
    try p.set("threads", to: "4")
    #expect(p.threads == 4)
    try p.set("threads", to: "auto")
    #expect(p.threads == nil)
    #expect(throws: IndexError.self) { try p.set("threads", to: "0") }
    #expect(throws: IndexError.self) { try p.set("threads", to: "257") }
    #expect(throws: IndexError.self) {
      _ = try KDTreeIndex(points: Fixtures.uniform(10, seed: 1), parameters: .init(nodeSize: 8, threads: 0))
    }
  }

  @Test func parametersParseAndReject() throws {
    var p = KDTreeIndex.Parameters()
    try p.set("nodeSize", to: "16")
    #expect(p.nodeSize == 16)
    #expect(throws: IndexError.self) { try p.set("nodeSize", to: "abc") }
    #expect(throws: IndexError.unknownParameter(name: "capacity", known: ["nodeSize", "threads"])) {
      try p.set("capacity", to: "4")
    }
  }

  @Test func nonFinitePointThrows() {
    let error = #expect(throws: IndexError.self) {
      _ = try KDTreeIndex(points: [Point(x: 0, y: 0), Point(x: .nan, y: 0)])
    }
    guard case .nonFinitePoint(let id, _) = error else {
      Issue.record("expected nonFinitePoint, got \(String(describing: error))")
      return
    }
    #expect(id == 1)
  }

  @Test(arguments: [1, 2, 3, 7, 64, 200])
  func everyNodeSizeAgreesWithLinearScan(nodeSize: Int) throws {
    let points = Fixtures.clustered(3000, seed: UInt64(nodeSize))
    let index = try KDTreeIndex(points: points, parameters: .init(nodeSize: nodeSize))
    #expect(index._invariantViolations().isEmpty)
    let problems = IndexChecker(points: points)
      .differences(index, queries: QueryFixtures.queries(for: points, seed: 3))
    #expect(problems.isEmpty, "\(problems)")
  }

  /// 7 points on the diagonal, leaves of 2. The root's left subtree is the
  /// smallest full tree holding half of the 6 points below it: 5 points
  /// (split point 2 and two leaves of 2); the root splits x at point 5 and
  /// its right subtree is the leaf {6}.
  @Test func countersFollowTheWalk() throws {
    let points = (0..<7).map { Point(x: Double($0), y: Double($0)) }
    let index = try KDTreeIndex(points: points, parameters: .init(nodeSize: 2))
    #expect(index._invariantViolations().isEmpty)
    // The whole box: the root's box is inside, so one node and no point test.
    var whole = WorkCounters()
    #expect(index.count(in: Rect(minX: 0, minY: 0, maxX: 6, maxY: 6), counters: &whole) == 7)
    #expect(whole == WorkCounters(nodesVisited: 1, pointsTested: 0, pointsReported: 7))
    // x ≤ 1.5: the root (split 5, right side pruned), its left child (split
    // 2 on y, both sides kept), then the leaves {3, 4} and {0, 1}.
    var left = WorkCounters()
    #expect(index.count(in: Rect(minX: -1, minY: -1, maxX: 1.5, maxY: 10), counters: &left) == 2)
    #expect(left == WorkCounters(nodesVisited: 4, pointsTested: 1 + 1 + 2 + 2, pointsReported: 2))
  }

  /// Left subtrees are full trees: 2^h leaves of nodeSize points and
  /// 2^h − 1 split points, holding at least half of the points below a split.
  @Test(arguments: [1, 2, 7, 64])
  func leftSubtreesAreFull(nodeSize: Int) {
    for size in (nodeSize + 1)...(nodeSize * 40 + 50) {
      let l = KDTreeIndex._leftShape(size: size, nodeSize: nodeSize)
      let leaves = l.splits + 1
      #expect(leaves & (leaves - 1) == 0, "size \(size): \(leaves) leaves is not a power of two")
      #expect(l.points == leaves * nodeSize + l.splits)
      #expect(2 * l.points >= size - 1 && l.points <= size - 1, "size \(size): left \(l.points)")
    }
  }

  /// The shape is computed without a division; it must match its
  /// definition: the smallest full tree holding half of the points below.
  @Test(arguments: [1, 2, 3, 7, 64, 100, 65536])
  func leftShapeMatchesTheDivisionFormula(nodeSize: Int) {
    func reference(_ size: Int) -> (points: Int, splits: Int) {
      let unit = nodeSize + 1
      let q = (size + unit) / unit  // ceil((size + 1) / unit)
      let h = Int.bitWidth - (q - 1).leadingZeroBitCount  // ceil(log2 q)
      let leaves = 1 << (h - 1)
      return (leaves * unit - 1, leaves - 1)
    }
    var sizes = Array((nodeSize + 1)...(nodeSize * 8 + 300))
    var g = SplitMix64(seed: UInt64(nodeSize))
    sizes += (0..<2000).map { _ in nodeSize + 1 + g.nextInt(below: Int(Int32.max) - nodeSize) }
    for shift in 0..<31 where (1 << shift) > nodeSize {  // around powers of two
      sizes += [(1 << shift) - 1, 1 << shift, (1 << shift) + 1].filter { $0 > nodeSize }
    }
    for size in sizes {
      let got = KDTreeIndex._leftShape(size: size, nodeSize: nodeSize), want = reference(size)
      #expect(got == want, "size \(size): \(got), expected \(want)")
      if got != want { return }
    }
  }

  /// The same points give the same tree: no randomness in the build.
  @Test func buildIsDeterministic() throws {
    let points = Fixtures.clustered(20_000, seed: 8) + [Point](repeating: Point(x: 1, y: 2), count: 5_000)
    let a = try KDTreeIndex(points: points), b = try KDTreeIndex(points: points)
    #expect(a.groupOrder == b.groupOrder)
    #expect(a._invariantViolations().isEmpty)
  }

  /// Two coordinates and an id; the allocator may round each array up a little.
  @Test func memoryIsTwentyBytesAPoint() throws {
    let index = try KDTreeIndex(points: Fixtures.uniform(10_000, seed: 4))
    #expect(index.memoryBytes >= 10_000 * 20)
    #expect(index.memoryBytes <= 10_000 * 21)
  }
}
