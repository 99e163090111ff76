import BenchWorkloads
import Testing

/// A dataset's external ids: listed ones as given, and a generated
/// dataset's row numbers computed rather than stored.
@Suite struct ExternalIDsTests {
  @Test func aGeneratedDatasetsIdsAreItsRowNumbers() throws {
    let sets = try Datasets.load("uniform", counts: [0, 5], seed: 1)
    #expect(sets.map(\.ids.count) == [0, 5])
    #expect(Array(sets[1].ids) == [0, 1, 2, 3, 4])
    #expect(sets[1].ids == .rows(5))
  }

  @Test func listedIdsStayAsGiven() {
    let ids = ExternalIDs([70, 3, 12])
    #expect(Array(ids) == [70, 3, 12])
    #expect(ids[2] == 12)
    #expect(ids != .rows(3))
    #expect(ExternalIDs([0, 1, 2]) == .rows(3), "listed and computed ids compare by what they hold")
  }
}
