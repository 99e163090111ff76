extension PointFilter {
  /// The clauses as plain values, for an engine that states the filter in
  /// its own language (`bench peer`'s SQL `WHERE`): each clause's field,
  /// its test (`in`, `>=` or `<=`; `=` is `in` with one value) and its
  /// values as written.
  package var clauseList: [(field: String, test: String, values: [String])] {
    clauses.map { c in
      let test = switch c.test {
      case .oneOf: "in"
      case .atLeast: ">="
      case .atMost: "<="
      }
      return (c.field, test, c.values)
    }
  }
}
