import SpatialIndexes
import Testing
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

  @Test func parametersParseAndReject() throws {
    var p = KDTreeIndex.Parameters()
    try p.set("nodeSize", to: "16")
    #expect(p.nodeSize == 16)
    #expect(throws: IndexError.self) { try p.set("nodeSize", to: "abc") }
    #expect(throws: IndexError.unknownParameter(name: "capacity", known: ["nodeSize"])) {
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
    let problems = try IndexChecker(points: points)
      .differences(index, queries: QueryFixtures.queries(for: points, seed: 3))
    #expect(problems.isEmpty, "\(problems)")
  }

  /// 7 points, leaves of 2: the root splits x at the median, its children split y.
  @Test func countersFollowTheWalk() throws {
    let points = (0..<7).map { Point(x: Double($0), y: Double($0)) }
    let index = try KDTreeIndex(points: points, parameters: .init(nodeSize: 2))
    // The whole box: the root's box is inside, so one node and no point test.
    var whole = WorkCounters()
    #expect(index.count(in: Rect(minX: 0, minY: 0, maxX: 6, maxY: 6), counters: &whole) == 7)
    #expect(whole == WorkCounters(nodesVisited: 1, pointsTested: 0, pointsReported: 7))
    // Left of the root's median (x = 3): the root and its left child only.
    var left = WorkCounters()
    #expect(index.count(in: Rect(minX: -1, minY: -1, maxX: 1.5, maxY: 10), counters: &left) == 2)
    #expect(left.nodesVisited == 2)
    #expect(left.pointsTested == 1 + 3)  // the root's median, then the 3-point leaf
    #expect(left.pointsReported == 2)
  }

  /// Two coordinates and an id; the allocator may round each array up a little.
  @Test func memoryIsTwentyBytesAPoint() throws {
    let index = try KDTreeIndex(points: Fixtures.uniform(10_000, seed: 4))
    #expect(index.memoryBytes >= 10_000 * 20)
    #expect(index.memoryBytes <= 10_000 * 21)
  }
}
