/// A figure each marker reports about its points: the sum, the least or
/// the greatest of a numeric property, over the marker's points that pass
/// the filter and have a value (see ``AggregateValue``).
///
///     let query = try PropertyQuery(filter: filter, aggregates: [.min("price"), .sum("rooms")],
///                                   properties: properties)
public enum ClusterAggregate: Hashable, Sendable {
  /// The sum of the property: exact, in 128 bits.
  case sum(String)
  /// The least value of the property.
  case min(String)
  /// The greatest value of the property.
  case max(String)

  /// The property it reads.
  package var field: String {
    switch self {
    case .sum(let f), .min(let f), .max(let f): f
    }
  }

  /// `sum`, `min` or `max`.
  package var function: String {
    switch self {
    case .sum: "sum"
    case .min: "min"
    case .max: "max"
    }
  }

  /// Its text form, `sum:price`.
  package var text: String { "\(function):\(field)" }

  /// Reads the text form `sum:F`, `min:F` or `max:F` (lowercase; `F` the
  /// property's name as written, any characters but none missing).
  package init(parsing text: String) throws(ClusteringError) {
    guard let colon = text.firstIndex(of: ":") else {
      throw .invalidFilter("\(_FilterParser.shown(text)) is not an aggregate: write sum:F, min:F or max:F", position: nil)
    }
    let function = String(text[..<colon]), field = String(text[text.index(after: colon)...])
    guard !field.isEmpty else {
      throw .invalidFilter("\(_FilterParser.shown(text)) names no property after \"\(function):\"", position: nil)
    }
    switch function {
    case "sum": self = .sum(field)
    case "min": self = .min(field)
    case "max": self = .max(field)
    default:
      throw .invalidFilter(
        "\(_FilterParser.shown(function)) is not an aggregate function: sum, min or max (lowercase)", position: nil)
    }
  }
}

/// Adds point `id`'s values of the `width` columns `query` aggregates to
/// cell `slot`'s totals (one ``_FieldTotals`` a column, side by side); a
/// missing value adds nothing. What a filter's walk does for a point it
/// tests one by one.
@usableFromInline
func _addAggregates(
  of id: Int32, _ query: PropertyQuery, width: Int, into totals: UnsafeMutableBufferPointer<_FieldTotals>,
  slot: Int
) {
  for f in 0..<width {
    let u = query.sources[f][Int(id)]
    if u != .min { totals[slot &* width &+ f].add(u) }
  }
}
