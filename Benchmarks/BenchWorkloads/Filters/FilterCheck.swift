import BenchFormats
import MapClustering

/// A filter and aggregates `bench verify` checks every index with, on a
/// dataset whose properties it knows: the viewport, cluster and tap steps
/// of each session run again with the filter, each index's answers (and
/// aggregates) against the linear scan's with the same filter.
///
/// The defaults pick what a map filters on: a few categories, a numeric
/// range, the aggregates of a number; ``defaults(for:)`` names them.
public struct FilterCheck: Sendable {
  /// The filter as written, for the output.
  public var text: String
  public var filter: RunFilter

  /// `text` read as a filter, with `aggregates` (`sum:price`…).
  public init(_ text: String, aggregates: [String] = []) throws(ClusteringError) {
    self.text = text
    var list: [ClusterAggregate] = []
    for a in aggregates { list.append(try ClusterAggregate(parsing: a)) }
    filter = RunFilter(filter: try PointFilter(parsing: text), aggregates: list)
  }

  /// A check of a filter given on the command line.
  public init(text: String, filter: RunFilter) {
    self.text = text
    self.filter = filter
  }

  /// What the output shows: the filter, and the aggregates on cluster's lines.
  public func label(workload: String) -> String {
    StepFilter.label(workload: workload, filterText: text, aggregates: filter.aggregates)
  }

  /// The checks of the dataset or generator called `name` (none for a
  /// file, or a generator without properties): categories, a range, and
  /// the aggregates of a number column, on the columns it has.
  public static func defaults(for name: String) throws(ClusteringError) -> [FilterCheck] {
    switch name.lowercased() {
    case "hotels":
      [
        try FilterCheck("chain in (chain-7)", aggregates: ["sum:price", "min:price", "max:price"]),
        try FilterCheck("stars >= 4 and price <= 150", aggregates: ["max:price"]),
      ]
    case BundledDataset.places.rawValue:
      [try FilterCheck("cc in (US, FR, JP) and population >= 20000", aggregates: ["sum:population", "max:population"])]
    case BundledDataset.airports.rawValue:
      [try FilterCheck("elevation >= 1000 and country in (US, CA, NP)", aggregates: ["min:elevation", "max:elevation"])]
    case BundledDataset.zipcodes.rawValue:
      [try FilterCheck("st in (NY, CA, PR)")]
    default:
      []
    }
  }

  /// The properties `checks` read: each field once, numeric when any check
  /// reads it as a number.
  public static func requests(_ checks: [FilterCheck]) -> [PropertyRequest] {
    var order: [String] = [], numeric: Set<String> = []
    for c in checks {
      for r in c.filter.requests {
        if !order.contains(r.name) { order.append(r.name) }
        if r.kind == .number { numeric.insert(r.name) }
      }
    }
    return order.map { PropertyRequest($0, numeric.contains($0) ? .number : .category) }
  }
}
