import BenchFormats
import BenchWorkloads
import SpatialIndexes
import Testing
@testable import MapClustering

/// The bench's property columns reach the clustering library as they are:
/// the same arrays (a category's codes narrowed to their width), the same
/// answers.
@Suite struct PointPropertiesTests {
  static let table = try! HotelProperties.table(
    count: 5000, seed: 42, properties: [.number("stars"), .number("price"), .category("chain")])

  @Test func theNumbersAreSharedAndTheCodesNarrowed() throws {
    let properties = try Self.table.pointProperties()
    #expect(properties.names == ["stars", "price", "chain"])
    func base<T>(_ a: [T]) -> UnsafeRawPointer? { a.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
    guard case .number(_, let units, let scale) = properties.columns[1],
          case .category(_, .bytes(let codes), let values) = properties.columns[2] else {
      Issue.record("columns of the wrong kind or width")
      return
    }
    let price = try #require(Self.table.decimal("price")), chain = try #require(Self.table.category("chain"))
    #expect(base(units) == base(price.units) && scale == price.scale)
    #expect(codes.map { $0 == .max ? CategoryColumn.missing : UInt32($0) } == chain.codes && values == chain.values)
  }

  /// A run counts the columns as the library holds them: 8 bytes a point
  /// a number, a byte a point for a category of 40 values, and its table.
  @Test func aRunCountsTheColumnsInTheirWidth() throws {
    let run = try RunFilter(filter: PointFilter(parsing: "stars >= 4 and chain = chain-1"), aggregates: [.min("price")])
      .compiled(Self.table, steps: 1)
    let chain = try #require(Self.table.category("chain"))
    let tableBytes = chain.values.reduce(0) { $0 + $1.utf8.count + 16 }
    #expect(run.propertyBytes == 5000 * (8 + 8 + 1) + tableBytes)
  }

  /// A filter on the converted columns keeps what the columns' own values say.
  @Test func aFilterReadsTheSameValues() throws {
    let query = try PropertyQuery(
      filter: PointFilter(parsing: "stars >= 4 and price <= 100 and chain in (chain-1, chain-7)"),
      properties: Self.table.pointProperties())
    let stars = Self.table.decimal("stars")!, price = Self.table.decimal("price")!
    let chain = Self.table.category("chain")!
    let hundred = (0..<price.scale).reduce(Int64(100)) { v, _ in v * 10 }
    var kept = 0
    for i in 0..<5000 {
      let expected = stars.units[i] >= 4 && price.units[i] <= hundred && price.units[i] != DecimalColumn.missing
        && ["chain-1", "chain-7"].contains(chain.value(at: i) ?? "")
      #expect(query.matches(Int32(i)) == expected, "point \(i)")
      if expected { kept += 1 }
    }
    #expect(kept > 50)
  }
}
