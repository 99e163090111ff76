/// What `bench table` makes of the reports: a small pivot, spelt out so
/// the same request gives the same table on any machine.
///
/// - ``filters`` (`--where`) keep the rows whose field is one of the values.
/// - ``rows`` (`--rows`) make one table row per distinct value (or tuple of
///   values) of these fields, ordered by the first field, then the next…,
///   each field's values in the order they first appear in the reports, or
///   in the order a filter on the field lists them.
/// - Either ``columns`` (`--columns`) make one column per distinct value of
///   these fields, each cell the one ``values`` figure; or, without
///   ``columns``, each of ``values`` is a column, with its own conditions
///   (a value's condition on a field replaces the filter on that field).
/// - A cell is the figure of the one row that matches it: `–` when none
///   does, an error when two do (never a silent pick).
/// - ``ratioTo`` (`--ratio-to FIELD=VALUE`) divides each cell by the figure
///   of the row that has that value instead, the same row and column
///   values otherwise.
/// - ``labels`` (`--label FIELD=VALUE:TEXT`) rename a value in the header or
///   in the rows.
public struct TableSpec: Sendable, Equatable {
  public var filters: [TableCondition] = []
  public var rows: [TableField] = []
  public var columns: [TableField] = []
  public var values: [TableValue] = []
  public var ratioTo: TableCondition?
  public var labels: [TableLabel] = []

  public init() {}

  /// Refuses a request that has no one meaning.
  ///
  /// - Throws: `.usage` when rows or values are missing, `--columns` comes
  ///   with several values or a titled one, a field is both a row and a
  ///   column, `--ratio-to` gives other than one value, or a label names a
  ///   field that is neither a row nor a column.
  public func check() throws(TableError) {
    guard !rows.isEmpty else { throw TableError(.usage, "--rows is required: the field(s) that make the table's rows") }
    guard !values.isEmpty else { throw TableError(.usage, "--value is required: the figure the cells hold") }
    if !columns.isEmpty {
      guard values.count == 1 else {
        throw TableError(
          .usage, "--columns takes one --value (each column is that figure for one value of the columns);"
            + " without --columns, each --value is a column")
      }
      if let title = values[0].title {
        throw TableError(
          .usage, "with --columns the columns are named by their values: \"\(title)=\" titles nothing")
      }
    }
    for field in rows where columns.contains(field) {
      throw TableError(.usage, "\(field) is both a row and a column field")
    }
    for fields in [rows, columns] where Set(fields).count < fields.count {
      throw TableError(.usage, "a field is named twice in --rows or --columns")
    }
    if let ratioTo, ratioTo.values.count != 1 {
      throw TableError(.usage, "--ratio-to takes one FIELD=VALUE, got \(ratioTo)")
    }
    for label in labels where !rows.contains(label.field) && !columns.contains(label.field) {
      throw TableError(
        .usage, "--label \(label): \(label.field) is neither a row nor a column field of the table")
    }
  }
}

/// One figure column: `[TITLE=]FIGURE[@FIELD=V[,V…]]…`, the figure a report
/// column of numbers (`median_ns`, `p99_ns`, `build_ms`, `bytes_per_point`,
/// `results_total`…) and each `@` a condition of its own, on top of the
/// filters (`median_ns@workload=cluster@strategy=aggregate`); a condition on
/// a field a filter names replaces that filter for this column
/// (`median_ns@zooms=0-3` beside `--where zooms=all`).
public struct TableValue: Sendable, Equatable, CustomStringConvertible {
  /// The column's header when given (`viewport=median_ns@workload=viewport`).
  public var title: String?
  public var figure: TableField
  public var conditions: [TableCondition]
  /// As written.
  public var text: String

  /// Reads `[TITLE=]FIGURE[@FIELD=V[,V…]]…`. The title is what comes before
  /// the last `=` ahead of the first `@`, so it may hold a `=` itself
  /// (`nearest k=10=median_ns@…`), but no `@`.
  ///
  /// - Throws: `.usage` for an unknown column, a figure that is not a
  ///   number, an empty title or condition.
  public init(_ text: String) throws(TableError) {
    self.text = text
    let parts = text.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
    var head = parts[0]
    title = nil
    if let eq = head.lastIndex(of: "=") {
      let t = String(head[..<eq])
      guard !t.isEmpty else { throw TableError(.usage, "--value \"\(text)\": the title before = is empty") }
      title = t
      head = String(head[head.index(after: eq)...])
    }
    figure = try TableField(head)
    guard let column = figure.reportColumn, column.isFigure else {
      throw TableError(
        .usage, "--value \"\(text)\": \(head) is not a column of numbers"
          + " (median_ns, p99_ns, build_ms, bytes_per_point, results_total…)")
    }
    conditions = []
    for part in parts.dropFirst() {
      guard !part.isEmpty else { throw TableError(.usage, "--value \"\(text)\": an empty condition after @") }
      conditions.append(try TableCondition(part))
    }
  }

  /// The header without a title: the conditions' values, then the figure
  /// without its unit (`cluster aggregate median`, `build`, `bytes per point`).
  public var defaultTitle: String {
    var name = figure.name
    for suffix in ["_ns", "_ms"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
    let words = conditions.map { $0.values.joined(separator: ",") }.filter { !$0.isEmpty }
    return (words + [name.replacingUnderscores()]).joined(separator: " ")
  }

  public var description: String { text }
}

/// `FIELD=VALUE:TEXT`: the value written as the text wherever the table
/// shows it (a column's header, a row's name). The value ends at the first
/// `:` after the `=`, so a value holding a `:` cannot be labelled.
public struct TableLabel: Sendable, Equatable, CustomStringConvertible {
  public var field: TableField
  public var value: String
  public var text: String

  public init(_ text: String) throws(TableError) {
    guard let eq = text.firstIndex(of: "="),
      let colon = text[text.index(after: eq)...].firstIndex(of: ":")
    else { throw TableError(.usage, "--label \"\(text)\" is not FIELD=VALUE:TEXT") }
    field = try TableField(String(text[..<eq]))
    value = String(text[text.index(after: eq)..<colon])
    self.text = String(text[text.index(after: colon)...])
    guard !self.text.isEmpty else { throw TableError(.usage, "--label \"\(text)\": the text after : is empty") }
  }

  public var description: String { "\(field.name)=\(value):\(text)" }
}

extension String {
  fileprivate func replacingUnderscores() -> String {
    String(map { $0 == "_" ? " " : $0 })
  }
}
