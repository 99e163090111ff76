import SpatialIndexes
import Testing
import _SpatialTestSupport

/// Data shapes that broke the original design: every index must build them
/// and answer exactly, without deep recursion, endless loops or crashes.
@Suite struct DegenerateDataTests {
  static let names = allIndexTypes.map { $0.name }

  /// The original quadtree overflowed its stack on a few hundred thousand
  /// identical points; here every index builds a million of them.
  @Test(arguments: names)
  func oneMillionIdenticalPoints(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try check(type, Fixtures.identical(1_000_000))
  }

  @Test(arguments: names)
  func polesAndAntimeridian(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    var points: [Point] = []
    for lon in [-180.0, 180, 0] {
      for lat in [-90.0, 90, 0] { points += Array(repeating: Point(x: lon, y: lat), count: 3) }
    }
    try check(type, points)
  }

  private func check<I: DescribedIndex>(_ type: I.Type, _ points: [Point]) throws {
    let index = try I(points: points)
    #expect(index.count == points.count)
    let p = points[0]
    #expect(index.count(in: Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y))
      == points.count { $0 == p })
    #expect(index.count(in: .world) == points.count)
    #expect(index.count(in: Rect(minX: p.x + 1e-9, minY: -90, maxX: 200, maxY: 90))
      == points.count { $0.x > p.x })
    if points.count <= 10_000 {
      let problems = IndexChecker(points: points)
        .differences(index, queries: QueryFixtures.queries(for: points, count: 40, seed: 1))
      #expect(problems.isEmpty, "\(I.name): \(problems)")
    }
  }
}
