/// One row's filter in a queries or taps file: the text of its `filter`
/// field (quoting undone, as written otherwise) and where it stands, for a
/// message that names the file, the line and the field.
///
/// The file keeps the text only: what it means depends on the points'
/// properties, which the command reads after the file.
public struct RowFilter: Hashable, Sendable {
  /// The header name of the column (any case, surrounding spaces ignored).
  public static let columnName = "filter"

  /// The filter's text, never empty (an empty field is no filter).
  public var text: String
  /// The physical line the row starts on.
  public var line: Int
  /// The column's name as the header spells it.
  public var field: String

  public init(text: String, line: Int, field: String = RowFilter.columnName) {
    self.text = text
    self.line = line
    self.field = field
  }

  /// Field `column` of `table`'s current row; `nil` when it is empty or
  /// holds only spaces and tabs.
  init?(_ table: CSVTable, column: Int) {
    let text = table.text(column)
    guard text.contains(where: { $0 != " " && $0 != "\t" }) else { return nil }
    self.init(text: text, line: table.line, field: table.columnName(column))
  }
}
