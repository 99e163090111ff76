import SpatialIndexes
import Testing
import _SpatialTestSupport

/// The specification every index meets: the same ids as the linear scan, for
/// every fixture and query, and a sound structure after the build.
@Suite struct ConformanceTests {
  static let names = allIndexTypes.map { $0.name }

  @Test(arguments: names)
  func sameAnswersAsLinearScan(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    for fixture in Fixtures.standard() {
      try check(type, fixture)
    }
  }

  private func check<I: SpatialIndex>(_ type: I.Type, _ fixture: Fixture) throws {
    let index = try I(points: fixture.points)
    if let checkable = index as? any InvariantChecking {
      let problems = checkable._invariantViolations()
      #expect(problems.isEmpty, "\(I.name) on \(fixture): \(problems)")
    }
    let checker = try IndexChecker(points: fixture.points)
    let queries = QueryFixtures.queries(for: fixture.points, seed: UInt64(fixture.points.count))
    let problems = checker.differences(index, queries: queries)
    #expect(problems.isEmpty, "\(I.name) on \(fixture): \(problems.joined(separator: "; "))")
  }
}
