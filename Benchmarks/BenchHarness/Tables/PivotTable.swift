import Foundation

/// A report row with where it came from, for messages.
public struct NumberedRow: Sendable {
  public var row: ReportRow
  /// The report as the command named it.
  public var report: String
  /// The physical line the row starts on.
  public var line: Int

  public init(row: ReportRow, report: String, line: Int) {
    self.row = row
    self.report = report
    self.line = line
  }
}

/// The table ``TableSpec`` asks for, made from report rows: a header, the
/// rows' names and their cells, as text.
public struct PivotTable: Sendable, Equatable {
  /// What a cell holds when no row matches it (or its figure was not recorded).
  public static let missing = "–"

  public var header: [String]
  /// How many leading columns name the row; the rest hold figures.
  public var keyColumns: Int
  public var body: [[String]]

  /// The table of `spec` over `rows` (the reports' rows, in file order).
  ///
  /// - Throws: `.usage` for a request ``TableSpec/check()`` refuses, or a
  ///   label for a value the table does not show; `.badData` when a `--where`,
  ///   `@` or `--ratio-to` value is in no row, no row is left to show, or
  ///   two rows match one cell (the message names each by report and line).
  public static func make(_ spec: TableSpec, from rows: [NumberedRow]) throws(TableError) -> PivotTable {
    try spec.check()
    try checkValuesExist(spec, rows)
    let shown = rows.filter { r in spec.values.contains { v in spec.filters(for: v).allSatisfy { $0.matches(r.row) } } }
    guard !shown.isEmpty else {
      let asked = spec.filters.map { "--where \($0)" } + spec.values.map { "--value \($0)" }
      throw TableError(
        .badData, "no row of \(reportNames(rows)) passes \(asked.joined(separator: " "))")
    }
    let rowKeys = orderedKeys(spec.rows, of: shown, spec: spec)
    let columnKeys = spec.columns.isEmpty ? [[]] : orderedKeys(spec.columns, of: shown, spec: spec)
    try checkLabels(spec, rowKeys: rowKeys, columnKeys: columnKeys)

    let maker = CellMaker(spec: spec, rows: rows)
    var header = spec.rows.map(\.title)
    var columns: [(value: TableValue, key: [String])] = []
    if spec.columns.isEmpty {
      for value in spec.values {
        header.append(value.title ?? value.defaultTitle)
        columns.append((value, []))
      }
    } else {
      for key in columnKeys {
        let words = zip(spec.columns, key).map { spec.label($0, $1) }.filter { !$0.isEmpty }
        header.append(words.isEmpty ? missing : words.joined(separator: " "))
        columns.append((spec.values[0], key))
      }
    }
    var body: [[String]] = []
    for rowKey in rowKeys {
      var line = zip(spec.rows, rowKey).map { spec.label($0, $1) }
      for column in columns {
        line.append(try maker.cell(column.value, rowKey: rowKey, columnKey: column.key))
      }
      body.append(line)
    }
    return PivotTable(header: header, keyColumns: spec.rows.count, body: body)
  }

  /// A GitHub Markdown table: the names left-aligned, the figures right;
  /// `|` in a cell escaped. Ends with a line feed.
  public var markdown: String {
    func line(_ cells: [String]) -> String {
      "| " + cells.map(Self.escaped).joined(separator: " | ") + " |\n"
    }
    let rule = "|" + header.indices.map { $0 < keyColumns ? "---|" : "---:|" }.joined() + "\n"
    return line(header) + rule + body.map(line).joined()
  }

  static func escaped(_ cell: String) -> String {
    var text = ""
    for c in cell {
      switch c {
      case "|": text += "\\|"
      case "\n", "\r", "\r\n": text += " "
      default: text.append(c)
      }
    }
    return text
  }

  // MARK: - Keys

  /// The distinct tuples of `fields` in `rows`, ordered by the first field,
  /// then the second…: each field's values in the order a filter lists
  /// them, else in the order they first appear.
  private static func orderedKeys(_ fields: [TableField], of rows: [NumberedRow], spec: TableSpec) -> [[String]] {
    let keys = orderedGroups(rows) { r in fields.map { $0.value(of: r.row) } }
      .map { group in fields.map { $0.value(of: group[0].row) } }
    let ranks: [[String: Int]] = fields.indices.map { i in
      let order = spec.filters.first { $0.field == fields[i] }?.values
        ?? orderedGroups(keys) { $0[i] }.map { $0[0][i] }
      return Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    }
    func rank(_ key: [String]) -> [Int] { key.indices.map { ranks[$0][key[$0]] ?? Int.max } }
    return keys.sorted { rank($0).lexicographicallyPrecedes(rank($1)) }
  }

  // MARK: - Checks

  /// Every value a filter, a value's condition or the ratio names is in
  /// some row: a misspelt value is an error, not a silently empty column.
  private static func checkValuesExist(_ spec: TableSpec, _ rows: [NumberedRow]) throws(TableError) {
    var asked: [(TableCondition, String)] = spec.filters.map { ($0, "--where \($0)") }
    for value in spec.values { asked += value.conditions.map { ($0, "--value \(value)") } }
    if let ratio = spec.ratioTo { asked.append((ratio, "--ratio-to \(ratio)")) }
    for (condition, flag) in asked {
      let present = Set(rows.map { condition.field.value(of: $0.row) })
      for value in condition.values where !present.contains(value) {
        throw TableError(
          .badData, "\(flag): no row of \(reportNames(rows)) has \(condition.field)=\(value)"
            + " (it has: \(sample(present)))")
      }
    }
  }

  /// Every label names a value the table shows.
  private static func checkLabels(_ spec: TableSpec, rowKeys: [[String]], columnKeys: [[String]]) throws(TableError) {
    for label in spec.labels {
      let (fields, keys) = spec.rows.contains(label.field) ? (spec.rows, rowKeys) : (spec.columns, columnKeys)
      guard let i = fields.firstIndex(of: label.field) else { continue }
      let shown = keys.map { $0[i] }
      guard shown.contains(label.value) else {
        throw TableError(
          .usage, "--label \(label): the table shows no \(label.field)=\(label.value) (it shows: \(sample(Set(shown))))")
      }
    }
  }

  static func reportNames(_ rows: [NumberedRow]) -> String {
    var names: [String] = []
    for r in rows where names.last != r.report && !names.contains(r.report) { names.append(r.report) }
    return names.isEmpty ? "the reports" : names.joined(separator: ", ")
  }

  /// Up to eight values, sorted, for a message.
  static func sample(_ values: Set<String>) -> String {
    let sorted = values.sorted().map { $0.isEmpty ? "(empty)" : $0 }
    return sorted.prefix(8).joined(separator: ", ") + (sorted.count > 8 ? ", …" : "")
  }
}

extension TableSpec {
  /// The conditions a row meets to give `value`: the filters, but a value's
  /// own condition on a field in place of the filter on it
  /// (`--where zooms=all --value median_ns@zooms=0-3` reads zooms 0-3).
  func filters(for value: TableValue) -> [TableCondition] {
    filters.filter { f in !value.conditions.contains { $0.field == f.field } } + value.conditions
  }

  /// `value` of `field` as the table writes it: its label, else itself.
  func label(_ field: TableField, _ value: String) -> String {
    labels.last { $0.field == field && $0.value == value }?.text ?? value
  }
}

/// The cells of one table: finds each cell's row, and the row its ratio
/// divides by, and writes the figure.
private struct CellMaker {
  let spec: TableSpec
  /// Every row of the reports.
  let rows: [NumberedRow]

  func cell(_ value: TableValue, rowKey: [String], columnKey: [String]) throws(TableError) -> String {
    let coordinates = Array(zip(spec.rows, rowKey)) + Array(zip(spec.columns, columnKey))
    let filters = spec.filters(for: value)
    let matches = rows.filter { r in
      filters.allSatisfy { $0.matches(r.row) } && coordinates.allSatisfy { $0.value(of: r.row) == $1 }
    }
    guard let row = try one(matches, value: value, coordinates: coordinates, ratio: false) else {
      return PivotTable.missing
    }
    guard let ratio = spec.ratioTo else { return figureText(row.row, value.figure) }
    // the row with the ratio's value instead, the same otherwise
    let field = ratio.field, target = ratio.values[0]
    let others = coordinates.filter { $0.0 != field }
    let references = rows.filter { r in
      field.value(of: r.row) == target && filters.allSatisfy { $0.field == field || $0.matches(r.row) }
        && others.allSatisfy { $0.value(of: r.row) == $1 }
    }
    guard let reference = try one(references, value: value, coordinates: others + [(field, target)], ratio: true),
      let a = number(row.row, value.figure), let b = number(reference.row, value.figure), b != 0
    else { return PivotTable.missing }
    return formatThreeDigits(a / b) + "×"
  }

  /// The one row of `matches`, nil for none.
  ///
  /// - Throws: `.badData` for two or more, naming each by report and line
  ///   and the key fields in which they differ.
  private func one(
    _ matches: [NumberedRow], value: TableValue, coordinates: [(TableField, String)], ratio: Bool
  ) throws(TableError) -> NumberedRow? {
    guard matches.count > 1 else { return matches.first }
    let cell = (coordinates.map { "\($0.name)=\($1)" } + [value.text]).joined(separator: ", ")
    let listed = matches.prefix(4).map { "\($0.report):\($0.line) \($0.row.key)" }.joined(separator: "; ")
    let keyFields = ["index", "params", "dataset", "n", "workload", "strategy", "zooms"]
      .compactMap { try? TableField($0) }
    let differing = keyFields.filter { f in Set(matches.map { f.value(of: $0.row) }).count > 1 }
    let advice = differing.isEmpty
      ? "they have the same key (a report holding a row twice?)"
      : "they differ in \(differing.map(\.name).joined(separator: ", ")): pick one with --where or make it a row or column"
    throw TableError(
      .badData,
      "\(matches.count) rows match one \(ratio ? "--ratio-to reference" : "cell") (\(cell)): \(listed)"
        + "\(matches.count > 4 ? "; …" : ""); \(advice)")
  }

  /// The figure of `row`, nil when not recorded (an empty field).
  private func number(_ row: ReportRow, _ figure: TableField) -> Double? {
    let text = figure.value(of: row)
    return text.isEmpty ? nil : Double(text)
  }

  /// The figure written in its column's unit.
  private func figureText(_ row: ReportRow, _ figure: TableField) -> String {
    guard let column = figure.reportColumn, let v = number(row, figure) else { return PivotTable.missing }
    switch column.unit {
    case .nanoseconds: return formatDurationShort(v)
    case .milliseconds: return formatDurationShort(v * 1e6)
    case .bytesPerPoint: return String(format: "%.1f", v)
    case .bytes, .count: return column.kind == .integer ? figure.value(of: row) : String(format: "%.0f", v)
    case .none: return formatThreeDigits(v)
    }
  }
}
