/// Why a points file or a query file could not be loaded.
///
/// There are two kinds, matching the BSD `sysexits.h` codes a command-line
/// tool should exit with:
/// - ``badData(file:line:field:message:)``: the bytes were read but are not a
///   valid file (`EX_DATAERR`, 65);
/// - ``unreadable(file:reason:)``: the input is missing or cannot be read
///   (`EX_NOINPUT`, 66).
///
/// The description reads like a compiler diagnostic, so editors and terminals
/// can jump to the spot:
///
///     places.csv:3: lon "abc" is not a number
///     places.csv:7: name is missing: too few fields: 3, but the header has 5
///     data/missing.csv: no such file
///
/// `file` is the path exactly as the caller passed it (or the source name
/// given to an in-memory reader), not only its last component: with two
/// `places.csv` in different folders, the message must still say which one.
public enum DataError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The content is wrong at a 1-based physical `line` (the line where the
  /// record starts, or where an unterminated quote opened). `field` names the
  /// column as the header spells it (trimmed), or is `nil` when the problem
  /// concerns the whole record or the header.
  case badData(file: String, line: Int, field: String?, message: String)
  /// The file is missing, is a directory, or cannot be read.
  case unreadable(file: String, reason: String)

  /// The `sysexits.h` code: 65 (`EX_DATAERR`) for bad data, 66 (`EX_NOINPUT`)
  /// for a missing or unreadable input.
  public var exitCode: Int32 {
    switch self {
    case .badData: 65
    case .unreadable: 66
    }
  }

  /// `file:line: field message`, `file:line: message` or `file: reason`,
  /// one line: a control character of the name or the file's text is
  /// written out (``escapingControls(_:keeping:)``).
  public var description: String {
    switch self {
    case let .badData(file, line, field?, message): escapingControls("\(file):\(line): \(field) \(message)")
    case let .badData(file, line, nil, message): escapingControls("\(file):\(line): \(message)")
    case let .unreadable(file, reason): escapingControls("\(file): \(reason)")
    }
  }

  /// The path or source name the error is about.
  public var file: String {
    switch self {
    case let .badData(file, _, _, _), let .unreadable(file, _): file
    }
  }

  /// The 1-based line of a bad-data error, `nil` for an unreadable input.
  public var line: Int? {
    if case let .badData(_, line, _, _) = self { return line }
    return nil
  }

  /// The column a bad-data error is about, if it concerns one field.
  public var field: String? {
    if case let .badData(_, _, field, _) = self { return field }
    return nil
  }
}
