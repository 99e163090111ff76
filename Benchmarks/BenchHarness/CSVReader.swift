/// Parses the CSV that `CSVWriter` writes (and RFC 4180 CSV in general).
///
/// Works on UTF-8 bytes, not `Character`s: `"\r\n"` is one `Character` in
/// Swift, and a byte scan is several times faster than `String.split`.
///
/// Accepted: quoted fields with doubled quotes and embedded commas, CR and LF;
/// LF or CRLF line ends; a missing final line end; a leading UTF-8 byte-order
/// mark (spreadsheets add one when saving). Blank lines are skipped — a report
/// never has a one-column row. Rejected with `CSVReader.Error`: a quote inside
/// a bare field, text after a closing quote, and an unclosed quote.
public enum CSVReader {
  /// Why the text is not valid CSV; `line` is 1-based.
  public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var description: String { "line \(line): \(reason)" }

    public init(line: Int, reason: String) {
      self.line = line
      self.reason = reason
    }
  }

  /// The records of `text`, each a list of unescaped fields.
  ///
  /// - Complexity: O(length of `text`).
  public static func parse(_ text: String) throws(CSVReader.Error) -> [[String]] {
    try parse(Array(text.utf8))
  }

  /// The records of UTF-8 `bytes`; invalid UTF-8 is repaired with U+FFFD.
  public static func parse(_ bytes: [UInt8]) throws(CSVReader.Error) -> [[String]] {
    let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
    let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
    var records: [[String]] = []
    var record: [String] = []
    var field: [UInt8] = []
    var line = 1
    var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    // A field that was quoted counts even if empty, so `""` is a record.
    var fieldWasQuoted = false

    func endField() {
      record.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
    }
    func endRecord() {
      if record.isEmpty && field.isEmpty && !fieldWasQuoted { return }  // blank line
      endField()
      records.append(record)
      record = []
    }

    while i < bytes.count {
      let byte = bytes[i]
      if byte == quote {
        guard field.isEmpty && !fieldWasQuoted else {
          throw Error(line: line, reason: "quote inside an unquoted field")
        }
        fieldWasQuoted = true
        let openedOn = line
        i += 1
        var closed = false
        while i < bytes.count {
          let b = bytes[i]
          if b == quote {
            if i + 1 < bytes.count && bytes[i + 1] == quote {
              field.append(quote)
              i += 2
              continue
            }
            i += 1
            closed = true
            break
          }
          if b == lf { line += 1 }
          field.append(b)
          i += 1
        }
        guard closed else { throw Error(line: openedOn, reason: "unclosed quote") }
        if i < bytes.count, bytes[i] != comma, bytes[i] != lf, bytes[i] != cr {
          throw Error(line: line, reason: "text after a closing quote")
        }
        continue
      }
      switch byte {
      case comma:
        endField()
        fieldWasQuoted = false
      case lf:
        endRecord()
        fieldWasQuoted = false
        line += 1
      case cr where i + 1 < bytes.count && bytes[i + 1] == lf:
        break  // the LF ends the record
      default:
        if fieldWasQuoted {
          throw Error(line: line, reason: "text after a closing quote")
        }
        field.append(byte)
      }
      i += 1
    }
    endRecord()
    return records
  }
}
