/// The CSV layout of a report: one row per `ReportKey`, one column per figure,
/// which spreadsheets, pandas and gnuplot read directly.
///
/// The column order is stable: `--append` refuses a file whose header differs,
/// so adding, removing or moving a column starts a new report.
///
/// Units are in the names (`_ns`, `_ms`, `_bytes`). Timing is per operation.
/// `checksum` is `0x` + 16 hex digits (exact as text everywhere); `noisy` is
/// 0/1; counters are empty when not recorded; `bytes_per_point` is derived
/// (`index_bytes / n`, 0 when n = 0) and recomputed when read back.
public enum ReportSchema {
  /// Column names, in file order.
  public static let columns: [String] = [
    // key
    "index", "params", "dataset", "n", "workload", "strategy", "zooms",
    // timing per operation
    "samples", "min_ns", "median_ns", "p90_ns", "p99_ns", "max_ns", "mean_ns",
    "stddev_ns", "ci_low_ns", "ci_high_ns", "noisy", "batch",
    // build and memory
    "build_ms", "index_bytes", "bytes_per_point", "peak_rss_bytes",
    // answers
    "results_total", "checksum", "churn",
    // deterministic work
    "nodes_visited", "points_tested", "points_reported",
    // machine and run
    "timestamp", "git_commit", "cpu_model", "cores", "memory_bytes", "os",
    "swift_version", "build_config", "seed",
  ]

  /// The header line, with its LF.
  public static var headerLine: String { CSVWriter.line(columns) }

  /// A full report: the header, then one line per row.
  public static func render(_ rows: [ReportRow]) -> String {
    var csv = CSVWriter()
    csv.writeRow(columns)
    for row in rows { csv.writeRow(row.csvFields) }
    return csv.text
  }

  /// The rows of report text. Columns are found by name, so their order may
  /// differ and extra columns are ignored; a missing column, a short row or an
  /// unparsable number is `.badData`. `path` is only used in messages.
  public static func parse(_ text: String, path: String) throws(ReportError) -> [ReportRow] {
    try parse(Array(text.utf8), path: path)
  }

  /// The rows of report bytes (UTF-8); see `parse(_:path:)`.
  public static func parse(_ bytes: [UInt8], path: String) throws(ReportError) -> [ReportRow] {
    let records: [[String]]
    do {
      records = try CSVReader.parse(bytes)
    } catch {
      throw ReportError(.badData, path: path, detail: error.description)
    }
    guard let header = records.first else {
      throw ReportError(.badData, path: path, detail: "empty file, no header")
    }
    var position: [String: Int] = [:]
    for (i, name) in header.enumerated() where position[name] == nil { position[name] = i }
    let missing = columns.filter { position[$0] == nil }
    guard missing.isEmpty else {
      throw ReportError(
        .badData, path: path,
        detail: "missing columns: \(missing.joined(separator: ", "))")
    }
    var rows: [ReportRow] = []
    rows.reserveCapacity(records.count - 1)
    for (number, record) in records.dropFirst().enumerated() {
      guard record.count == header.count else {
        throw ReportError(
          .badData, path: path,
          detail: "row \(number + 1) has \(record.count) fields, header has \(header.count)")
      }
      var fields = FieldReader(record: record, position: position)
      do {
        rows.append(try ReportRow(fields: &fields))
      } catch {
        throw ReportError(.badData, path: path, detail: "row \(number + 1): \(error.detail)")
      }
    }
    return rows
  }
}

extension ReportRow {
  /// The row's fields in `ReportSchema.columns` order.
  public var csvFields: [String] {
    let t = timing, m = run.machine
    return [
      key.index, key.params, key.dataset, CSVWriter.field(key.n), key.workload, key.strategy,
      key.zooms,
      CSVWriter.field(t.samples), CSVWriter.field(t.min), CSVWriter.field(t.median),
      CSVWriter.field(t.p90), CSVWriter.field(t.p99), CSVWriter.field(t.max),
      CSVWriter.field(t.mean), CSVWriter.field(t.stddev), CSVWriter.field(t.ciLow),
      CSVWriter.field(t.ciHigh), CSVWriter.field(t.noisy), CSVWriter.field(t.batch),
      CSVWriter.field(buildMilliseconds), CSVWriter.field(indexBytes),
      CSVWriter.field(bytesPerPoint), CSVWriter.field(peakRSSBytes),
      CSVWriter.field(resultsTotal), CSVWriter.hexField(checksum), CSVWriter.field(churn),
      CSVWriter.field(counters.nodesVisited), CSVWriter.field(counters.pointsTested),
      CSVWriter.field(counters.pointsReported),
      run.timestamp, run.gitCommit, m.cpuModel, CSVWriter.field(m.cores),
      CSVWriter.field(m.memoryBytes), m.os, run.swiftVersion, run.buildConfig,
      CSVWriter.field(run.seed),
    ]
  }

  fileprivate init(fields f: inout FieldReader) throws(FieldError) {
    let key = ReportKey(
      index: f.text("index"), params: f.text("params"), dataset: f.text("dataset"),
      n: try f.integer("n"), workload: f.text("workload"), strategy: f.text("strategy"),
      zooms: f.text("zooms"))
    let timing = TimingSummary(
      samples: try f.integer("samples"), min: try f.double("min_ns"),
      median: try f.double("median_ns"), p90: try f.double("p90_ns"),
      p99: try f.double("p99_ns"), max: try f.double("max_ns"), mean: try f.double("mean_ns"),
      stddev: try f.double("stddev_ns"), ciLow: try f.double("ci_low_ns"),
      ciHigh: try f.double("ci_high_ns"), noisy: try f.bool("noisy"),
      batch: try f.integer("batch"))
    let machine = MachineInfo(
      cpuModel: f.text("cpu_model"), cores: try f.integer("cores"),
      memoryBytes: try f.integer("memory_bytes"), os: f.text("os"))
    let run = RunMetadata(
      timestamp: f.text("timestamp"), gitCommit: f.text("git_commit"), machine: machine,
      swiftVersion: f.text("swift_version"), buildConfig: f.text("build_config"),
      seed: try f.integer("seed"))
    self.init(
      key: key, timing: timing, buildMilliseconds: try f.double("build_ms"),
      indexBytes: try f.integer("index_bytes"), peakRSSBytes: try f.integer("peak_rss_bytes"),
      resultsTotal: try f.integer("results_total"), checksum: try f.checksum("checksum"),
      churn: try f.optionalInteger("churn"),
      counters: ReportCounters(
        nodesVisited: try f.optionalInteger("nodes_visited"),
        pointsTested: try f.optionalInteger("points_tested"),
        pointsReported: try f.optionalInteger("points_reported")),
      run: run)
  }
}

private struct FieldError: Error {
  var detail: String
}

/// Typed access to one record's fields by column name.
private struct FieldReader {
  var record: [String]
  var position: [String: Int]

  func text(_ column: String) -> String {
    record[position[column]!]
  }

  func integer<I: FixedWidthInteger>(_ column: String) throws(FieldError) -> I {
    guard let v = try optionalInteger(column) as I? else {
      throw FieldError(detail: "\(column) is empty")
    }
    return v
  }

  func optionalInteger<I: FixedWidthInteger>(_ column: String) throws(FieldError) -> I? {
    let s = text(column)
    if s.isEmpty { return nil }
    guard let v = I(s) else { throw FieldError(detail: "\(column) '\(s)' is not an integer") }
    return v
  }

  /// An empty field (how the writer spells NaN/∞) reads back as 0.
  func double(_ column: String) throws(FieldError) -> Double {
    let s = text(column)
    if s.isEmpty { return 0 }
    guard let v = Double(s), v.isFinite else {
      throw FieldError(detail: "\(column) '\(s)' is not a finite number")
    }
    return v
  }

  func bool(_ column: String) throws(FieldError) -> Bool {
    switch text(column) {
    case "1": return true
    case "0", "": return false
    case let s: throw FieldError(detail: "\(column) '\(s)' is not 0 or 1")
    }
  }

  /// `0x` + hex, or plain decimal.
  func checksum(_ column: String) throws(FieldError) -> UInt64 {
    let s = text(column)
    let v = s.hasPrefix("0x") ? UInt64(s.dropFirst(2), radix: 16) : UInt64(s)
    guard let v else { throw FieldError(detail: "\(column) '\(s)' is not a 64-bit value") }
    return v
  }
}
