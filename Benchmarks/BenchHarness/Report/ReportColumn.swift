import BenchFormats

/// One column of a report, declared once: its name, what it means, its kind,
/// and how a row's value is written and read back. ``ReportColumn/all`` is the
/// schema: the CSV header, the CSV and JSON writers, the reader, `bench list
/// --columns` and the table in `docs/formats.md` all come from it.
///
/// Columns are only ever added at the end, so a report written before a
/// column existed still reads: the columns it lacks keep their empty value.
public struct ReportColumn: Sendable {
  /// How the value is spelled, in CSV and as a JSON type.
  public enum Kind: String, Sendable {
    /// Free text; a JSON string.
    case text
    /// A whole number, decimal; a JSON number. Empty when not recorded (`null`).
    /// The reader takes every value the field's type holds (`n` up to
    /// `Int.max`, counters up to `UInt64.max`); sums of them saturate where
    /// they are used (``Candidate``), never trap.
    case integer
    /// A double in its shortest exact form (`12.5`, `1e-05`); empty for NaN
    /// or infinity, read back as 0.
    ///
    /// The reader takes every finite number, also one no run measures (a
    /// subnormal or negative latency, `build_ms=1e308`), and refuses only
    /// text that is no number (`nan`, `inf`, `1e400`: exit 65 naming the
    /// file, line and column). Clamping is left to what draws and prints:
    /// a report from a hand edit or another tool stays readable whole, and
    /// the drawing code has to be total anyway, since figures derived from
    /// plausible ones overflow too (build_ms × 10^6, new / old from a tiny
    /// baseline). ``AxisScale`` clamps what it places on an axis,
    /// `shortNumber`, `formatFigure` and ``formatDuration(_:)`` print any
    /// double; `bench plot`, `report` and `compare` never trap on a report
    /// the reader took (the fuzz target and `HostileReportTests` check it).
    case number
    /// `0` or `1`; a JSON boolean.
    case flag
    /// `0x` and 16 hex digits (exact in every spreadsheet); a JSON string.
    case hex
  }

  /// Which part of a row it belongs to. The JSON report puts the `run`
  /// columns once, beside the rows.
  public enum Group: String, Sendable {
    case key, timing, build, answers, work, run
  }

  public let name: String
  /// One line for people: the README table and `bench list --columns`.
  public let meaning: String
  public let kind: Kind
  public let group: Group
  /// The schema version that added the column: 1 for those of the first
  /// report format. A report may lack columns added after version 1 (it was
  /// written before they existed); they then read as empty.
  public private(set) var addedIn = 1
  /// The value of `row`, as written in the CSV.
  public let format: @Sendable (ReportRow) -> String
  /// Sets the row's value from field `i` of the table's current row; `nil`
  /// for a derived column, which is recomputed rather than read.
  let parse: (@Sendable (inout ReportRow, CSVTable, Int) throws(DataError) -> Void)?

  init(
    _ name: String, _ kind: Kind, _ group: Group, _ meaning: String,
    format: @escaping @Sendable (ReportRow) -> String,
    parse: (@Sendable (inout ReportRow, CSVTable, Int) throws(DataError) -> Void)?
  ) {
    self.name = name
    self.kind = kind
    self.group = group
    self.meaning = meaning
    self.format = format
    self.parse = parse
  }

  /// Whether the reader sets this column (a derived one it recomputes).
  public var isRead: Bool { parse != nil }

  /// The same column, marked as added in schema `version`.
  func added(in version: Int) -> ReportColumn {
    var c = self
    c.addedIn = version
    return c
  }
}

// MARK: - Kinds of column

extension ReportColumn {
  static func text(
    _ name: String, _ group: Group, _ meaning: String,
    _ path: WritableKeyPath<ReportRow, String> & Sendable
  ) -> ReportColumn {
    ReportColumn(name, .text, group, meaning, format: { $0[keyPath: path] }) { row, table, i in
      row[keyPath: path] = table.text(i)
    }
  }

  static func integer<T: FixedWidthInteger & Sendable>(
    _ name: String, _ group: Group, _ meaning: String,
    _ path: WritableKeyPath<ReportRow, T> & Sendable
  ) -> ReportColumn {
    ReportColumn(name, .integer, group, meaning, format: { CSVWriter.field($0[keyPath: path]) }) {
      row, table, i throws(DataError) in
      row[keyPath: path] = try table.integer(i, as: T.self)
    }
  }

  /// An integer that may not have been recorded: an empty field is `nil`.
  static func optionalInteger(
    _ name: String, _ group: Group, _ meaning: String,
    _ path: WritableKeyPath<ReportRow, UInt64?> & Sendable
  ) -> ReportColumn {
    ReportColumn(name, .integer, group, meaning, format: { CSVWriter.field($0[keyPath: path]) }) {
      row, table, i throws(DataError) in
      row[keyPath: path] = table.text(i).isEmpty ? nil : try table.integer(i, as: UInt64.self)
    }
  }

  static func number(
    _ name: String, _ group: Group, _ meaning: String,
    _ path: WritableKeyPath<ReportRow, Double> & Sendable
  ) -> ReportColumn {
    ReportColumn(name, .number, group, meaning, format: { CSVWriter.field($0[keyPath: path]) }) {
      row, table, i throws(DataError) in
      row[keyPath: path] = try table.number(i, allowEmpty: true) ?? 0
    }
  }

  static func flag(
    _ name: String, _ group: Group, _ meaning: String,
    _ path: WritableKeyPath<ReportRow, Bool> & Sendable
  ) -> ReportColumn {
    ReportColumn(name, .flag, group, meaning, format: { CSVWriter.field($0[keyPath: path]) }) {
      row, table, i throws(DataError) in
      switch table.text(i) {
      case "1": row[keyPath: path] = true
      case "0", "": row[keyPath: path] = false
      default: throw table.bad(i, "\(table.shown(i)) is not 0 or 1")
      }
    }
  }

  static func hex(
    _ name: String, _ group: Group, _ meaning: String,
    _ path: WritableKeyPath<ReportRow, UInt64> & Sendable
  ) -> ReportColumn {
    ReportColumn(name, .hex, group, meaning, format: { CSVWriter.hexField($0[keyPath: path]) }) {
      row, table, i throws(DataError) in
      let s = table.text(i)
      // `0x` and hex digits, or plain decimal (a hand-edited report)
      let v = s.hasPrefix("0x") ? UInt64(s.dropFirst(2), radix: 16) : UInt64(s)
      guard let v else { throw table.bad(i, "\(table.shown(i)) is not a 64-bit value") }
      row[keyPath: path] = v
    }
  }

  /// Written from other fields, never read.
  static func derived(
    _ name: String, _ kind: Kind, _ group: Group, _ meaning: String,
    _ format: @escaping @Sendable (ReportRow) -> String
  ) -> ReportColumn {
    ReportColumn(name, kind, group, meaning, format: format, parse: nil)
  }
}

extension CSVTable {
  /// Field `i` as a whole number of type `T`.
  func integer<T: FixedWidthInteger>(_ i: Int, as type: T.Type) throws(DataError) -> T {
    let v = try id(i)
    guard let value = T(exactly: v) else { throw bad(i, "\(shown(i)) is too large") }
    return value
  }
}
