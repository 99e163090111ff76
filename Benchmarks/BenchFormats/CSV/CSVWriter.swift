/// Builds RFC 4180 CSV text, one record per line.
///
/// - A field is quoted when it holds a comma, a double quote, CR or LF; quotes
///   inside are doubled. Other fields are written bare.
/// - Lines end with LF alone (RFC 4180 says CRLF; every reader we target —
///   spreadsheets, pandas, gnuplot, `CSVReader` — accepts LF, and it diffs well).
/// - Numbers: see `field(_:)` overloads. No thousands separators, `.` as the
///   decimal point whatever the locale, and never `nan`/`inf` text.
///
/// ```swift
/// var csv = CSVWriter()
/// csv.writeRow(["index", "median_ns"])
/// csv.writeRow(["kd,tree", CSVWriter.field(12.5)])
/// csv.text  // "index,median_ns\n\"kd,tree\",12.5\n"
/// ```
public struct CSVWriter: Sendable {
  /// Everything written so far.
  public private(set) var text = ""

  public init() {}

  /// Appends one record: the fields escaped, joined by commas, then LF.
  public mutating func writeRow(_ fields: [String]) {
    text += CSVWriter.line(fields)
  }

  /// One record as text, ending in LF.
  ///
  /// A record of one empty field is written `""`: bare, it would be a blank
  /// line, which readers skip.
  public static func line(_ fields: [String]) -> String {
    if fields == [""] { return "\"\"\n" }
    return fields.map(escape).joined(separator: ",") + "\n"
  }

  /// `field` quoted if it needs to be (comma, quote, CR, LF), quotes doubled.
  public static func escape(_ field: String) -> String {
    let needsQuotes = field.utf8.contains { byte in
      byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"")
        || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
    guard needsQuotes else { return field }
    return "\"" + field.replacingQuotes() + "\""
  }

  /// A Double in the shortest form that parses back to the same bits
  /// (Swift's `description`, e.g. `12.5`, `100.0`, `1e-05`, `1.5e+20`), which
  /// spreadsheets, pandas and gnuplot all read as a number.
  ///
  /// NaN and ±∞ are written as an empty field — a missing value to pandas and
  /// gnuplot and a blank cell to a spreadsheet — rather than a 0 that would
  /// look like a real measurement.
  public static func field(_ value: Double) -> String {
    value.isFinite ? value.description : ""
  }

  /// An integer in plain decimal.
  public static func field<Integer: BinaryInteger>(_ value: Integer) -> String {
    value.description
  }

  /// `1` or `0`, which every tool reads as a number.
  public static func field(_ value: Bool) -> String {
    value ? "1" : "0"
  }

  /// An optional number; `nil` is an empty field (not recorded).
  public static func field<Integer: BinaryInteger>(_ value: Integer?) -> String {
    value.map { $0.description } ?? ""
  }

  /// A 64-bit value as `0x` and 16 lowercase hex digits. Used for checksums:
  /// spreadsheets keep only 15 significant decimal digits and would silently
  /// round a large decimal, while this reads as exact text everywhere.
  public static func hexField(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
  }
}

extension String {
  fileprivate func replacingQuotes() -> String {
    var result = ""
    result.reserveCapacity(utf8.count + 2)
    for character in self {
      if character == "\"" { result += "\"\"" } else { result.append(character) }
    }
    return result
  }
}
