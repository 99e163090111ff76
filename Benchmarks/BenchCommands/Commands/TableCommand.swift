import BenchHarness

/// `bench table REPORT.csv… --rows FIELD[,FIELD…] --value FIGURE… [--where
/// FIELD=V[,V…]]… [--columns FIELD[,FIELD…]] [--ratio-to FIELD=VALUE]
/// [--label FIELD=VALUE:TEXT]…`: a Markdown table of the reports' figures
/// (``TableSpec`` says what each flag does). The guides' measured tables are
/// this command's output (`bench docs`). Never writes to the reports.
func tableCommand(_ arguments: [String]) throws -> Int32 {
  var o = TableOptions()
  try TableOptions.table.parse(arguments, into: &o)
  try OutputCheck.checkStandardOutput(against: o.files.map { InputSource("report", $0) })
  output(try o.markdown(), terminator: "")
  return 0
}

/// What `bench table` reads from the command line.
struct TableOptions {
  var files: [String] = []
  var spec = TableSpec()

  static var table: FlagTable<TableOptions> {
    FlagTable("table", [
      Flag(
        "--where", "FIELD=V[,V…]", help: "keep the rows whose FIELD is one of the values (strategy= is none), and"
          + " list FIELD's values in this order", repeatable: true
      ) { (o: inout TableOptions, v: FlagValue) throws(UsageError) in
        o.spec.filters.append(try reading(v) { () throws(TableError) in try TableCondition(v.text) })
      },
      Flag("--rows", "FIELD[,FIELD…]", help: "a table row per value of these fields", required: true) {
        (o: inout TableOptions, v: FlagValue) throws(UsageError) in
        o.spec.rows = try fields(v)
      },
      Flag(
        "--columns", "FIELD[,FIELD…]",
        help: "a column per value of these fields, each cell the one --value (without it,"
          + " a column per --value)"
      ) { (o: inout TableOptions, v: FlagValue) throws(UsageError) in
        o.spec.columns = try fields(v)
      },
      Flag(
        "--value", "[TITLE=]FIGURE[@FIELD=V[,V…]]…",
        help: "the figure a cell holds (median_ns, p99_ns, build_ms, bytes_per_point…), from"
          + " the rows that meet its @ conditions (in place of a --where on the same field);"
          + " without --columns, each --value is a column", repeatable: true,
        required: true
      ) { (o: inout TableOptions, v: FlagValue) throws(UsageError) in
        o.spec.values.append(try reading(v) { () throws(TableError) in try TableValue(v.text) })
      },
      Flag(
        "--ratio-to", "FIELD=VALUE",
        help: "each cell over the figure of the row with this value instead, written 41.2×"
      ) { (o: inout TableOptions, v: FlagValue) throws(UsageError) in
        o.spec.ratioTo = try reading(v) { () throws(TableError) in try TableCondition(v.text) }
      },
      Flag("--label", "FIELD=VALUE:TEXT", help: "write a row or column value as TEXT", repeatable: true) {
        (o: inout TableOptions, v: FlagValue) throws(UsageError) in
        o.spec.labels.append(try reading(v) { () throws(TableError) in try TableLabel(v.text) })
      },
    ]).taking("REPORT.csv…") { (o: inout TableOptions, file: String) throws(UsageError) in o.files.append(file) }
  }

  /// The table, from the reports read at `root` + their names (the names as
  /// given in messages).
  ///
  /// - Throws: ``UsageError`` for a request the table cannot be made of (no
  ///   report, a malformed flag), ``ReportError`` for a report that cannot
  ///   be read, ``TableError`` (65) for reports that do not fit the request.
  func markdown(root: String? = nil) throws -> String {
    guard !files.isEmpty else { throw UsageError("table needs at least one report", command: "table") }
    var rows: [NumberedRow] = []
    for file in files {
      let path = root.map { $0 + "/" + file } ?? file
      rows += try TableReport.read(path, name: file)
    }
    let table: Result<PivotTable, TableError> = Result { () throws(TableError) in try PivotTable.make(spec, from: rows) }
    switch table {
    case .success(let table): return table.markdown
    case .failure(let error): throw error.kind == .usage ? usageError(error, command: "table") : error
    }
  }
}

/// A flag's value read by a parser of the table module, its error a usage error.
private func reading<T>(_ v: FlagValue, _ parse: () throws(TableError) -> T) throws(UsageError) -> T {
  do {
    return try parse()
  } catch {
    throw usageError(error, command: v.command, flag: v.flag)
  }
}

/// `FIELD[,FIELD…]`.
private func fields(_ v: FlagValue) throws(UsageError) -> [TableField] {
  var result: [TableField] = []
  for name in v.text.split(separator: ",", omittingEmptySubsequences: false) {
    result.append(try reading(v) { () throws(TableError) in try TableField(String(name)) })
  }
  return result
}

/// A table error as a usage error, an unknown column with the nearest name.
private func usageError(_ error: TableError, command: String, flag: String? = nil) -> UsageError {
  if let name = error.unknownName {
    var e = UsageError.unknown("report column", name, valid: ReportColumn.all.map(\.name), command: command)
    e.message += " (a parameter is params:NAME)"
    return e
  }
  let prefix = flag.map { error.message.hasPrefix($0) ? "" : "\($0): " } ?? ""
  return UsageError(prefix + error.message, command: command)
}
