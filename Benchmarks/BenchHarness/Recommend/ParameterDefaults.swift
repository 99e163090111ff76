import SpatialIndexes

/// Which of a row's `params` a user chose, as opposed to the defaults the
/// index resolved against the data (a grid's `cellSize`, a quadtree's
/// `bounds`) or a strategy added (a buffered index's `rebuildShare`).
public enum ParameterDefaults {
  /// Each parameter's default as text, for the index called `index` (empty
  /// for an unknown name).
  public static func values(of index: String) -> [String: String] {
    guard let type = indexType(named: index) else { return [:] }
    return values(type)
  }

  static func values<I: DescribedIndex>(_ type: I.Type) -> [String: String] {
    Dictionary(I.Parameters.descriptions.map { ($0.name, $0.defaultValue) }, uniquingKeysWith: { a, _ in a })
  }

  /// The parameters of `params` that are the index's own, with a fixed
  /// default (not `auto` or `data`, which resolve against the data), in order.
  /// For a name that is no index of the package (a database engine's rows,
  /// `clock=server`), every parameter: they tell its rows apart.
  package static func chosen(_ params: String, index: String) -> [ParameterValue] {
    guard indexType(named: index) != nil else { return params.isEmpty ? [] : ReportKey.parameters(of: params) }
    let defaults = values(of: index)
    return ReportKey.parameters(of: params).filter {
      guard let d = defaults[$0.name] else { return false }
      return d != "auto" && d != "data"
    }
  }

  /// The chosen parameters whose values differ from the default: what a
  /// map's code has to set.
  package static func changed(_ params: String, index: String) -> [ParameterValue] {
    let defaults = values(of: index)
    return chosen(params, index: index).filter { defaults[$0.name] != $0.value }
  }
}
