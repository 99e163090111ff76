import SpatialIndexes
import Testing
import _SpatialTestSupport

@Suite struct HilbertRTreeTests {
  @Test(arguments: [0, 1, 257])
  func nonsenseNodeSizeThrows(nodeSize: Int) {
    #expect(throws: IndexError.self) {
      _ = try HilbertRTree(points: Fixtures.uniform(10, seed: 1), parameters: .init(nodeSize: nodeSize))
    }
    var p = HilbertRTree.Parameters()
    #expect(throws: IndexError.self) { try p.set("nodeSize", to: "\(nodeSize)") }
  }

  @Test func nonFinitePointThrows() {
    let error = #expect(throws: IndexError.self) {
      _ = try HilbertRTree(points: [Point(x: 0, y: 0), Point(x: 1, y: .infinity)])
    }
    guard case .nonFinitePoint(let id, _) = error else {
      Issue.record("expected nonFinitePoint, got \(String(describing: error))")
      return
    }
    #expect(id == 1)
  }

  /// The curve's first 4^8 values fill the 256 × 256 cells at the origin,
  /// each once, and each step goes to a neighbouring cell: what makes
  /// points close on the curve close on the map.
  @Test func theHilbertCurveVisitsEachCellOnceByNeighbours() {
    var position = [(x: Int, y: Int)?](repeating: nil, count: 1 << 16)
    for x in 0..<256 {
      for y in 0..<256 {
        let d = Int(HilbertRTree.hilbertValue(x: UInt32(x), y: UInt32(y)))
        #expect(d < 1 << 16, "(\(x), \(y)) → \(d)")
        guard d < 1 << 16 else { return }
        #expect(position[d] == nil, "\(d) twice")
        position[d] = (x, y)
      }
    }
    var far = 0
    for d in 1..<(1 << 16) {
      let a = position[d - 1]!, b = position[d]!
      if abs(a.x - b.x) + abs(a.y - b.y) != 1 { far += 1 }
    }
    #expect(far == 0)
    #expect(HilbertRTree.hilbertValue(x: 65535, y: 0) == UInt32.max, "the curve ends at the far corner of its last quadrant")
  }

  /// Every node size, on clustered points and on duplicates: the same ids
  /// as a filter over the points, and a sound packing.
  @Test(arguments: [2, 3, 4, 16, 64, 256])
  func everyNodeSizeAgreesWithTheFilter(nodeSize: Int) throws {
    for points in [Fixtures.clustered(3000, seed: UInt64(nodeSize)), Fixtures.lattice(steps: 16, repeats: 3, seed: 2) + Fixtures.identical(50)] {
      let index = try HilbertRTree(points: points, parameters: .init(nodeSize: nodeSize))
      #expect(index._invariantViolations().isEmpty, "\(index._invariantViolations().prefix(3))")
      let problems = IndexChecker(points: points)
        .differences(index, queries: QueryFixtures.queries(for: points, seed: 3))
      #expect(problems.isEmpty, "\(problems.prefix(3))")
    }
  }

  /// A node's children are tested 64 at a time: with 128 a node and 157
  /// leaves, a node's leaves take two rounds; with 65 a node and 280,100
  /// points (4,310 leaves, 67 nodes of level 1), the first node of level 2
  /// has 65 children, which take two rounds above the leaves. Every id still
  /// comes, once, in the walk's order (a visit that stops early sees a
  /// prefix of the whole answer).
  @Test(arguments: [(128, 20_000), (65, 280_000)])
  func childrenComeInRoundsOf64(nodeSize: Int, count: Int) throws {
    let points = Fixtures.clustered(count, seed: 12) + Fixtures.uniform(100, seed: 13)
    let index = try HilbertRTree(points: points, parameters: .init(nodeSize: nodeSize))
    let queries = QueryFixtures.queries(for: points, count: 60, seed: 14) + [.world]
    let problems = IndexChecker(points: points).differences(index, queries: queries)
    #expect(problems.isEmpty, "\(problems.prefix(3))")
    var stopped = 0
    for rect in queries {
      var all: [Int32] = []
      index.query(in: rect, into: &all)
      guard all.count >= 2 else { continue }
      var seen: [Int32] = []
      let half = all.count / 2
      let finished = index.forEach(in: rect) { id in
        seen.append(id)
        return seen.count < half
      }
      #expect(!finished, "\(rect)")
      #expect(seen == Array(all.prefix(half)), "\(rect)")
      stopped += 1
    }
    #expect(stopped > 10, "the early stop was tried on enough queries")
  }

  /// k-nearest on every node size matches the ranking of every point.
  @Test(arguments: [2, 5, 16, 100])
  func nearestOnEveryNodeSize(nodeSize: Int) throws {
    let points = Fixtures.clustered(2000, seed: 9) + [Point(x: 180, y: 0), Point(x: -180, y: 0), Point(x: 0, y: 90)]
    let tree = try HilbertRTree(points: points, parameters: .init(nodeSize: nodeSize))
    let kd = try KDTreeIndex(points: points, parameters: .init(nodeSize: nodeSize))
    var results: [Neighbor] = []
    for position in NearestTests.positions(for: points, seed: UInt64(nodeSize)) {
      let ranked = NearestTests.ranking(points, position)
      for k in [1, 7, 50] {
        let expected = NearestTests.reference(ranked, k: k, maxDistance: .infinity)
        tree.nearest(to: position, k: k, into: &results)
        #expect(results == expected, "rtree \(position) k \(k)")
        kd.nearest(to: position, k: k, into: &results)
        #expect(results == expected, "kdtree \(position) k \(k)")
      }
    }
  }

  /// A box holding every point is the root's box inside it: one node, no
  /// point tested. A box holding none visits the root alone.
  @Test func countersFollowTheWalk() throws {
    let points = Fixtures.uniform(5000, seed: 4)
    let index = try HilbertRTree(points: points)
    var whole = WorkCounters()
    #expect(index.count(in: .world, counters: &whole) == points.count)
    #expect(whole == WorkCounters(nodesVisited: 1, pointsTested: 0, pointsReported: points.count))
    var none = WorkCounters()
    #expect(index.count(in: Rect(minX: 200, minY: 0, maxX: 210, maxY: 1), counters: &none) == 0)
    #expect(none == WorkCounters(nodesVisited: 1, pointsTested: 0, pointsReported: 0))
  }

  @Test func emptyAndTinyTrees() throws {
    let empty = try HilbertRTree(points: [])
    #expect(empty.count(in: .world) == 0)
    #expect(empty._invariantViolations().isEmpty)
    let one = try HilbertRTree(points: [Point(x: 3, y: 4)])
    #expect(one.ids(in: Rect(minX: 3, minY: 4, maxX: 3, maxY: 4)) == [0])
    #expect(one._invariantViolations().isEmpty)
  }
}
