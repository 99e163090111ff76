/// The properties of a clusterer's points, one flat column each, by id:
/// what filters (``PointFilter``) test and aggregates (``ClusterAggregate``)
/// add up.
///
/// - A **category** column holds one code a point and the table of values
///   the codes stand for (`values[code]`); the code `UInt32.max` (or the
///   code of an empty value) is a missing value. The codes are kept in the
///   narrowest width the table fits: a byte a point for at most 255
///   values, two for at most 65,535, else four.
/// - A **number** column holds one `Int64` a point, the value × 10^`scale`
///   in fixed point (`scale` 0...9): exact, no binary fraction. `Int64.min`
///   is a missing value.
///
/// The columns are the arrays given, shared rather than copied (an array
/// is copied only when written, and nothing here writes one): a reader
/// that already holds units, or codes of a table of more than 65,535
/// values, hands them over at no cost; narrower codes are copied once.
///
/// ```swift
/// var properties = PointProperties()
/// try properties.addCategory("chain", values: hotels.map(\.chain))          // coded here
/// try properties.addNumber("price", units: hotels.map { $0.cents }, scale: 2) // 12345 is 123.45
/// ```
public struct PointProperties: Sendable {
  /// One column, by point id.
  enum Column: Sendable {
    case category(name: String, codes: _CategoryCodes, values: [String])
    case number(name: String, units: [Int64], scale: Int)

    var name: String {
      switch self {
      case .category(let name, _, _), .number(let name, _, _): name
      }
    }

    var count: Int {
      switch self {
      case .category(_, let codes, _): codes.count
      case .number(_, let units, _): units.count
      }
    }
  }

  /// The columns, in the order they were added.
  private(set) var columns: [Column] = []

  /// Properties with no column, to add columns to.
  public init() {}

  /// How many points the columns describe; nil while there is none.
  package var count: Int? { columns.first?.count }

  /// The columns' names, in the order they were added.
  package var names: [String] { columns.map(\.name) }

  /// Bytes held: each category's codes, in their width, and its table
  /// (each value's UTF-8 and a 16-byte string), each number's units.
  package var bytes: Int {
    columns.reduce(0) { total, column in
      switch column {
      case .category(_, let codes, let values): total + codes.bytes + values.reduce(0) { $0 + $1.utf8.count + 16 }
      case .number(_, let units, _): total + units.count * MemoryLayout<Int64>.stride
      }
    }
  }

  /// The column called `name`, and its position.
  func column(named name: String) -> Column? { columns.first { $0.name == name } }

  /// Adds a category column of `values` by point id, `nil` or an empty
  /// string for a missing value; values are coded in the order they first
  /// appear.
  ///
  /// - Throws: ``ClusteringError/invalidProperties(_:)`` when a column
  ///   has this name or another number of points.
  /// - Complexity: O(*n*), a hash of each value.
  public mutating func addCategory(_ name: String, values: [String?]) throws(ClusteringError) {
    var table: [String] = [], lookup: [String: UInt32] = [:]
    var codes: [UInt32] = []
    codes.reserveCapacity(values.count)
    for v in values {
      guard let v, !v.isEmpty else {
        codes.append(.max)
        continue
      }
      if let c = lookup[v] {
        codes.append(c)
      } else {
        let c = UInt32(table.count)  // fewer distinct values than points: below UInt32.max
        table.append(v)
        lookup[v] = c
        codes.append(c)
      }
    }
    try add(.category(name: name, codes: _CategoryCodes(codes, tableCount: table.count), values: table))
  }

  /// Adds a category column from its codes by point id (`UInt32.max` for
  /// a missing value) and the table of `values` they index, as they are.
  /// A value may appear twice in the table; an empty value is missing.
  ///
  /// - Throws: ``ClusteringError/invalidProperties(_:)`` when a code is
  ///   neither a position in `values` nor `UInt32.max`, or as
  ///   ``addCategory(_:values:)``.
  /// - Complexity: O(*n*): the codes are checked, and copied once when
  ///   the table fits a narrower width.
  public mutating func addCategory(_ name: String, codes: [UInt32], values: [String]) throws(ClusteringError) {
    let bad = codes.withUnsafeBufferPointer { c in
      c.firstIndex { $0 != .max && Int($0) >= values.count }
    }
    if let bad {
      throw .invalidProperties(
        "property \(_FilterParser.shown(name)): point \(bad) has code \(codes[bad]), but the table holds \(values.count) values")
    }
    try add(.category(name: name, codes: _CategoryCodes(codes, tableCount: values.count), values: values))
  }

  /// Adds a number column: `units[id]` is point `id`'s value × 10^`scale`,
  /// `Int64.min` for a missing value.
  ///
  /// - Throws: ``ClusteringError/invalidProperties(_:)`` when `scale` is
  ///   not in 0...9, or as ``addCategory(_:values:)``.
  /// - Complexity: O(1): the units are kept, not copied.
  public mutating func addNumber(_ name: String, units: [Int64], scale: Int) throws(ClusteringError) {
    guard (0...9).contains(scale) else {
      throw .invalidProperties("property \(_FilterParser.shown(name)): scale \(scale) is not in 0...9")
    }
    try add(.number(name: name, units: units, scale: scale))
  }

  private mutating func add(_ column: Column) throws(ClusteringError) {
    if columns.contains(where: { $0.name == column.name }) {
      throw .invalidProperties("property \(_FilterParser.shown(column.name)) is added twice")
    }
    if let first = columns.first, first.count != column.count {
      throw .invalidProperties(
        "property \(_FilterParser.shown(column.name)) has \(column.count) values, "
          + "but \(_FilterParser.shown(first.name)) has \(first.count)")
    }
    columns.append(column)
  }
}
