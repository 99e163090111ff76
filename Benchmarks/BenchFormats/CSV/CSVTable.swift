/// A CSV file with a header, read row by row: the one reader behind every
/// CSV format bench reads (points, viewports, taps, reports). It holds the
/// scanner, the header, field-count checks, column lookup by name, and typed
/// fields whose errors name the file, the physical line and the column.
///
/// It reads a buffer it does not own; ``read(_:source:_:)`` keeps one alive.
///
/// ```swift
/// let rows = try CSVTable.read(bytes, source: "report.csv") { table throws(DataError) in
///   let n = try table.requiredColumn(["n"], role: "n")
///   var counts: [UInt64] = []
///   while try table.nextRow() { counts.append(try table.id(n)) }
///   return counts
/// }
/// ```
public struct CSVTable {
  var scanner: _CSVScanner
  /// The path or name in error messages.
  public let source: String
  /// The header's names, trimmed, as spelled in the file.
  public private(set) var header: [String] = []
  /// The physical line of the header.
  public private(set) var headerLine = 1
  /// The current record's fields.
  var fields: [_CSVField] = []
  /// The physical line the current record starts on.
  public private(set) var line = 1

  /// Runs `body` on a table over `bytes`, which stay alive meanwhile.
  public static func read<R>(
    _ bytes: [UInt8], source: String, _ body: (inout CSVTable) throws(DataError) -> R
  ) throws(DataError) -> R {
    try _withBytes(bytes) { p throws(DataError) in
      var table = try CSVTable(p, source: source)
      return try body(&table)
    }
  }

  /// Reads the header row.
  public init(_ bytes: UnsafeBufferPointer<UInt8>, source: String) throws(DataError) {
    scanner = _CSVScanner(bytes)
    self.source = source
    if bytes.isEmpty { throw .badData(file: source, line: 1, field: nil, message: "empty file, no header") }
    guard let first = try next() else {
      throw .badData(file: source, line: 1, field: nil, message: "no header row, only blank lines")
    }
    headerLine = first
    if _CSVScanner.isBlank(fields) {
      throw .badData(file: source, line: first, field: nil, message: "blank line where the header should be")
    }
    header = fields.map { Self.trimmedName(scanner.text(of: $0)) }
  }

  /// The next record, or `nil` at the end; converts syntax errors.
  mutating func next() throws(DataError) -> Int? {
    do {
      guard let l = try scanner.nextRecord(into: &fields) else { return nil }
      line = l
      return l
    } catch {
      throw .badData(file: source, line: error.line, field: columnName(error.fieldIndex), message: error.message)
    }
  }

  /// The next data row, checked to have as many fields as the header;
  /// `false` at the end.
  public mutating func nextRow() throws(DataError) -> Bool {
    guard try next() != nil else { return false }
    if fields.count != header.count { try fieldCountError() }
    return true
  }

  /// A row whose field count differs from the header's. The message names
  /// the field at fault, so the row can be fixed without counting commas:
  /// the first missing column, or the first one past the header.
  func fieldCountError() throws(DataError) {
    let n = header.count
    if _CSVScanner.isBlank(fields) {
      throw .badData(
        file: source, line: line, field: nil,
        message: "blank line; expected \(n) field\(n == 1 ? "" : "s") as in the header")
    }
    let extra = fields.count > n
    throw .badData(
      file: source, line: line, field: columnName(extra ? n : fields.count),
      message: extra
        ? "is extra: too many fields: \(fields.count), but the header has \(n)"
        : "is missing: too few fields: \(fields.count), but the header has \(n)")
  }

  /// The column's name for a message: as in the header, or `column N`
  /// (1-based) when the header has no name for it.
  public func columnName(_ index: Int) -> String {
    index < header.count && !header[index].isEmpty ? header[index] : "column \(index + 1)"
  }

  static func trimmedName(_ s: String) -> String {
    var sub = Substring(s)
    while let c = sub.first, c == " " || c == "\t" { sub.removeFirst() }
    while let c = sub.last, c == " " || c == "\t" { sub.removeLast() }
    return String(sub)
  }

  /// The index of the one column whose name (case-insensitive) is among
  /// `names`, `nil` if none; two such columns are an error.
  public func column(_ names: [String], role: String) throws(DataError) -> Int? {
    var found: Int?
    for (i, name) in header.enumerated() where names.contains(name.lowercased()) {
      if let j = found {
        throw .badData(
          file: source, line: headerLine, field: nil,
          message: "two \(role) columns: \(_displayValue(header[j])) (column \(j + 1)) "
            + "and \(_displayValue(name)) (column \(i + 1))")
      }
      found = i
    }
    return found
  }

  /// Like ``column(_:role:)`` but the column must exist.
  public func requiredColumn(_ names: [String], role: String) throws(DataError) -> Int {
    if let i = try column(names, role: role) { return i }
    let wanted = names.map { _displayValue($0) }
    let list = wanted.count == 1 ? wanted[0] : wanted.dropLast().joined(separator: ", ") + " or " + wanted.last!
    let found = header.isEmpty ? "none" : header.map { _displayValue($0) }.joined(separator: ", ")
    throw .badData(
      file: source, line: headerLine, field: nil,
      message: "no \(role) column (expected \(list)); columns found: \(found)")
  }

  /// The index of the column named exactly `name` (trimmed, case
  /// counts): a property a run named. None, or two, is an error at the
  /// header's line naming the field.
  public func propertyColumn(_ name: String) throws(DataError) -> Int {
    let found = header.indices.filter { header[$0] == name }
    if found.count > 1 {
      throw .badData(
        file: source, line: headerLine, field: name,
        message: "is the name of two columns (\(found[0] + 1) and \(found[1] + 1))")
    }
    guard let i = found.first else {
      let columns = header.isEmpty ? "none" : header.map { _displayValue($0) }.joined(separator: ", ")
      throw .badData(
        file: source, line: headerLine, field: name,
        message: "is not a column of the header (columns: \(columns))")
    }
    return i
  }

  /// The raw bytes of field `i` of the current record (still escaped).
  func raw(_ i: Int) -> UnsafeBufferPointer<UInt8> {
    let f = fields[i]
    return UnsafeBufferPointer(rebasing: scanner.bytes[f.start..<f.end])
  }

  /// An error about field `i` of the current row: `file:line: column message`.
  public func bad(_ i: Int, _ message: String) -> DataError {
    .badData(file: source, line: line, field: columnName(i), message: message)
  }

  /// Field `i` of the current row as text, the quoting undone.
  public func text(_ i: Int) -> String { scanner.text(of: fields[i]) }

  /// Field `i` quoted for a message (control characters escaped, cut at 40).
  public func shown(_ i: Int) -> String { _displayValue(text(i)) }

  /// Field `i` as a finite number, or `nil` if empty and `allowEmpty`.
  public func number(_ i: Int, allowEmpty: Bool = false) throws(DataError) -> Double? {
    switch _parseNumber(raw(i)) {
    case .value(let v): return v
    case .empty:
      if allowEmpty { return nil }
      throw bad(i, "is empty")
    case .notANumber: throw bad(i, "\(shown(i)) is not a number")
    case .notFinite: throw bad(i, "\(shown(i)) is not a finite number")
    }
  }

  /// Field `i` as a number in `-limit...limit`.
  public func coordinate(_ i: Int, limit: Double) throws(DataError) -> Double {
    let v = try number(i)!
    if !(v >= -limit && v <= limit) {
      throw bad(i, "\(shown(i)) is outside [\(Int(-limit)), \(Int(limit))]")
    }
    return v
  }

  /// Field `i` as an unsigned integer (an id, a count): optional `+`,
  /// decimal digits, leading zeros allowed.
  public func id(_ i: Int) throws(DataError) -> UInt64 {
    switch _parseID(raw(i)) {
    case .value(let v): return v
    case .empty: throw bad(i, "is empty")
    case .negative: throw bad(i, "\(shown(i)) is negative")
    case .notAnInteger: throw bad(i, "\(shown(i)) is not an integer")
    case .tooLarge: throw bad(i, "\(shown(i)) is too large (the largest id is \(UInt64.max))")
    }
  }
}

/// Runs `body` on the bytes of a file, read whole.
func _withFileBytes<R>(
  _ path: String, _ body: (UnsafeBufferPointer<UInt8>) throws(DataError) -> R
) throws(DataError) -> R {
  let bytes = try _readWholeFile(path)
  return try _withBytes(bytes, body)
}

/// `withUnsafeBufferPointer` with a typed error.
func _withBytes<R>(
  _ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws(DataError) -> R
) throws(DataError) -> R {
  let result: Result<R, DataError> = bytes.withUnsafeBufferPointer { p in
    Result { () throws(DataError) -> R in try body(p) }
  }
  return try result.get()
}
