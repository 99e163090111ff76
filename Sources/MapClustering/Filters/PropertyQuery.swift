/// A filter and a list of aggregates compiled against the points'
/// properties, ready for the clusterer
/// (``Clusterer/cluster(_:strategy:query:into:aggregates:)``) or a test of
/// one point (``matches(_:)``).
///
/// Compiling resolves each field to its column, once: a category's values
/// to their codes (a bit set), a number's bounds to the column's units,
/// exactly (see below); the clauses `>=` and `<=` on one column make one
/// range, those on one category one set of codes. Testing a point is then a few integer compares. A change of
/// filter is a new query, made in O(clauses + the tables of the categories
/// named): the clusterer and its index are not rebuilt.
///
/// **Types.** A clause on a number column compares by value: `stars = 4.0`
/// keeps the 4s, `price >= 10.001` on a column of cents keeps 10.01 and up
/// (a bound finer than the column is never rounded: `u >= ⌈x·10^scale⌉`,
/// `u <= ⌊x·10^scale⌋`, and `=` keeps nothing unless `x·10^scale` is
/// whole). A clause on a category compares exact strings. An aggregate
/// reads a number column.
///
/// ```swift
/// let query = try PropertyQuery(filter: PointFilter(parsing: "stars >= 4"),
///                               aggregates: [.min("price")], properties: properties)
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
  /// The number columns the aggregates read, each once: a cell keeps one
  /// ``_FieldTotals`` for each.
  let sources: [[Int64]]
  /// Each aggregate asked, in order: its source, its function, its scale.
  let outputs: [(source: Int, function: _AggregateFunction, scale: Int)]

  /// Compiles `filter` (nil: every point passes) and `aggregates` against
  /// `properties`.
  ///
  /// - Throws: ``ClusteringError/invalidFilter(_:position:)`` when a
  ///   clause names a field no column has, compares a category with `>=`
  ///   or `<=`, or gives a number column a value that is not a decimal
  ///   (the position is the field's or the value's in a parsed filter), or
  ///   an aggregate names a field that is not a number column.
  /// - Complexity: O(*c* + *v*) for *c* clauses and *v* values in the
  ///   tables of the categories they name.
  public init(
    filter: PointFilter? = nil, aggregates: [ClusterAggregate] = [], properties: PointProperties
  ) throws(ClusteringError) {
    let filter = filter ?? PointFilter(clauses: [], source: nil)
    var tests: [_PropertyTest] = []
    var nothing = false
    // `>=` and `<=` on one column: one range, at the first clause's place
    var ranges: [String: Int] = [:]
    // `in` and `=` on one category: one set of codes, likewise
    var categories: [String: (test: Int, column: _CategoryCodes, codes: Set<UInt32>)] = [:]
    var lookups: [String: [String: [UInt32]]] = [:]
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
        // the codes of the values (a value may have several; an empty one
        // is missing), intersected with earlier clauses' on the column
        if lookups[clause.field] == nil {
          var lookup: [String: [UInt32]] = [:]
          for (c, v) in values.enumerated() where !v.isEmpty { lookup[v, default: []].append(UInt32(c)) }
          lookups[clause.field] = lookup
        }
        var found = Set(clause.values.flatMap { lookups[clause.field]![$0] ?? [] })
        if let earlier = categories[clause.field] {
          found.formIntersection(earlier.codes)
          categories[clause.field]!.codes = found
        } else {
          categories[clause.field] = (tests.count, codes, found)
          tests.append(.code(codes: codes, code: .max))  // its place: made below
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
    for (test, column, codes) in categories.values {
      if codes.count == 1 {
        tests[test] = .code(codes: column, code: codes.first!)
      } else if let top = codes.max() {
        var bits = [UInt64](repeating: 0, count: Int(top) / 64 + 1)
        for c in codes { bits[Int(c) >> 6] |= 1 << UInt64(c & 63) }
        tests[test] = .codes(codes: column, bits: bits)
      } else {
        nothing = true
      }
    }
    self.tests = tests
    _count = properties.count
    _passesNothing = nothing

    var sources: [[Int64]] = [], sourceNames: [String] = []
    var outputs: [(source: Int, function: _AggregateFunction, scale: Int)] = []
    for a in aggregates {
      guard let column = properties.column(named: a.field) else {
        throw .invalidFilter("\(a.text): " + Self.unknown(a.field, properties), position: nil)
      }
      guard case .number(_, let units, let scale) = column else {
        throw .invalidFilter(
          "\(a.text): \(_FilterParser.shown(a.field)) is a category: \(a.function) needs a number", position: nil)
      }
      let source = sourceNames.firstIndex(of: a.field) ?? sources.count
      if source == sources.count {
        sources.append(units)
        sourceNames.append(a.field)
      }
      let function: _AggregateFunction = switch a {
      case .sum: .sum
      case .min: .min
      case .max: .max
      }
      outputs.append((source, function, scale))
    }
    self.sources = sources
    self.outputs = outputs
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

  /// Keeps the ids of `ids` that pass the filter, in order: what a
  /// viewport or a tap with a filter lists. Ids at or beyond the properties'
  /// count are dropped.
  ///
  /// - Complexity: O(*k*) a clause, one column read at a time.
  package func retainMatching(_ ids: inout [Int32]) {
    if let n = _count, ids.contains(where: { $0 < 0 || Int($0) >= n }) {
      ids.removeAll { $0 < 0 || Int($0) >= n }
    }
    _retain(&ids)
  }

  /// Whether the query changes nothing in the markers: no clause, no
  /// aggregate.
  @usableFromInline var _isEmpty: Bool { tests.isEmpty && !_passesNothing && outputs.isEmpty }

  /// How many ``_FieldTotals`` a cell keeps: one a source column.
  @usableFromInline var _sourceCount: Int { sources.count }

  /// Keeps the ids of `ids` that pass (valid ids: below the properties'
  /// count), in order: one column at a time.
  @usableFromInline func _retain(_ ids: inout [Int32]) {
    if _passesNothing { return ids.removeAll(keepingCapacity: true) }
    for t in tests where !ids.isEmpty { t.retain(&ids) }
  }
}

extension PropertyQuery {
  /// Adds the values of the points `ids` to the totals of their cells:
  /// point `ids[k]` to cell `slots[k]` (none when negative), whose totals
  /// start at `totals[slot · sourceCount]`. Missing values add nothing.
  ///
  /// - Complexity: O(*k*) a source column, read one column at a time.
  @usableFromInline
  func _add(
    _ ids: UnsafeBufferPointer<Int32>, slots: UnsafeBufferPointer<Int32>,
    into totals: UnsafeMutableBufferPointer<_FieldTotals>
  ) {
    let width = sources.count
    for (f, source) in sources.enumerated() {
      source.withUnsafeBufferPointer { units in
        for k in 0..<ids.count {
          let slot = Int(slots[k])
          guard slot >= 0 else { continue }
          let u = units[Int(ids[k])]
          if u != .min { totals[slot &* width &+ f].add(u) }
        }
      }
    }
  }

  /// Appends the aggregates asked, in order, of the cell whose totals start
  /// at `totals[slot · sourceCount]`.
  @usableFromInline
  func _appendValues(
    _ totals: UnsafeBufferPointer<_FieldTotals>, slot: Int, into values: inout [AggregateValue]
  ) {
    let base = slot &* sources.count
    for o in outputs {
      values.append(totals[base &+ o.source].value(o.function, scale: o.scale))
    }
  }
}
