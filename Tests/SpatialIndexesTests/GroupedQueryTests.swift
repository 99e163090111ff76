import SpatialIndexes
import Testing
import _SpatialTestSupport

/// Records what a grouped query hands over, accepting boxes at random
/// (seeded), and checks each group against the box it accepted.
private struct RecordingVisitor: GroupVisitor {
  let order: [Int32]
  let points: [Point]
  let rect: Rect
  /// A seeded 64-bit LCG: which boxes are accepted.
  var state: UInt64
  /// The share of boxes accepted, in 1/10.
  var acceptTenths: UInt64 = 7
  var ids: [Int32] = []
  var groups = 0
  var grouped = 0
  var lastBox: Rect?
  var problems: [String] = []

  mutating func acceptsGroup(in box: Rect) -> Bool {
    if !rect.contains(box) { problems.append("box \(box) offered outside \(rect)") }
    state = state &* 6364136223846793005 &+ 1442695040888963407
    let accept = state >> 33 < (1 << 31) * acceptTenths / 10
    lastBox = accept ? box : nil
    return accept
  }

  mutating func takeGroup(_ positions: Range<Int>) {
    guard let box = lastBox else {
      problems.append("a group without an accepted box")
      return
    }
    groups += 1
    grouped += positions.count
    for id in order[positions] {
      ids.append(id)
      if !box.contains(points[Int(id)]) { problems.append("id \(id) outside its group's box \(box)") }
    }
  }

  mutating func take(_ id: Int32, at position: Int) {
    ids.append(id)
    if position >= 0 && order[position] != id { problems.append("id \(id) is not at position \(position)") }
  }
}

/// The grouped query (``GroupingIndex/forEachGroup(in:counters:_:)``) hands
/// over every point inside exactly once, alone or in a group, and a group only
/// holds points of the box its visitor accepted.
@Suite struct GroupedQueryTests {
  static let names = allIndexTypes.map { $0.name }

  @Test(arguments: names)
  func everyPointOnceAloneOrInAGroup(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    for fixture in Fixtures.standard() {
      try check(type, fixture)
    }
  }

  private func check<I: DescribedIndex>(_ type: I.Type, _ fixture: Fixture) throws {
    let index = try I(points: fixture.points)
    let reference = try LinearScanIndex(points: fixture.points)
    for (k, rect) in QueryFixtures.queries(for: fixture.points, count: 100, seed: 9).enumerated() {
      var visitor = RecordingVisitor(
        order: groupOrder(of: index), points: fixture.points, rect: rect, state: UInt64(k))
      forEachGroup(of: index, in: rect, &visitor)
      #expect(visitor.problems.isEmpty, "\(I.name) \(fixture) \(rect): \(visitor.problems.prefix(3))")
      #expect(visitor.ids.sorted() == reference.ids(in: rect).sorted(),
              "\(I.name) \(fixture) \(rect)")
    }
  }

  /// The indexes whose storage keeps a subtree or a cell in one run: those
  /// of the catalogue with a ``GroupingIndex/groupOrder`` once built.
  static let grouping = allIndexTypes.filter { hasGroups($0) }.map { $0.name }

  static func hasGroups<I: DescribedIndex>(_ type: I.Type) -> Bool {
    (try? I(points: Fixtures.uniform(100, seed: 1))).map { groupOrder(of: $0).isEmpty == false } ?? false
  }

  @Test func theTreesAndTheGridFormGroups() {
    #expect(Set(Self.grouping).isSuperset(of: ["kdtree", "quadtree", "grid", "rtree"]), "\(Self.grouping)")
  }

  /// With every box accepted, a tree hands the whole world over as its
  /// root; the grid, each cell but its outer ring (the rectangle's edge
  /// columns and rows, tested point by point), well over 85% of the points.
  @Test(arguments: grouping)
  func wholeSubtreesOrCellsArriveAsGroups(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    let points = Fixtures.uniform(20_000, seed: 4)
    let (order, visitor) = try Self.handOver(type, points, .world)
    #expect(order.sorted() == (0..<Int32(points.count)).map { $0 })
    #expect(visitor.problems.isEmpty, "\(visitor.problems.prefix(3))")
    #expect(visitor.ids.count == points.count)
    if indexName == "grid" {
      #expect(visitor.grouped > points.count * 85 / 100, "\(visitor.grouped) grouped")
    } else {
      #expect(visitor.grouped == points.count)
    }
  }

  /// After an insert a dynamic index's runs hold spare slots: it forms no
  /// groups until it is repacked, and still hands over every point.
  @Test func aChangedQuadtreeHandsOverIDsAloneUntilCompacted() throws {
    var params = BucketQuadtree.Parameters()
    try params.set("bounds", to: "world")
    var tree = try BucketQuadtree(points: Self.before, parameters: params)
    _ = try tree.insert(Self.inserted)
    try Self.checkAlone(tree)
    tree.compact()
    #expect(groupOrder(of: tree).count == Self.before.count + 1, "groups again once compacted")
  }

  @Test func aChangedGridHandsOverIDsAloneUntilRebuilt() throws {
    var grid = try GridHashIndex(points: Self.before)
    _ = try grid.insert(Self.inserted)
    try Self.checkAlone(grid)
    #expect(try GridHashIndex(points: Self.before + [Self.inserted]).groupOrder.count
            == Self.before.count + 1)
  }

  static let before = Fixtures.uniform(2000, seed: 6)
  static let inserted = Point(x: 0.5, y: 0.5)

  private static func checkAlone<I: DescribedIndex>(_ index: I) throws {
    #expect(groupOrder(of: index).isEmpty)
    var visitor = RecordingVisitor(
      order: groupOrder(of: index), points: before + [inserted], rect: .world, state: 1)
    forEachGroup(of: index, in: .world, &visitor)
    #expect(visitor.problems.isEmpty, "\(visitor.problems.prefix(3))")
    #expect(visitor.grouped == 0)
    #expect(visitor.ids.sorted() == (0...Int32(before.count)).map { $0 })
  }

  @Test func theLinearScanHandsOverIDsAlone() throws {
    #expect(groupOrder(of: try LinearScanIndex(points: Fixtures.uniform(1000, seed: 5))).isEmpty)
  }

  private static func handOver<I: DescribedIndex>(
    _ type: I.Type, _ points: [Point], _ rect: Rect
  ) throws -> ([Int32], RecordingVisitor) {
    let index = try I(points: points)
    var visitor = RecordingVisitor(
      order: groupOrder(of: index), points: points, rect: rect, state: 1, acceptTenths: 10)
    forEachGroup(of: index, in: rect, &visitor)
    return (groupOrder(of: index), visitor)
  }
}

/// Records which concrete type ``withIndexType(named:_:)`` runs with.
private struct NameOf: IndexTypeOperation {
  func run<I: DescribedIndex>(_ type: I.Type) -> ObjectIdentifier { ObjectIdentifier(type) }
}

@Suite struct IndexCatalogTests {
  @Test func withIndexTypeCoversEveryIndexType() throws {
    var operation = NameOf()
    for type in allIndexTypes {
      #expect(try withIndexType(named: type.name, &operation) == ObjectIdentifier(type))
      #expect(try withIndexType(named: type.name.uppercased(), &operation) == ObjectIdentifier(type))
    }
    #expect(try withIndexType(named: "btree", &operation) == nil)
    #expect(Set(allIndexTypes.map { $0.name }).count == allIndexTypes.count, "names are unique")
  }

  /// An operation runs once, on the named type only; what it changes in
  /// itself and what it throws reach the caller.
  @Test func anOperationKeepsItsStateAndItsErrors() throws {
    struct Tally: IndexTypeOperation {
      var names: [String] = []
      mutating func run<I: DescribedIndex>(_ type: I.Type) throws -> Int {
        names.append(I.name)
        if I.name == CellTree.name { throw IndexError.invalidParameter(name: "x", value: "y", reason: "z") }
        return names.count
      }
    }
    var tally = Tally()
    #expect(try withIndexType(named: KDTreeIndex.name, &tally) == 1)
    #expect(try withIndexType(named: GridHashIndex.name, &tally) == 2)
    #expect(throws: IndexError.self) { try withIndexType(named: CellTree.name, &tally) }
    #expect(tally.names == [KDTreeIndex.name, GridHashIndex.name, CellTree.name])
  }
}
