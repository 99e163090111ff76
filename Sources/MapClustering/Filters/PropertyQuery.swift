/// A filter compiled against the points' properties, ready for the
/// clusterer (``Clusterer/cluster(_:strategy:query:into:aggregates:)``)
/// or a test of one point (``matches(_:)``).
///
/// Compiling resolves each field to its column, once: a category's values
/// to their codes (a bit set), a number's bounds to the column's units,
/// exactly (see below), and clauses `>=` and `<=` on one column to one
/// range. Testing a point is then a few integer compares. A change of
/// filter is a new query, made in O(clauses + the tables of the categories
/// named): the clusterer and its index are not rebuilt.
///
/// **Types.** A clause on a number column compares by value: `stars = 4.0`
/// keeps the 4s, `price >= 10.001` on a column of cents keeps 10.01 and up
/// (a bound finer than the column is never rounded: `u >= ⌈x·10^scale⌉`,
/// `u <= ⌊x·10^scale⌋`, and `=` keeps nothing unless `x·10^scale` is
/// whole). A clause on a category compares exact strings.
///
/// ```swift
/// let query = try PropertyQuery(filter: PointFilter(parsing: "stars >= 4"), properties: properties)
/// query.matches(17)  // whether point 17 has 4 stars or more
/// ```
public struct PropertyQuery: Sendable {
  /// The compiled clauses, all of which a point must pass.
  let tests: [_PropertyTest]
  /// How many points the properties describe; nil when they have no column.
  @usableFromInline let _count: Int?
  /// Whether a clause can pass no point (a value no point has, an empty
  /// range): the filter then passes none.
  @usableFromInline let _passesNothing: Bool

  /// Compiles `filter` (nil: every point passes) against `properties`.
  ///
  /// - Throws: ``ClusteringError/invalidFilter(_:position:)`` when a
  ///   clause names a field no column has, compares a category with `>=`
  ///   or `<=`, or gives a number column a value that is not a decimal;
  ///   the position is the field's or the value's in a parsed filter.
  /// - Complexity: O(*c* + *v*) for *c* clauses and *v* values in the
  ///   tables of the categories they name.
  public init(filter: PointFilter? = nil, properties: PointProperties) throws(ClusteringError) {
    let filter = filter ?? PointFilter(clauses: [], source: nil)
    var tests: [_PropertyTest] = []
    var nothing = false
    // `>=` and `<=` on one column: one range, at the first clause's place
    var ranges: [String: Int] = [:]
    for (k, clause) in filter.clauses.enumerated() {
      guard let column = properties.column(named: clause.field) else {
        throw .invalidFilter(Self.unknown(clause.field, properties), position: filter.position(clause: k))
      }
      switch column {
      case .category(_, let codes, let values):
        guard clause.test == .oneOf else {
          throw .invalidFilter(
            "\(_FilterParser.shown(clause.field)) is a category: \(clause.test == .atLeast ? ">=" : "<=") compares numbers",
            position: filter.position(clause: k))
        }
        let wanted = Set(clause.values.filter { !$0.isEmpty })
        var bits = [UInt64](repeating: 0, count: (values.count + 63) / 64)
        var found: [UInt32] = []
        for (c, v) in values.enumerated() where wanted.contains(v) {
          bits[c >> 6] |= 1 << UInt64(c & 63)
          found.append(UInt32(c))
        }
        switch found.count {
        case 0: nothing = true
        case 1: tests.append(.code(codes: codes, code: found[0]))
        default: tests.append(.codes(codes: codes, bits: bits))
        }
      case .number(_, let units, let scale):
        var numbers: [_FilterDecimal] = []
        for (j, v) in clause.values.enumerated() {
          guard let d = _FilterDecimal(v) else {
            throw .invalidFilter(
              "\(_FilterParser.shown(v)) is not a number (-?digits[.digits]): \(_FilterParser.shown(clause.field)) is numeric",
              position: filter.position(clause: k, value: j))
          }
          numbers.append(d)
        }
        var lo = Int64.min + 1, hi = Int64.max
        switch clause.test {
        case .oneOf:
          // the values that are whole numbers of units; another matches none
          var exact: [Int64] = []
          for d in numbers {
            let s = d.scaled(scale)
            if s.exact, case .units(let u) = s.floor { exact.append(u) }
          }
          exact = Array(Set(exact)).sorted()
          if exact.isEmpty {
            nothing = true
          } else if exact.count == 1 {
            tests.append(.range(units: units, lo: exact[0], hi: exact[0]))
          } else {
            tests.append(.anyOf(units: units, values: exact))
          }
          continue
        case .atLeast:
          switch numbers[0].scaled(scale).ceiling {
          case .below: break
          case .units(let u): lo = Swift.max(lo, u)
          case .above: nothing = true
          }
        case .atMost:
          switch numbers[0].scaled(scale).floor {
          case .below: nothing = true
          case .units(let u): hi = u
          case .above: break
          }
        }
        if let r = ranges[clause.field], case .range(_, let lo0, let hi0) = tests[r] {
          lo = Swift.max(lo, lo0)
          hi = Swift.min(hi, hi0)
          tests[r] = .range(units: units, lo: lo, hi: hi)
        } else {
          ranges[clause.field] = tests.count
          tests.append(.range(units: units, lo: lo, hi: hi))
        }
        if lo > hi { nothing = true }
      }
    }
    self.tests = tests
    _count = properties.count
    _passesNothing = nothing
  }

  /// The message for a field no column has, naming those there are.
  private static func unknown(_ field: String, _ properties: PointProperties) -> String {
    let names = properties.names
    guard !names.isEmpty else { return "no property called \(_FilterParser.shown(field)): the points have none" }
    let listed = names.prefix(12).map(_FilterParser.shown).joined(separator: ", ")
    return "no property called \(_FilterParser.shown(field)) (the points have \(listed)\(names.count > 12 ? ", …" : ""))"
  }

  /// Whether point `id` passes the filter; `false` for an id the
  /// properties do not describe.
  ///
  /// - Complexity: O(clauses).
  public func matches(_ id: Int32) -> Bool {
    guard id >= 0, _count.map({ Int(id) < $0 }) ?? true, !_passesNothing else { return false }
    return tests.allSatisfy { $0.passes(Int(id)) }
  }

  /// Whether the filter passes every point: no clause.
  @usableFromInline var _passesAll: Bool { tests.isEmpty && !_passesNothing }

  /// Keeps the ids of `ids` that pass (valid ids: below the properties'
  /// count), in order: one column at a time.
  @usableFromInline func _retain(_ ids: inout [Int32]) {
    if _passesNothing { return ids.removeAll(keepingCapacity: true) }
    for t in tests where !ids.isEmpty { t.retain(&ids) }
  }
}
