/// What a table reads from a report row: a column by its name (`index`,
/// `n`, `median_ns`), as the CSV spells its value, or one parameter of the
/// `params` column (`params:nodeSize` reads `64` from
/// `nodeSize=64;threads=auto`, and the empty text when the row has no such
/// parameter).
public struct TableField: Hashable, Sendable, CustomStringConvertible {
  /// As written: `index`, `params:nodeSize`.
  public let name: String
  /// The column's position in ``ReportColumn/all``, or nil for a parameter.
  let column: Int?
  /// The parameter's name, for `params:NAME`.
  let parameter: String?

  /// The field `text` names.
  ///
  /// - Throws: `.usage` for a name that is no report column, or an empty
  ///   parameter name.
  public init(_ text: String) throws(TableError) {
    name = text
    if text.hasPrefix("params:") {
      let p = String(text.dropFirst("params:".count))
      guard !p.isEmpty, !p.contains(";"), !p.contains("=") else {
        throw TableError(.usage, "\"\(text)\" names no parameter: write params:NAME (params:nodeSize)")
      }
      column = nil
      parameter = p
      return
    }
    guard let i = ReportColumn.all.firstIndex(where: { $0.name == text }) else {
      throw TableError.unknownColumn(text)
    }
    column = i
    parameter = nil
  }

  /// The report column it reads, or nil for a parameter.
  public var reportColumn: ReportColumn? { column.map { ReportColumn.all[$0] } }

  /// The field's title in a table's header: the column's name, or the
  /// parameter's (`nodeSize`).
  public var title: String { parameter ?? name }

  /// The field's text in `row`.
  public func value(of row: ReportRow) -> String {
    if let column { return ReportColumn.all[column].format(row) }
    return ReportKey.parameters(of: row.key.params).first { $0.name == parameter }?.value ?? ""
  }

  public var description: String { name }

  public static func == (a: TableField, b: TableField) -> Bool { a.name == b.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// `FIELD=V1[,V2…]`: the rows whose field is one of the values (an empty
/// value is the empty text: `strategy=` is a row without a strategy,
/// `strategy=,aggregate` either).
public struct TableCondition: Sendable, Equatable, CustomStringConvertible {
  public var field: TableField
  public var values: [String]

  public init(field: TableField, values: [String]) {
    self.field = field
    self.values = values
  }

  /// Reads `FIELD=V1[,V2…]`: the field is what comes before the first `=`,
  /// so a value may hold one (`strategy=k=10`, `params=nodeSize=64`).
  public init(_ text: String) throws(TableError) {
    guard let eq = text.firstIndex(of: "=") else {
      throw TableError(.usage, "\"\(text)\" is not FIELD=VALUE[,VALUE…]")
    }
    field = try TableField(String(text[..<eq]))
    values = text[text.index(after: eq)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
  }

  public func matches(_ row: ReportRow) -> Bool { values.contains(field.value(of: row)) }

  public var description: String { "\(field.name)=\(values.joined(separator: ","))" }
}
