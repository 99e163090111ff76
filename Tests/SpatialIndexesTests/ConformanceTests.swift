import SpatialIndexes
import Testing
import _SpatialTestSupport

/// The specification every index meets: the ids a plain filter over the
/// points gives (``IndexChecker``, no index's code, so the linear scan is
/// checked too), for every fixture and query, and a sound structure after
/// the build, by the index's own invariant checker, which every index has.
@Suite struct ConformanceTests {
  static let names = allIndexTypes.map { $0.name }

  @Test(arguments: names)
  func sameAnswersAsLinearScan(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    for fixture in Fixtures.standard() {
      try check(type, fixture)
    }
  }

  private func check<I: DescribedIndex>(_ type: I.Type, _ fixture: Fixture) throws {
    let index = try I(points: fixture.points)
    // every index has a checker: one without fails here rather than being skipped
    let checkable = try #require(index as? any InvariantChecking, "\(I.name) has no invariant checker")
    let broken = checkable._invariantViolations()
    #expect(broken.isEmpty, "\(I.name) on \(fixture): \(broken)")
    let checker = IndexChecker(points: fixture.points)
    let queries = QueryFixtures.queries(for: fixture.points, seed: UInt64(fixture.points.count))
    let problems = checker.differences(index, queries: queries)
    #expect(problems.isEmpty, "\(I.name) on \(fixture): \(problems.joined(separator: "; "))")
  }
}
