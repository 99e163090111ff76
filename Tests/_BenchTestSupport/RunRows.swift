import BenchWorkloads
import SpatialIndexes

/// How many rows a run gives, from the catalogues: the one count every
/// test of a whole run checks against.
package enum RunRows {
  /// The rows of one parameter set of index `name` over every workload:
  /// a build row, and per variant that runs on the index a row, one per
  /// zoom band (`bands`) and one per timed phase. The filter session runs
  /// only on data with properties (`properties`).
  package static func perParameterSet(_ name: String, bands: Int = 0, properties: Bool = false) -> Int {
    guard let index = indexType(named: name) else { return 0 }
    var rows = 1
    for w in WorkloadCatalog.all where properties || !w.needsProperties {
      rows += w.variants.count { w.runs($0, on: index) } * (1 + bands + w.phases.count)
    }
    return rows
  }

  /// The units a run's observer hears of for one parameter set: the build
  /// and each variant that runs.
  package static func units(_ name: String) -> Int {
    guard let index = indexType(named: name) else { return 0 }
    return 1 + WorkloadCatalog.all.filter { !$0.needsProperties }.reduce(0) { sum, w in
      sum + w.variants.count { w.runs($0, on: index) }
    }
  }

  /// ``perParameterSet(_:bands:)`` over every index of the catalogue.
  package static var allIndexes: Int {
    allIndexTypes.reduce(0) { $0 + perParameterSet($1.name) }
  }
}
