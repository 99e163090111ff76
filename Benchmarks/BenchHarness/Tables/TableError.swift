/// Why `bench table` cannot make a table: a request it cannot read (exit 64),
/// or reports that do not give one answer a cell (exit 65: two rows match it,
/// or no row passes the filters).
public struct TableError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// The request is malformed: an unknown column, a figure that is not a
    /// number, a label for a value the table does not show. Exit 64.
    case usage
    /// The reports do not fit the request: a cell that two rows match, a
    /// table without a row. Exit 65.
    case badData
  }

  public var kind: Kind
  public var message: String
  /// For an unknown column: its name, so the command line can suggest the
  /// nearest valid one (as it does for every other name).
  public var unknownName: String?

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// `name` is no report column (a parameter is `params:NAME`).
  public static func unknownColumn(_ name: String) -> TableError {
    var e = TableError(.usage, "unknown report column \"\(name)\" (a parameter is params:NAME)")
    e.unknownName = name
    return e
  }

  public var exitCode: Int32 { kind == .usage ? 64 : 65 }

  public var description: String { message }
}
