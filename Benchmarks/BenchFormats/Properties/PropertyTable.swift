/// The properties a run named, one flat column each, in point order:
/// `column[i]` belongs to `points[i]`.
///
/// Struct of arrays: a filter or an aggregate walks one column (`[UInt32]`
/// codes or `[Int64]` units) without touching the others. Columns keep the
/// order the run named them in.
///
///     let file = try PointsFile(contentsOf: "hotels.csv",
///                               properties: [.number("price"), .category("chain")])
///     file.properties.decimal("price")?.text(at: 0)  // "123.45"
public struct PropertyTable: Hashable, Sendable {
  /// One column: codes and their values, or fixed-point units.
  public enum Column: Hashable, Sendable {
    case category(CategoryColumn)
    case decimal(DecimalColumn)

    public var name: String {
      switch self {
      case .category(let c): c.name
      case .decimal(let c): c.name
      }
    }

    public var kind: PropertyKind {
      switch self {
      case .category: .category
      case .decimal: .number
      }
    }

    public var count: Int {
      switch self {
      case .category(let c): c.count
      case .decimal(let c): c.count
      }
    }

    /// Point `i`'s value as text (a decimal with the column's scale), `nil`
    /// when missing.
    public func text(at i: Int) -> String? {
      switch self {
      case .category(let c): c.value(at: i)
      case .decimal(let c): c.text(at: i)
      }
    }

    /// The points at `rows`, in that order.
    public func gathering(_ rows: [Int]) -> Column {
      switch self {
      case .category(let c): .category(c.gathering(rows))
      case .decimal(let c): .decimal(c.gathering(rows))
      }
    }
  }

  public private(set) var columns: [Column]

  /// No properties: what a run that names none carries.
  public static let none = PropertyTable(columns: [])

  /// - Precondition: names are distinct.
  public init(columns: [Column]) {
    precondition(Set(columns.map(\.name)).count == columns.count, "one column a name")
    self.columns = columns
  }

  public var isEmpty: Bool { columns.isEmpty }

  /// The columns' names, in order.
  public var names: [String] { columns.map(\.name) }

  /// What a reader was asked for to give these columns.
  public var requests: [PropertyRequest] { columns.map { PropertyRequest($0.name, $0.kind) } }

  /// The column called `name`.
  public subscript(name: String) -> Column? { columns.first { $0.name == name } }

  /// The category column called `name`, `nil` if none (or numeric).
  public func category(_ name: String) -> CategoryColumn? {
    if case .category(let c)? = self[name] { return c }
    return nil
  }

  /// The numeric column called `name`, `nil` if none (or a category).
  public func decimal(_ name: String) -> DecimalColumn? {
    if case .decimal(let c)? = self[name] { return c }
    return nil
  }

  /// The points at `rows` (a sample), in that order; category codes are
  /// renumbered by first appearance in the sample, decimals keep their
  /// column's scale.
  public func gathering(_ rows: [Int]) -> PropertyTable {
    PropertyTable(columns: columns.map { $0.gathering(rows) })
  }
}

extension [PropertyRequest] {
  /// The first name asked for twice, if any.
  public var repeatedName: String? {
    var seen: Set<String> = []
    return first { !seen.insert($0.name).inserted }?.name
  }
}
