import BenchFormats
import MapClustering
import _SeededRandom

/// Draws a fuzz case's properties, its filters and its aggregates: data
/// that carry values, and questions about them that are hard on purpose.
///
/// **Columns** (one to four): numbers `n0`, `n1` (scale 0, 2 or 9) and
/// categories `c0`, `c1`. Each column's values come from a small pool, so
/// ties are many and a filter's bound often equals a value exactly. A
/// number pool mixes zero, negatives, and the extremes a column can hold
/// (±(2^63 − 1) units: a few such points sum beyond 64 bits). A category
/// pool mixes plain values with ones that need quoting (`a,b`, `"q"`, ` IR`,
/// `and`). A share of each column is missing (none, some, most, all).
/// Values are drawn point by point, so the copies of one place carry
/// different values.
///
/// **Filters** (the run's, and one for each step of the filter session):
/// none (every point), or one to three clauses `in`, `=`, `>=`, `<=`, whose
/// values are mostly the column's own (as written, with trailing zeros
/// added, `-0.00` for zero), sometimes a value no point has, a bound
/// beyond every value (keeps nothing or every point with a value), or a
/// bound finer than the column's scale.
///
/// **Aggregates**: none, or one to four of `sum`, `min`, `max` over the
/// number columns, repeats allowed.
public enum FuzzProperties {
  /// The stream properties are drawn from, apart from the points' and
  /// steps': the cases drawn before properties existed are unchanged.
  static let stream: UInt64 = 0x70_726f_7073

  /// Plain and hostile category values.
  static let categoryPool = ["a", "b", "chain-7", "a,b", "\"q\"", " IR", "and", "in", "(x)", "é", "A"]

  /// Properties, the run's filter clauses and aggregates, and each of
  /// `stepCount` steps' filter, for `pointCount` points; `nil` for a case
  /// without properties (a third of them).
  static func draw(
    pointCount n: Int, stepCount: Int, _ g: inout SplitMix64
  ) -> (properties: PropertyTable, filter: [String], aggregates: [ClusterAggregate], steps: [String?])? {
    guard g.nextInt(below: 3) != 0 else { return nil }
    var columns: [PropertyTable.Column] = []
    let numbers = 1 + g.nextInt(below: 2), categories = g.nextInt(below: 3)
    for k in 0..<numbers { columns.append(.decimal(decimalColumn("n\(k)", n, &g))) }
    for k in 0..<categories { columns.append(.category(categoryColumn("c\(k)", n, &g))) }
    let table = PropertyTable(columns: columns)
    let filter = clauses(table, &g)
    let numberNames = (0..<numbers).map { "n\($0)" }
    var aggregates: [ClusterAggregate] = []
    if g.nextInt(below: 4) != 0 {
      for _ in 0..<1 + g.nextInt(below: 4) {
        let f = numberNames[g.nextInt(below: numberNames.count)]
        aggregates.append([ClusterAggregate.sum(f), .min(f), .max(f)][g.nextInt(below: 3)])
      }
    }
    let steps: [String?] = (0..<stepCount).map { _ in
      let c = clauses(table, &g)
      return c.isEmpty ? nil : c.joined(separator: " and ")
    }
    return (table, filter, aggregates, steps)
  }

  /// The share of a column's values that are missing.
  static func missingShare(_ g: inout SplitMix64) -> Double {
    HostileSpots.pick([0, 0, 0.1, 0.5, 1], &g)!
  }

  static func decimalColumn(_ name: String, _ n: Int, _ g: inout SplitMix64) -> DecimalColumn {
    let scale = HostileSpots.pick([0, 2, 2, 9], &g)!
    var pool: [Int64] = [0]
    for _ in 0..<1 + g.nextInt(below: 6) {
      switch g.nextInt(below: 6) {
      case 0: pool.append(.max - Int64(g.nextInt(below: 3)))  // sums beyond 64 bits
      case 1: pool.append(Int64.min + 1 + Int64(g.nextInt(below: 3)))
      case 2: pool.append(-Int64(1 + g.nextInt(below: 1000)))
      default: pool.append(Int64(g.nextInt(below: 100_000)))
      }
    }
    let missing = missingShare(&g)
    let units = (0..<n).map { _ in g.nextUnit() < missing ? DecimalColumn.missing : pool[g.nextInt(below: pool.count)] }
    return DecimalColumn(name: name, scale: scale, units: units)
  }

  static func categoryColumn(_ name: String, _ n: Int, _ g: inout SplitMix64) -> CategoryColumn {
    let pool = (0..<1 + g.nextInt(below: 5)).map { _ in categoryPool[g.nextInt(below: categoryPool.count)] }
    let missing = missingShare(&g)
    return CategoryColumn(name: name, values: (0..<n).map { _ in
      g.nextUnit() < missing ? nil : pool[g.nextInt(below: pool.count)]
    })
  }

  /// A filter's clauses over `table`: none a fifth of the time, else one
  /// to three.
  static func clauses(_ table: PropertyTable, _ g: inout SplitMix64) -> [String] {
    guard g.nextInt(below: 5) != 0 else { return [] }
    return (0..<1 + g.nextInt(below: 3)).map { _ in
      let column = table.columns[g.nextInt(below: table.columns.count)]
      let field = FilterSession.quoted(column.name)
      func some(_ value: (inout SplitMix64) -> String) -> String {
        (0..<1 + g.nextInt(below: 3)).map { _ in value(&g) }.joined(separator: ", ")
      }
      switch column {
      case .category(let c):
        func value(_ g: inout SplitMix64) -> String {
          FilterSession.quoted(g.nextInt(below: 6) == 0 || c.values.isEmpty
            ? categoryPool[g.nextInt(below: categoryPool.count)] : c.values[g.nextInt(below: c.values.count)])
        }
        return g.nextInt(below: 2) == 0 ? "\(field) = \(value(&g))" : "\(field) in (\(some(value)))"
      case .decimal(let d):
        func value(_ g: inout SplitMix64) -> String { numberText(d, &g) }
        switch g.nextInt(below: 4) {
        case 0: return "\(field) >= \(value(&g))"
        case 1: return "\(field) <= \(value(&g))"
        case 2: return "\(field) = \(value(&g))"
        default: return "\(field) in (\(some(value)))"
        }
      }
    }
  }

  /// A number a clause compares a column with: mostly one of its values as
  /// written, else the same with more digits, zero as `-0.00`, a value
  /// between units, a value beyond every unit, or any small number.
  static func numberText(_ column: DecimalColumn, _ g: inout SplitMix64) -> String {
    let held = column.units.filter { $0 != DecimalColumn.missing }
    let u = held.isEmpty ? 0 : held[g.nextInt(below: held.count)]
    let text = DecimalColumn.text(u, scale: column.scale)
    switch g.nextInt(below: 10) {
    case 0..<4: return text
    case 4: return (text.contains(".") ? text : text + ".") + "00"  // 1.50 for 1.5
    case 5: return HostileSpots.pick(["-0.00", "-0", "0.000"], &g)!
    case 6: return (text.contains(".") ? text : text + ".") + "0000000001"  // between two units
    case 7: return HostileSpots.pick(["99999999999999999999", "-99999999999999999999.5"], &g)!
    default: return String(g.nextInt(below: 2001) - 1000)
    }
  }
}
