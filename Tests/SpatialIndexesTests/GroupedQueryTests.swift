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
  var ids: [Int32] = []
  var groups = 0
  var grouped = 0
  var lastBox: Rect?
  var problems: [String] = []

  mutating func acceptsGroup(in box: Rect) -> Bool {
    if !rect.contains(box) { problems.append("box \(box) offered outside \(rect)") }
    state = state &* 6364136223846793005 &+ 1442695040888963407
    let accept = state >> 33 < (1 << 31) * 7 / 10
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

/// The grouped query (``SpatialIndex/forEachGroup(in:counters:_:)``) hands
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

  private func check<I: SpatialIndex>(_ type: I.Type, _ fixture: Fixture) throws {
    let index = try I(points: fixture.points)
    let reference = try LinearScanIndex(points: fixture.points)
    for (k, rect) in QueryFixtures.queries(for: fixture.points, count: 100, seed: 9).enumerated() {
      var visitor = RecordingVisitor(
        order: index.groupOrder, points: fixture.points, rect: rect, state: UInt64(k))
      var none = NoCounters()
      index.forEachGroup(in: rect, counters: &none, &visitor)
      #expect(visitor.problems.isEmpty, "\(I.name) \(fixture) \(rect): \(visitor.problems.prefix(3))")
      #expect(visitor.ids.sorted() == reference.ids(in: rect).sorted(),
              "\(I.name) \(fixture) \(rect)")
    }
  }

  @Test func theKDTreeHandsOverWholeSubtrees() throws {
    let points = Fixtures.uniform(20_000, seed: 4)
    let index = try KDTreeIndex(points: points)
    #expect(index.groupOrder.sorted() == (0..<Int32(points.count)).map { $0 })
    var visitor = RecordingVisitor(
      order: index.groupOrder, points: points, rect: .world, state: 1)
    var none = NoCounters()
    index.forEachGroup(in: .world, counters: &none, &visitor)
    // the root's box is inside the world: with a 70% chance of accepting each
    // box, nearly every point arrives in a group
    #expect(visitor.ids.count == points.count)
    #expect(visitor.grouped > points.count * 9 / 10)
  }

  @Test(arguments: ["linear", "quadtree", "grid"])
  func indexesWithoutGroupsHandOverIDsAlone(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    #expect(try Self.groupOrderCount(type, Fixtures.uniform(1000, seed: 5)) == 0)
  }

  private static func groupOrderCount<I: SpatialIndex>(_ type: I.Type, _ points: [Point]) throws -> Int {
    try I(points: points).groupOrder.count
  }
}

/// Records which concrete type ``withIndexType(named:_:)`` runs with.
private struct NameOf: IndexTypeOperation {
  func run<I: SpatialIndex>(_ type: I.Type) -> ObjectIdentifier { ObjectIdentifier(type) }
}

@Suite struct IndexCatalogTests {
  @Test func withIndexTypeCoversEveryIndexType() throws {
    var operation = NameOf()
    for type in allIndexTypes {
      #expect(try withIndexType(named: type.name, &operation) == ObjectIdentifier(type))
      #expect(try withIndexType(named: type.name.uppercased(), &operation) == ObjectIdentifier(type))
    }
    #expect(try withIndexType(named: "rtree", &operation) == nil)
  }
}
