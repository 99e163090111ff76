extension ReportColumn {
  /// What a column's numbers count, told by its name (the schema puts units
  /// in the names: `_ns`, `_ms`, `_bytes`, `bytes_per_point`), so that a
  /// column added at the end gets its unit without another list to keep.
  public enum Unit: Sendable, Equatable {
    /// `median_ns`, `p99_ns`…: written as a duration (`133 µs`).
    case nanoseconds
    /// `build_ms`: written as a duration too (`29.9 ms`, `5.46 s`).
    case milliseconds
    /// `bytes_per_point`, `total_bytes_per_point`: one decimal (`20.0`).
    case bytesPerPoint
    /// `index_bytes`, `peak_rss_bytes`…: whole bytes, written plain.
    case bytes
    /// Any other integer column (`samples`, `results_total`…): written plain.
    case count
    /// Text, flags, hashes and numbers without a unit.
    case none
  }

  public var unit: Unit {
    if name.hasSuffix("_ns") { return .nanoseconds }
    if name.hasSuffix("_ms") { return .milliseconds }
    if name.hasSuffix("bytes_per_point") { return .bytesPerPoint }
    if name.hasSuffix("_bytes") { return .bytes }
    return kind == .integer ? .count : .none
  }

  /// Whether a table can show the column as a figure (a number to format, or
  /// to divide by another for a ratio).
  public var isFigure: Bool { kind == .integer || kind == .number }
}
