import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport

/// Many small seeded cases instead of a few big ones: 60 random datasets of
/// random shape and size, 180 queries each, every index against the linear
/// scan: 10,800 (dataset, query) cases per index.
@Suite struct RandomizedCrossCheckTests {
  static let datasets = 60
  static let queriesPerDataset = 180

  @Test(arguments: allIndexTypes.map { $0.name })
  func randomCasesAgreeWithLinearScan(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    var cases = 0
    for seed in 0..<UInt64(Self.datasets) {
      cases += try check(type, seed: seed)
    }
    #expect(cases == Self.datasets * Self.queriesPerDataset)
  }

  /// One dataset: its shape, size and queries all come from `seed`.
  private func check<I: DescribedIndex>(_ type: I.Type, seed: UInt64) throws -> Int {
    var g = SplitMix64(seed: 0xC0FFEE ^ seed)
    let n = [0, 1, 2, 15, 16, 17, 63, 64, 65, 200, 1000][g.nextInt(below: 11)]
    let points: [Point]
    switch g.nextInt(below: 5) {
    case 0: points = Fixtures.uniform(n, seed: seed)
    case 1: points = Fixtures.clustered(n, blobs: 1 + g.nextInt(below: 5), seed: seed)
    case 2: points = Fixtures.identical(n)
    case 3: points = Fixtures.line(n, diagonal: g.nextInt(below: 2) == 0, seed: seed)
    default:  // a small lattice: many duplicates and points on shared edges
      points = (0..<n).map { _ in
        Point(x: Double(g.nextInt(below: 9)) - 4, y: Double(g.nextInt(below: 9)) - 4)
      }
    }
    let index = try I(points: points)
    let queries = Array(
      QueryFixtures.queries(for: points, count: Self.queriesPerDataset, seed: seed)
        .prefix(Self.queriesPerDataset))
    let problems = IndexChecker(points: points).differences(index, queries: queries)
    #expect(problems.isEmpty, "\(I.name), seed \(seed), n \(n): \(problems)")
    return queries.count
  }
}
