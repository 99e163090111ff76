/// Which points a map shows: clauses on the points' properties, all of
/// which a point must pass.
///
/// The text form (``init(parsing:)``) is clauses joined by the keyword
/// `and`:
///
/// - `F in (v1, v2, …)`: the field is one of the values;
/// - `F = v`: the field is `v` (`in` with one value);
/// - `F >= x`, `F <= x`: the field is at least, or at most, the number `x`.
///
/// Keywords are lowercase; spaces around tokens are optional. A field is a
/// property's name (a column's header), bare or in double quotes. A value is
/// bare (no space, comma, parenthesis or double quote) or in double quotes,
/// with `""` standing for a quote; quotes are read before anything else, so
/// `"a, b and c"` is one value.
///
/// **Types.** A field is numeric when it is compared with `>=` or `<=` (or,
/// in a ``PropertyQuery``, held as a number or aggregated): its values are
/// then decimals, `-?digits[.digits]` without exponent, compared by value,
/// so `1.5` equals `1.50` and `-0.00` equals `0`. Any other field is a
/// category, its values compared as exact strings. A point without a value
/// for a field (an empty field) never passes a clause on it. The empty
/// filter passes every point.
///
/// ```swift
/// let filter = try PointFilter(parsing: #"stars >= 4 and chain in ("Inn, The", Ritz)"#)
/// // the same, typed:
/// let typed = PointFilter.field("stars", atLeast: "4").and(.field("chain", in: ["Inn, The", "Ritz"]))
/// ```
public struct PointFilter: Hashable, Sendable {
  /// The clauses, all of which a point must pass.
  var clauses: [Clause]
  /// The text parsed, for the position of a fault found when the filter is
  /// compiled (``PropertyQuery``); nil for a filter built in code. Not
  /// compared: filters are equal when their clauses are.
  private var _source: Source

  init(clauses: [Clause], source: String?) {
    self.clauses = clauses
    _source = Source(text: source)
  }

  var source: String? { _source.text }

  /// The filter with no clause: every point passes.
  package static var passesAll: PointFilter { PointFilter(clauses: [], source: nil) }

  /// A point passes when its `name` property is one of `values`, compared
  /// as exact strings for a category, by value for a number (`=` in the
  /// text form is this with one value). An empty list passes no point.
  public static func field(_ name: String, in values: [String]) -> PointFilter {
    PointFilter(clauses: [Clause(field: name, test: .oneOf, values: values)], source: nil)
  }

  /// A point passes when its numeric `name` property is at least `bound`
  /// (`-?digits[.digits]`, any number of digits, compared exactly).
  public static func field(_ name: String, atLeast bound: String) -> PointFilter {
    PointFilter(clauses: [Clause(field: name, test: .atLeast, values: [bound])], source: nil)
  }

  /// A point passes when its numeric `name` property is at most `bound`.
  public static func field(_ name: String, atMost bound: String) -> PointFilter {
    PointFilter(clauses: [Clause(field: name, test: .atMost, values: [bound])], source: nil)
  }

  /// The points that pass both this filter and `other`.
  public func and(_ other: PointFilter) -> PointFilter {
    // positions refer to one text: a combined filter has none
    PointFilter(clauses: (clauses + other.clauses).map(\.withoutOffsets), source: nil)
  }

  /// Whether the filter passes every point (it has no clause).
  package var isEmpty: Bool { clauses.isEmpty }

  /// The fields a run reads, in the order they first appear, each numeric
  /// when the filter compares it with `>=` or `<=` or `aggregates` name
  /// it (the typing rule): what a reader is asked to keep.
  package func fields(aggregating aggregates: [ClusterAggregate] = []) -> [(name: String, numeric: Bool)] {
    var order: [String] = [], seen: Set<String> = []
    var numeric: Set<String> = []
    for c in clauses {
      if seen.insert(c.field).inserted { order.append(c.field) }
      if c.test != .oneOf { numeric.insert(c.field) }
    }
    for a in aggregates {
      if seen.insert(a.field).inserted { order.append(a.field) }
      numeric.insert(a.field)
    }
    return order.map { ($0, numeric.contains($0)) }
  }

}

extension PointFilter {
  /// Text that every other text equals, so that a filter's equality is its
  /// clauses'.
  struct Source: Hashable, Sendable {
    var text: String?
    static func == (_: Source, _: Source) -> Bool { true }
    func hash(into _: inout Hasher) {}
  }

  /// What a clause tests.
  enum Test: Hashable, Sendable {
    /// `in` and `=`.
    case oneOf
    /// `>=`.
    case atLeast
    /// `<=`.
    case atMost
  }

  /// One clause: a field, a test and its values (one for `>=` and `<=`).
  struct Clause: Hashable, Sendable {
    var field: String
    var test: Test
    var values: [String]
    /// Where the field and each value start in ``PointFilter/source``
    /// (UTF-8 offsets), for messages; empty for a clause built in code.
    var fieldOffset: Int? = nil
    var valueOffsets: [Int] = []

    /// The clause with no positions.
    var withoutOffsets: Clause { Clause(field: field, test: test, values: values) }

    /// Equal when they test the same: positions are not compared.
    static func == (a: Clause, b: Clause) -> Bool {
      a.field == b.field && a.test == b.test && a.values == b.values
    }

    func hash(into h: inout Hasher) {
      h.combine(field)
      h.combine(test)
      h.combine(values)
    }
  }

  /// The 1-based character of `source` at UTF-8 `offset`, for a message.
  static func position(in source: String, offset: Int) -> Int {
    let utf8 = source.utf8
    let end = utf8.index(utf8.startIndex, offsetBy: min(max(0, offset), utf8.count))
    return source[..<end].count + 1
  }

  /// The position of clause `k`'s field (or of its value `v`) in the text
  /// parsed, nil when the filter was built in code.
  func position(clause k: Int, value v: Int? = nil) -> Int? {
    guard let source else { return nil }
    let c = clauses[k]
    let offset = v.flatMap { c.valueOffsets.indices.contains($0) ? c.valueOffsets[$0] : nil } ?? c.fieldOffset
    return offset.map { Self.position(in: source, offset: $0) }
  }
}
