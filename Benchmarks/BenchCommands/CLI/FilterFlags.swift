import BenchFormats
import BenchWorkloads
import MapClustering

/// `--filter EXPR` and `--aggregate LIST`, shared by `query`, `run` and
/// `verify`: read here once, checked against the points' properties when
/// they are known (``checkPropertyNames(_:pointsFile:command:)``).
extension Flag {
  /// `--filter EXPR`: one filter (``PointFilter``); it never sweeps, since
  /// commas belong to `in`.
  /// `text` keeps the expression as given, for a report's `filter` column.
  static func filter(
    _ field: WritableKeyPath<Options, PointFilter?>, text: WritableKeyPath<Options, String>? = nil, help: String
  ) -> Flag {
    Flag("--filter", "EXPR", help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      do throws(ClusteringError) {
        o[keyPath: field] = try PointFilter(parsing: v.text)
        if let text { o[keyPath: text] = v.text }
      } catch {
        throw v.error("--filter \(quotedForMessage(v.text)): \(error.description)")
      }
    }
  }

  /// `--aggregate sum:F,min:F,max:F`: the aggregates each cluster marker
  /// reports, in order; one named twice is refused (two columns of one name).
  static func aggregates(_ field: WritableKeyPath<Options, [ClusterAggregate]>, help: String) -> Flag {
    Flag("--aggregate", "sum:F,min:F,max:F", help: help) { (o: inout Options, v: FlagValue) throws(UsageError) in
      var list: [ClusterAggregate] = []
      for part in v.text.split(separator: ",", omittingEmptySubsequences: false) {
        let text = String(part).trimmingSpaces
        let a: ClusterAggregate
        do throws(ClusteringError) {
          a = try ClusterAggregate(parsing: text)
        } catch {
          throw v.error("--aggregate \(quotedForMessage(v.text)): \(error.description)")
        }
        guard !list.contains(a) else { throw v.error("--aggregate names \(a.text) twice") }
        list.append(a)
      }
      o[keyPath: field] = list
    }
  }
}

extension String {
  /// Without the spaces and tabs around it.
  fileprivate var trimmingSpaces: String {
    var s = Substring(self)
    while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" { s.removeLast() }
    return String(s)
  }
}

/// `text` in double quotes for a message, control characters written out.
func quotedForMessage(_ text: String) -> String {
  "\"" + escapingControls(text) + "\""
}

/// Refuses, before the points are loaded, a property the run names that
/// the points file at `path` does not have (its header, its features'
/// properties; ``PointFileFormat/propertyNames(inFile:wanted:)``):
/// a usage error for `--filter` or `--aggregate`, bad data naming the row
/// for a queries file's filter. A file whose names cannot be told cheaply
/// (GeoJSON) is checked by the load.
func checkPropertyNames(_ filter: RunFilter, pointsFile path: String, command: String) throws {
  guard !filter.isEmpty,
        let names = try PointFileFormat.propertyNames(inFile: path, wanted: filter.requests.map(\.name))
  else { return }
  try checkPropertyNames(filter, names: names, command: command)
}

/// The same against known `names` (a generator's).
func checkPropertyNames(_ filter: RunFilter, names: [String], command: String) throws {
  switch filter.unknownName(among: names, hint: { closest(to: $0, in: names) }) {
  case nil: return
  case .usage(let message)?: throw UsageError(message, command: command)
  case .data(let error)?: throw error
  }
}

/// ``RunFilter/compiled(_:steps:)`` with its errors as the command line's.
func compiledFilter(_ filter: RunFilter, _ properties: PropertyTable, steps: Int, command: String) throws -> StepFilter {
  do throws(RunFilterError) {
    return try filter.compiled(properties, steps: steps)
  } catch {
    switch error {
    case .usage(let message): throw UsageError(message, command: command)
    case .data(let e): throw e
    }
  }
}

/// The names of the properties dataset `name` (a `--dataset`) has, told
/// without loading its points: a bundled dataset's or a CSV file's header,
/// the `hotels` generator's properties, none for another generator or a
/// `.f64` file, those of a GeoJSON file's features; `nil` when they cannot
/// be told cheaply or the name is no dataset (the load says why).
func datasetPropertyNames(_ name: String, wanted: [String]) throws -> [String]? {
  if let bundled = BundledDataset(rawValue: name.lowercased()) {
    return try PointFileFormat.propertyNames(inFile: bundled.path)
  }
  if Datasets.isFile(name) { return try PointFileFormat.propertyNames(inFile: name, wanted: wanted) }
  let lowered = name.lowercased()
  if lowered == "hotels" { return HotelProperties.names }
  return PointDistribution.catalog.contains { $0.name == lowered } ? [] : nil
}
