import BenchFormats

/// The CSV layout of a report: one row per `ReportKey`, one column per figure
/// (``ReportColumn/all``), which spreadsheets, pandas and gnuplot read directly.
///
/// Units are in the names (`_ns`, `_ms`, `_bytes`). Timing is per operation.
/// `checksum` is `0x` + 16 hex digits (exact as text everywhere); `noisy` is
/// 0/1; counters are empty when not recorded; `bytes_per_point` is derived
/// (`index_bytes / n`, 0 when n = 0) and recomputed when read back.
public enum ReportSchema {
  /// Column names, in file order.
  public static let columns: [String] = ReportColumn.all.map(\.name)

  /// The header line, with its LF.
  public static var headerLine: String { CSVWriter.line(columns) }

  /// A full report: the header, then one line per row.
  public static func render(_ rows: [ReportRow]) -> String {
    var csv = CSVWriter()
    csv.writeRow(columns)
    for row in rows { csv.writeRow(row.csvFields) }
    return csv.text
  }

  /// The rows of report text; see ``parse(_:path:)-(_,_)``.
  public static func parse(_ text: String, path: String) throws(ReportError) -> [ReportRow] {
    try parse(Array(text.utf8), path: path)
  }

  /// The rows of report bytes (UTF-8, read by the same CSV reader as every
  /// other file).
  ///
  /// Columns are found by name, so their order may differ and unknown ones
  /// are ignored. A report written before some columns were added
  /// (``ReportColumn/addedIn`` > 1) lacks them: they keep their empty value.
  /// A missing column of the first format, a short row or an unparsable
  /// number is `.badData` naming the physical line and the column. `path`
  /// is only used in messages.
  public static func parse(_ bytes: [UInt8], path: String) throws(ReportError) -> [ReportRow] {
    try numberedRows(bytes, path: path).map(\.row)
  }

  /// The rows of report bytes as ``parse(_:path:)-(_,_)`` reads them, each
  /// with the physical line it starts on, for messages about a row.
  public static func numberedRows(
    _ bytes: [UInt8], path: String
  ) throws(ReportError) -> [(line: Int, row: ReportRow)] {
    do {
      return try CSVTable.read(bytes, source: path) { table throws(DataError) in
        try rows(&table)
      }
    } catch {
      throw ReportError(.badData, path: path, detail: error.detail)
    }
  }

  private static func rows(_ table: inout CSVTable) throws(DataError) -> [(line: Int, row: ReportRow)] {
    var position: [String: Int] = [:]
    for (i, name) in table.header.enumerated() where position[name] == nil { position[name] = i }
    let all = ReportColumn.all
    // Columns are only added at the end: a report written before some were
    // added lacks them, but every column of the first format must be there.
    let missing = all.filter { $0.isRead && $0.addedIn == 1 && position[$0.name] == nil }
    if !missing.isEmpty {
      throw DataError.badData(
        file: table.source, line: table.headerLine, field: nil,
        message: "missing columns: \(missing.map(\.name).joined(separator: ", "))")
    }
    let readers = all.compactMap { column in
      position[column.name].flatMap { i in column.parse.map { ($0, i) } }
    }
    var rows: [(line: Int, row: ReportRow)] = []
    while try table.nextRow() {
      var row = ReportRow.empty
      for (parse, i) in readers { try parse(&row, table, i) }
      rows.append((table.line, row))
    }
    return rows
  }
}

extension ReportRow {
  /// The row's fields in ``ReportSchema/columns`` order.
  public var csvFields: [String] { ReportColumn.all.map { $0.format(self) } }

  /// Every figure zero or empty: what a column missing from a report reads
  /// as (a dataset's origin: not recorded).
  public static let empty = ReportRow(
    key: ReportKey(index: "", dataset: "", n: 0, workload: "", strategy: "", zooms: ""),
    timing: .zero,
    run: RunMetadata(
      timestamp: "", gitCommit: "", machine: MachineInfo(cpuModel: "", cores: 0, memoryBytes: 0, os: ""),
      swiftVersion: "", buildConfig: "", seed: 0),
    datasetOrigin: .unrecorded)
}

extension DataError {
  /// The message without the file name (a report error names it already).
  var detail: String {
    switch self {
    case let .badData(_, line, field?, message): "line \(line): \(field) \(message)"
    case let .badData(_, line, nil, message): "line \(line): \(message)"
    case let .unreadable(_, reason): reason
    }
  }
}
