import BenchFormats

/// Reading reports for a table: the rows with the line each starts on, so
/// that a cell two rows match can name both.
public enum TableReport {
  /// The rows of the report at `path`, named `name` in messages (a guide's
  /// table names its reports relative to the repository, wherever bench runs).
  ///
  /// - Throws: as ``ReportFile/read(_:)``: `.noInput` (66) when it is
  ///   missing or unreadable, `.badData` (65) when it is no valid report.
  public static func read(_ path: String, name: String? = nil) throws(ReportError) -> [NumberedRow] {
    let name = name ?? path
    let bytes: [UInt8]
    do {
      bytes = try ReportFile.readBytes(path)
    } catch {
      throw ReportError(error.kind, path: name, detail: error.detail)
    }
    let rows = try ReportSchema.parse(bytes, path: name)
    // the same reader again, for the line each row starts on
    let lines: [Int]
    do {
      lines = try CSVTable.read(bytes, source: name) { table throws(DataError) in
        var lines: [Int] = []
        while try table.nextRow() { lines.append(table.line) }
        return lines
      }
    } catch {
      throw ReportError(.badData, path: name, detail: error.detail)
    }
    return zip(rows, lines).map { NumberedRow(row: $0, report: name, line: $1) }
  }
}
