extension ReportFile {
  /// The rows of the report at `path`, as ``read(_:)`` gives them, refusing
  /// a report with two rows for one key: `.badData` (exit 65) naming both
  /// lines and the key. `bench compare` reads its reports so: of two rows
  /// of one key (a report appended to twice), comparing either would hide
  /// what the other says.
  public static func readOneRowPerKey(_ path: String) throws(ReportError) -> [ReportRow] {
    let numbered = try ReportSchema.numberedRows(try readBytes(path), path: path)
    var first: [ReportKey: Int] = [:]
    for (line, row) in numbered {
      if let earlier = first.updateValue(line, forKey: row.key) {
        throw ReportError(
          .badData, path: path,
          detail: "lines \(earlier) and \(line) hold rows for one key (\(row.key)):"
            + " compare needs one row per key (keep one of them)")
      }
    }
    return numbered.map(\.row)
  }
}
