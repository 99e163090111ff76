import BenchFormats
import MapClustering

/// A run's filter and aggregates as SQL over the points table: the
/// properties the run read as columns `p0`, `p1`… (a category as `text`, a
/// number as `int8` units of 10^-scale, as ``DecimalColumn`` holds it,
/// missing as `NULL`), the filter as a `WHERE` condition, the aggregates
/// as `sum`, `min` and `max` of those units.
///
/// Exact by construction: a bound with more fractional digits than the
/// column is rounded to the units that pass (`>=` up, `<=` down), a value of
/// `in` that no unit equals is dropped, and `NULL` never compares true, so a
/// point without a value never passes a clause on it. A sum that leaves
/// `int8` is an error in the server (`bigint out of range`), never a wrong
/// number.
struct PostGISFilter {
  /// Each property column: its name, its SQL column and its kind.
  let columns: [(name: String, sql: String, column: PropertyTable.Column)]
  /// The condition, `TRUE` for the empty filter.
  let condition: String
  /// Each aggregate's SQL over a cell's points (`sum(c.g0)::int8`) and the
  /// scale its units print at.
  let aggregates: [(select: String, group: String, scale: Int)]

  /// `filter` and `aggregates` over `properties` (the run's, read as the
  /// run typed them: ``RunFilter/requests``).
  init(filter: PointFilter, aggregates list: [ClusterAggregate], properties: PropertyTable) {
    columns = properties.columns.enumerated().map { k, c in (c.name, "p\(k)", c) }
    var clauses: [String] = []
    for c in filter.clauseList {
      guard let column = columns.first(where: { $0.name == c.field }) else {
        // the run checked its names against the points: never here
        clauses.append("FALSE")
        continue
      }
      clauses.append(Self.clause(column.sql, column.column, test: c.test, values: c.values))
    }
    condition = clauses.isEmpty ? "TRUE" : clauses.map { "(\($0))" }.joined(separator: " AND ")
    var aggregates: [(select: String, group: String, scale: Int)] = []
    for (k, a) in list.enumerated() {
      guard let column = columns.first(where: { $0.name == a.field }), case .decimal(let d) = column.column else {
        aggregates.append(("NULL::int8 AS g\(k)", "NULL::int8", 0))
        continue
      }
      aggregates.append(("\(column.sql) AS g\(k)", "\(a.function)(c.g\(k))::int8", d.scale))
    }
    self.aggregates = aggregates
  }

  /// The table's property columns, for `CREATE TABLE`.
  var columnDefinitions: String {
    columns.map { ",\n  \($0.sql) \($0.column.kind == .number ? "int8" : "text")" }.joined()
  }

  /// Point `i`'s property fields of the points file (`psql`'s CSV: an
  /// unquoted empty field is `NULL`, a category is always quoted).
  func csvFields(_ i: Int) -> String {
    var text = ""
    for (_, _, column) in columns {
      text += ","
      switch column {
      case .category(let c):
        guard let v = c.value(at: i) else { continue }
        text += "\"" + v.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
      case .decimal(let d):
        let u = d.units[i]
        if u != DecimalColumn.missing { text += String(u) }
      }
    }
    return text
  }

  /// One clause as SQL on column `sql`.
  static func clause(_ sql: String, _ column: PropertyTable.Column, test: String, values: [String]) -> String {
    switch column {
    case .category:
      guard test == "in", !values.isEmpty else { return "FALSE" }
      return "\(sql) IN (\(values.map(literal).joined(separator: ", ")))"
    case .decimal(let d):
      switch test {
      case "in":
        let units = values.compactMap { v -> Int64? in
          if case .exact(let u) = DecimalBound(v, scale: d.scale) { return u }
          return nil
        }
        return units.isEmpty ? "FALSE" : "\(sql) IN (\(units.map(String.init).joined(separator: ", ")))"
      case ">=":
        switch DecimalBound(values.first ?? "", scale: d.scale) {
        case .exact(let u): return "\(sql) >= \(u)"
        case .between(let below, _): return below == Int64.max ? "FALSE" : "\(sql) >= \(below + 1)"
        case .beyond(let positive): return positive ? "FALSE" : "\(sql) IS NOT NULL"
        }
      default:
        switch DecimalBound(values.first ?? "", scale: d.scale) {
        case .exact(let u): return "\(sql) <= \(u)"
        case .between(let below, _): return "\(sql) <= \(below)"
        case .beyond(let positive): return positive ? "\(sql) IS NOT NULL" : "FALSE"
        }
      }
    }
  }

  /// `text` as an SQL string literal (`'` doubled; standard strings, so a
  /// backslash is itself).
  static func literal(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
  }
}

/// A decimal (`-?digits[.digits]`) against a column's units of
/// 10^-`scale`: a whole number of units, strictly between two (`below` and
/// `below + 1`), or beyond every `Int64` unit.
enum DecimalBound: Equatable {
  case exact(Int64)
  case between(below: Int64, above: Int64)
  case beyond(positive: Bool)

  init(_ text: String, scale: Int) {
    var s = Substring(text)
    let negative = s.first == "-"
    if negative { s = s.dropFirst() }
    let parts = s.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let whole = parts[0].drop { $0 == "0" }
    let fraction = parts.count > 1 ? parts[1] : ""
    let kept = fraction.prefix(scale) + String(repeating: "0", count: max(0, scale - fraction.count))
    let rest = fraction.dropFirst(scale)
    // at most 18 digits always fit in an Int64
    let digits = whole + kept
    guard digits.count <= 18, let magnitude = Int64(digits.isEmpty ? "0" : String(digits)) else {
      self = .beyond(positive: !negative)
      return
    }
    let inexact = rest.contains { $0 != "0" }
    if !inexact {
      self = .exact(negative ? -magnitude : magnitude)
    } else if negative {
      self = .between(below: -magnitude - 1, above: -magnitude)
    } else {
      self = .between(below: magnitude, above: magnitude + 1)
    }
  }
}
