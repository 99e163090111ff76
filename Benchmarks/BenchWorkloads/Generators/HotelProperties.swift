import BenchFormats
import _SeededRandom

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seeded properties of the `hotels` generator: what a hotel map
/// filters on and sums.
///
/// - `stars`: 1…5 with shares 10%, 20%, 35%, 25%, 10% (``starShares``).
/// - `price`: log-normal, median 120 and σ 0.6 on the log scale
///   (`120 · e^(0.6 Z)`, Z standard normal), rounded half away from zero to
///   2 decimals: half the hotels under 120, 90% between 45 and 322.
/// - `chain`: `chain-1` … `chain-40` with Zipf shares (s = 1): `chain-k`
///   weighs 1/k, so `chain-1` has 23.4% of the hotels and `chain-40` 0.58%.
///
/// Each property comes from its own sub-stream of the seed, apart from the
/// points' streams: asking for properties leaves the points of a seed as
/// they were, one property does not shift another, and the first *n*
/// hotels of a larger count have the same values.
public enum HotelProperties {
  /// The names, in the order ``PropertyTable`` columns are documented.
  public static let names = ["stars", "price", "chain"]
  /// `starShares[k]` is the share of hotels with `k + 1` stars.
  public static let starShares = [0.10, 0.20, 0.35, 0.25, 0.10]
  public static let priceMedian = 120.0
  public static let priceSigma = 0.6
  public static let chainCount = 40

  /// The stream all properties come from: one the points never use.
  static func root(_ seed: UInt64) -> SplitMix64 { SplitMix64(seed: seed).fork(4) }

  /// `count` hotels' values of each property `requests` names, in order.
  ///
  /// `stars` and `price` may be asked for as numbers or categories (their
  /// text then, `4` or `123.45`); `chain` is a category only.
  ///
  /// - Throws: ``DatasetError/badProperty(dataset:property:reason:)`` for a
  ///   name the generator has not, a numeric `chain`, or a name twice.
  /// - Complexity: O(`count`) a property.
  public static func table(
    count: Int, seed: UInt64, properties requests: [PropertyRequest]
  ) throws(DatasetError) -> PropertyTable {
    precondition(count >= 0, "count must not be negative")
    if let name = requests.repeatedName {
      throw .badProperty(dataset: "hotels", property: name, reason: "is named twice")
    }
    let root = root(seed)
    let columns = try requests.map { r throws(DatasetError) -> PropertyTable.Column in
      switch (r.name, r.kind) {
      case ("stars", let kind):
        var g = root.fork(1)
        let table = AliasTable(weights: starShares)
        return column(r.name, kind, count: count, digits: 0) { Int64(table.pick(&g) + 1) }
      case ("price", let kind):
        var g = root.fork(2)
        return column(r.name, kind, count: count, digits: 2) {
          Int64((priceMedian * exp(priceSigma * g.nextGaussian()) * 100).rounded())
        }
      case ("chain", .category):
        var g = root.fork(3)
        let zipf = AliasTable(weights: (1...chainCount).map { 1 / Double($0) })
        let values = (1...chainCount).map { "chain-\($0)" }
        var c = CategoryColumn(name: r.name)
        for _ in 0..<count { c.append(values[zipf.pick(&g)]) }
        return .category(c)
      case ("chain", .number):
        throw .badProperty(
          dataset: "hotels", property: r.name, reason: "is a category (chain-1 … chain-\(chainCount)), not a number")
      default:
        throw .badProperty(
          dataset: "hotels", property: r.name,
          reason: "is not a property of it (it has \(names.joined(separator: ", ")))")
      }
    }
    return PropertyTable(columns: columns)
  }

  /// A column of `count` values `draw()` gives in units of 10^-`digits`:
  /// fixed point at that scale, or their text as categories.
  private static func column(
    _ name: String, _ kind: PropertyKind, count: Int, digits: Int, _ draw: () -> Int64
  ) -> PropertyTable.Column {
    switch kind {
    case .number:
      return .decimal(DecimalColumn(name: name, scale: digits, units: (0..<count).map { _ in draw() }))
    case .category:
      var c = CategoryColumn(name: name)
      for _ in 0..<count { c.append(DecimalColumn.text(draw(), scale: digits)) }
      return .category(c)
    }
  }
}
