import BenchFormats

/// A report as JSON, for tools that read JSON rather than CSV
/// (`bench run --json FILE`). Its shape, documented in `docs/formats.md`:
///
///     {
///       "format": "spatialbench-report", "version": 2,
///       "run": {"timestamp": "…", "git_commit": "…", …, "seed": 42},
///       "columns": [{"name": "index", "kind": "text", "meaning": "…"}, …],
///       "rows": [{"index": "kdtree", "params": "nodeSize=64", …, "median_ns": 301.5, …}]
///     }
///
/// `run` holds the run's metadata once (the CSV repeats it in every row);
/// `columns` describes each member of a row, in CSV order; a row has every
/// column but the run's. Numbers are JSON numbers (a value not recorded, or
/// not finite, is `null`), flags booleans, checksums `0x` strings.
extension ReportSchema {
  /// The newest column's version: the schema this build writes.
  public static var version: Int { ReportColumn.all.map(\.addedIn).max() ?? 1 }

  /// `rows` of one run with `run` as JSON text, ending in a newline.
  public static func json(_ rows: [ReportRow], run: RunMetadata) -> String {
    let runColumns = ReportColumn.all.filter { $0.group == .run }
    let rowColumns = ReportColumn.all.filter { $0.group != .run }
    var metadata = ReportRow.empty
    metadata.run = run
    var out = "{\n  \"format\": \"spatialbench-report\",\n  \"version\": \(version),\n"
    out += "  \"run\": " + object(metadata, runColumns) + ",\n"
    out += "  \"columns\": [\n"
    out += rowColumns.map { c in
      "    {\"name\": \(JSONText.string(c.name)), \"kind\": \(JSONText.string(c.kind.rawValue)), "
        + "\"meaning\": \(JSONText.string(c.meaning))}"
    }.joined(separator: ",\n")
    out += "\n  ],\n  \"rows\": ["
    out += rows.isEmpty ? "" : "\n" + rows.map { "    " + object($0, rowColumns) }.joined(separator: ",\n") + "\n  "
    return out + "]\n}\n"
  }

  /// One row's `columns` as a JSON object on one line.
  static func object(_ row: ReportRow, _ columns: [ReportColumn]) -> String {
    "{" + columns.map { c in "\(JSONText.string(c.name)): \(JSONText.value(c.format(row), c.kind))" }
      .joined(separator: ", ") + "}"
  }
}

/// JSON spellings of the CSV fields.
enum JSONText {
  /// A field of `kind` as a JSON value: empty numbers are `null`.
  static func value(_ field: String, _ kind: ReportColumn.Kind) -> String {
    switch kind {
    case .text, .hex: string(field)
    case .integer, .number: field.isEmpty ? "null" : field
    case .flag: field == "1" ? "true" : "false"
    }
  }

  /// A JSON string (``jsonString(_:)``, shared with the GeoJSON writer).
  static func string(_ s: String) -> String { jsonString(s) }
}
