import BenchFormats
import BenchWorkloads
import Foundation
import SpatialIndexes
import Testing
import _SpatialTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hotels generator's seeded properties: their distributions, their
/// determinism, and the points they leave where they were.
@Suite struct HotelPropertiesTests {
  static let all: [PropertyRequest] = [.number("stars"), .number("price"), .category("chain")]
  static let n = 100_000
  static let table = try! HotelProperties.table(count: n, seed: 42, properties: all)

  /// Shares of each code of `column` among the points.
  func shares(_ column: CategoryColumn) -> [String: Double] {
    var counts: [String: Int] = [:]
    for i in 0..<column.count { counts[column.value(at: i)!, default: 0] += 1 }
    return counts.mapValues { Double($0) / Double(column.count) }
  }

  @Test func starsFollowTheirShares() throws {
    let stars = try #require(Self.table.decimal("stars"))
    #expect(stars.scale == 0)
    var counts = [Int](repeating: 0, count: 6)
    for u in stars.units { counts[Int(u)] += 1 }
    #expect(counts[0] == 0)
    // the standard error of a share near 0.35 at n = 100,000 is 0.0015
    for (k, share) in HotelProperties.starShares.enumerated() {
      #expect(abs(Double(counts[k + 1]) / Double(Self.n) - share) < 0.005, "\(k + 1) stars")
    }
  }

  @Test func chainsFollowZipf() throws {
    let chain = try #require(Self.table.category("chain"))
    let s = shares(chain)
    #expect(s.count == 40)
    let harmonic = (1...40).reduce(0.0) { $0 + 1 / Double($1) }
    for k in 1...40 {
      let expected = 1 / (Double(k) * harmonic)
      #expect(abs(s["chain-\(k)"]! - expected) < 0.005, "chain-\(k)")
    }
    #expect(s["chain-1"]! > s["chain-2"]! && s["chain-2"]! > s["chain-3"]!, "chain-1 the largest")
  }

  @Test func pricesAreLogNormalWithCents() throws {
    let price = try #require(Self.table.decimal("price"))
    #expect(price.scale == 2)
    let values = price.units.map { Double($0) / 100 }.sorted()
    #expect(values.first! > 0)
    let median = values[Self.n / 2]
    #expect(abs(median - 120) < 2, "median \(median)")
    let logs = values.map(log)
    let mean = logs.reduce(0, +) / Double(Self.n)
    let sigma = (logs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(Self.n)).squareRoot()
    #expect(abs(mean - log(120)) < 0.01)
    #expect(abs(sigma - 0.6) < 0.01, "sigma \(sigma)")
  }

  @Test func sameSeedSameValuesAndAShorterRunIsAPrefix() throws {
    let again = try HotelProperties.table(count: Self.n, seed: 42, properties: Self.all)
    #expect(again == Self.table)
    let short = try HotelProperties.table(count: 1000, seed: 42, properties: Self.all)
    #expect(short == Self.table.gathering(Array(0..<1000)))
    let other = try HotelProperties.table(count: 1000, seed: 43, properties: Self.all)
    #expect(other.decimal("price") != short.decimal("price"))
  }

  @Test func onePropertyDoesNotShiftAnother() throws {
    let price = try HotelProperties.table(count: 1000, seed: 42, properties: [.number("price")])
    #expect(price.decimal("price") == Self.table.gathering(Array(0..<1000)).decimal("price"))
  }

  @Test func aCategoryHoldsTheNumbersText() throws {
    let t = try HotelProperties.table(count: 1000, seed: 42, properties: [.category("stars"), .category("price")])
    let numbers = Self.table.gathering(Array(0..<1000))
    for i in 0..<1000 {
      #expect(t.category("stars")?.value(at: i) == numbers.decimal("stars")?.text(at: i))
      #expect(t.category("price")?.value(at: i) == numbers.decimal("price")?.text(at: i))
    }
  }

  @Test func whatTheGeneratorHasNotIsAnError() {
    #expect(throws: DatasetError.badProperty(
      dataset: "hotels", property: "phone", reason: "is not a property of it (it has stars, price, chain)")) {
      try HotelProperties.table(count: 1, seed: 1, properties: [.category("phone")])
    }
    #expect(throws: DatasetError.badProperty(
      dataset: "hotels", property: "chain", reason: "is a category (chain-1 … chain-40), not a number")) {
      try HotelProperties.table(count: 1, seed: 1, properties: [.number("chain")])
    }
    #expect(throws: DatasetError.badProperty(dataset: "hotels", property: "stars", reason: "is named twice")) {
      try HotelProperties.table(count: 1, seed: 1, properties: [.number("stars"), .category("stars")])
    }
    #expect(throws: DatasetError.self) {
      try Datasets.load("uniform", counts: [10], seed: 1, properties: [.number("price")])
    }
  }

  /// The SHA-256 of the `.f64` bytes `bench export --dataset hotels --n N
  /// --seed S --points-out FILE.f64` wrote before hotels had properties:
  /// asking for them must not move a point.
  @Test(arguments: [
    (1000, 1 as UInt64, "13dab01657922ed373749f5a5cf592fa0b38d1f7801e45f792ac12b90575a9b9"),
    (100_000, 42 as UInt64, "3acbbb78aaf20424c80481db76f00655b6ccb276f62681d92ba94dd2f7bb3090"),
  ])
  func theHotelsPointsDoNotMove(_ n: Int, _ seed: UInt64, _ sha: String) throws {
    let plain = try Datasets.load("hotels", counts: [n], seed: seed)[0]
    let withProperties = try Datasets.load("hotels", counts: [n], seed: seed, properties: Self.all)[0]
    #expect(sha256Hex(BinaryPoints.bytes(withProperties.points)) == sha)
    #expect(withProperties.points == plain.points)
    #expect(plain.properties == .none)
    #expect(withProperties.properties.names == ["stars", "price", "chain"])
    #expect(withProperties.properties.columns.allSatisfy { $0.count == n })
  }
}

/// Datasets carry the properties a run names, through samples too.
@Suite struct DatasetPropertiesTests {
  @Test func aBundledFilesColumnsAndASampleOfThem() throws {
    let all = try Datasets.load("zipcodes", counts: nil, seed: 1, properties: [.category("st")])[0]
    let st = try #require(all.properties.category("st"))
    #expect(st.count == all.count)
    #expect(st.values.contains("NY") && st.values.contains("PR"))
    let sample = try Datasets.load("zipcodes", counts: [500], seed: 3, properties: [.category("st")])[0]
    let sampled = try #require(sample.properties.category("st"))
    #expect(sampled.count == 500)
    // each sampled point keeps its own row's value
    let byID = Dictionary(uniqueKeysWithValues: (0..<all.count).map { (all.ids[$0], st.value(at: $0)) })
    for i in 0..<500 { #expect(sampled.value(at: i) == byID[sample.ids[i]]!) }
  }
}
