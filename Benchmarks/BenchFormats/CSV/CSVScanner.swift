/// One field of a record: a byte range into the scanner's buffer.
///
/// For a quoted field the range lies between the quotes; when the field
/// holds doubled quotes (`""`), `hasDoubledQuotes` says the bytes still need
/// unescaping (``_CSVScanner/value(of:)``).
struct _CSVField: Sendable {
  var start: Int
  var end: Int
  var isQuoted: Bool
  var hasDoubledQuotes: Bool

  var isEmpty: Bool { start == end }
}

/// A syntax error found by the scanner; the readers turn it into a
/// ``DataError`` naming the column.
struct _CSVSyntaxError: Error, Sendable {
  var line: Int
  var fieldIndex: Int
  var message: String
}

/// A byte-level RFC 4180 scanner over a buffer it does not own.
///
/// The grammar, with the choices RFC 4180 leaves open:
/// - Fields are separated by `,`, records end at LF or CRLF. The last record
///   needs no line ending, and a final line ending does not start an empty
///   record.
/// - An optional UTF-8 byte-order mark (`EF BB BF`) at the very start is
///   skipped.
/// - A field that starts with `"` is quoted: it ends at the next lone `"`,
///   and may hold commas, doubled quotes (`""` for one `"`), LF, CRLF and a
///   lone CR, all as data. After the closing quote only `,`, a line ending or
///   the end of the input may follow, otherwise it is an error (this catches
///   a broken quote before it silently swallows the following rows). A quoted
///   field that never closes is an error reported at the line where it opened.
/// - In an unquoted field a `"` is data (as in `5'11"`), but a CR must be
///   followed by LF: a lone CR outside quotes is an error, which also rejects
///   old Mac files (CR-only line endings) with a clear message instead of one
///   enormous record.
/// - Blank lines at the end of the input (nothing but line endings left) are
///   ignored, so an editor's extra newline is harmless. A blank line anywhere
///   else comes back as a record with one empty unquoted field
///   (``isBlank(_:)``); the readers report it, because a missing row is more
///   likely a mistake than formatting.
///
/// Each record reports the 1-based *physical* line it starts on: a quoted
/// field holding line breaks makes a record span several lines, and the
/// lines after it are numbered as a text editor numbers them.
///
/// - Complexity: O(*n*) over the bytes, one pass, no allocation per record
///   once the field array has grown to the widest record.
struct _CSVScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var position: Int
  /// The line `position` is on.
  var line: Int = 1

  static let comma = UInt8(ascii: ",")
  static let quote = UInt8(ascii: "\"")
  static let lf = UInt8(ascii: "\n")
  static let cr = UInt8(ascii: "\r")

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    position = bom ? 3 : 0
  }

  /// True for a blank line: one empty, unquoted field.
  static func isBlank(_ fields: [_CSVField]) -> Bool {
    fields.count == 1 && fields[0].isEmpty && !fields[0].isQuoted
  }

  /// Only LF or CRLF line endings remain from `position` on.
  func onlyLineEndingsRemain() -> Bool {
    var i = position
    while i < bytes.count {
      if bytes[i] == Self.lf {
        i += 1
      } else if bytes[i] == Self.cr && i + 1 < bytes.count && bytes[i + 1] == Self.lf {
        i += 2
      } else {
        return false
      }
    }
    return true
  }

  /// Reads the next record's fields into `fields` (replacing its contents)
  /// and returns the line the record starts on, or `nil` at the end.
  mutating func nextRecord(into fields: inout [_CSVField]) throws(_CSVSyntaxError) -> Int? {
    let count = bytes.count
    if position >= count { return nil }
    let first = bytes[position]
    if (first == Self.lf || first == Self.cr) && onlyLineEndingsRemain() {
      position = count
      return nil
    }
    fields.removeAll(keepingCapacity: true)
    let recordLine = line
    while true {
      var field: _CSVField
      if position < count && bytes[position] == Self.quote {
        field = try scanQuoted(fieldIndex: fields.count)
      } else {
        let start = position
        var i = position
        while i < count {
          let b = bytes[i]
          if b == Self.comma || b == Self.lf || b == Self.cr { break }
          i += 1
        }
        position = i
        field = _CSVField(start: start, end: i, isQuoted: false, hasDoubledQuotes: false)
      }
      fields.append(field)
      // What ends the field: a comma, a line ending or the end of the input.
      if position >= count { return recordLine }
      let b = bytes[position]
      if b == Self.comma {
        position += 1
      } else if b == Self.lf {
        position += 1
        line += 1
        return recordLine
      } else if b == Self.cr && position + 1 < count && bytes[position + 1] == Self.lf {
        position += 2
        line += 1
        return recordLine
      } else if b == Self.cr {
        throw _CSVSyntaxError(
          line: line, fieldIndex: fields.count - 1,
          message: "has a carriage return (CR) not followed by a line feed (LF)")
      } else {
        throw _CSVSyntaxError(
          line: line, fieldIndex: fields.count - 1,
          message: "has \(_displayByte(b)) after its closing quote (expected a comma or the end of the line)")
      }
    }
  }

  /// Scans a quoted field; `position` is on the opening quote and ends just
  /// after the closing one.
  mutating func scanQuoted(fieldIndex: Int) throws(_CSVSyntaxError) -> _CSVField {
    let openLine = line
    let count = bytes.count
    var i = position + 1
    let start = i
    var doubled = false
    while i < count {
      let b = bytes[i]
      if b == Self.quote {
        if i + 1 < count && bytes[i + 1] == Self.quote {
          doubled = true
          i += 2
          continue
        }
        position = i + 1
        return _CSVField(start: start, end: i, isQuoted: true, hasDoubledQuotes: doubled)
      }
      if b == Self.lf { line += 1 }
      i += 1
    }
    throw _CSVSyntaxError(
      line: openLine, fieldIndex: fieldIndex,
      message: "has a quote that opens here and is never closed")
  }

  /// The field's bytes with the quoting undone.
  func value(of field: _CSVField) -> [UInt8] {
    let raw = UnsafeBufferPointer(rebasing: bytes[field.start..<field.end])
    guard field.hasDoubledQuotes else { return Array(raw) }
    var out: [UInt8] = []
    out.reserveCapacity(raw.count)
    var i = 0
    while i < raw.count {
      out.append(raw[i])
      i += raw[i] == Self.quote ? 2 : 1  // the scanner saw each `"` doubled
    }
    return out
  }

  /// The field's text with the quoting undone (invalid UTF-8 becomes U+FFFD).
  func text(of field: _CSVField) -> String {
    String(decoding: value(of: field), as: UTF8.self)
  }
}

/// A byte shown in a message: `"x"` when printable ASCII, else its hex code.
func _displayByte(_ b: UInt8) -> String {
  if b >= 0x20 && b < 0x7F && b != UInt8(ascii: "\"") {
    return "\"\(Character(Unicode.Scalar(b)))\""
  }
  let hex = String(b, radix: 16, uppercase: true)
  return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
}

/// A field's value quoted for a message: control characters escaped, quotes
/// escaped, long values cut to 40 characters with an ellipsis.
func _displayValue(_ text: String) -> String {
  var out = "\""
  var n = 0
  for scalar in text.unicodeScalars {
    if n == 40 {
      out += "…"
      break
    }
    n += 1
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    default:
      if scalar.value < 0x20 || scalar.value == 0x7F {
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}
