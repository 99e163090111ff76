import BenchHarness
import SpatialIndexes

/// What a run measures, in plain values: the command line builds one from
/// its options, tests build one by hand.
public struct RunPlan: Sendable {
  /// Index names (`allIndexTypes`), in run order.
  public var indexes: [String]
  /// Parameter sweeps; each index takes the keys it has (one row per
  /// combination of their values).
  public var sweeps: [ParameterSweep]
  /// Whether each index's build gets a row of its own.
  public var build: Bool
  /// The workloads, in run order, each with the variants to run.
  public var workloads: [WorkloadChoice]
  public var measure: MeasureOptions
  /// Whether rows record the indexes' work counters (one extra untimed pass).
  public var counters: Bool
  public var metadata: RunMetadata
  /// A saved index to open instead of building (`--index-file`): the
  /// `build` row then times the open.
  public var indexFile: String?
  /// The `filter` column of each workload's rows when the run filters or
  /// aggregates (``StepFilter/label(workload:filterText:aggregates:)``);
  /// none: empty.
  public var filterLabels: [String: String] = [:]

  public init(
    indexes: [String], sweeps: [ParameterSweep] = [], build: Bool = true,
    workloads: [WorkloadChoice], measure: MeasureOptions, counters: Bool = false,
    metadata: RunMetadata, indexFile: String? = nil, filterLabels: [String: String] = [:]
  ) {
    self.indexFile = indexFile
    self.filterLabels = filterLabels
    self.indexes = indexes
    self.sweeps = sweeps
    self.build = build
    self.workloads = workloads
    self.measure = measure
    self.counters = counters
    self.metadata = metadata
  }
}

extension RunPlan {
  /// The units a ``RunObserver`` hears of over `datasets` datasets: one per
  /// index, parameter set, and build or workload variant.
  public func units(datasets: Int) throws -> Int {
    var units = 0
    for name in indexes {
      guard let index = indexType(named: name) else { continue }
      var perSet = build ? 1 : 0
      for choice in workloads {
        guard let type = WorkloadCatalog.type(named: choice.name) else { continue }
        perSet += choice.variants.count { type.runs($0, on: index) }
      }
      units += try parameterSetCount(name, sweeps) * perSet
    }
    return datasets * units
  }
}

/// One workload of a plan and the variants to run (all, or the chosen
/// cluster strategies).
public struct WorkloadChoice: Sendable, Equatable {
  public var name: String
  public var variants: [String]

  public init(name: String, variants: [String]) {
    self.name = name
    self.variants = variants
  }

  /// The workload with every variant it has.
  package init(_ type: any Workload.Type) {
    self.init(name: type.name, variants: type.variants)
  }
}

/// One `KEY=V[,V…]` of a sweep: a parameter and the values to try.
public struct ParameterSweep: Sendable, Equatable {
  public var key: String
  public var values: [String]

  public init(key: String, values: [String]) {
    self.key = key
    self.values = values
  }
}

/// Every parameter combination `sweeps` asks of index `I` (one, the
/// defaults, when none applies): the cartesian product of the values of the
/// keys `I` has. Keys `I` lacks are left to other indexes.
///
/// - Throws: ``IndexError/invalidParameter(name:value:reason:)`` for a value
///   the index refuses.
package func parameterSets<I: DescribedIndex>(
  _ type: I.Type, _ sweeps: [ParameterSweep]
) throws(IndexError) -> [I.Parameters] {
  let known = Set(I.Parameters.descriptions.map(\.name))
  var sets = [I.Parameters()]
  for sweep in sweeps where known.contains(sweep.key) {
    var next: [I.Parameters] = []
    for base in sets {
      for value in sweep.values {
        var p = base
        try p.set(sweep.key, to: value)
        next.append(p)
      }
    }
    sets = next
  }
  return sets
}

/// How many parameter combinations index `name` runs under `sweeps`.
func parameterSetCount(_ name: String, _ sweeps: [ParameterSweep]) throws -> Int {
  struct Count: IndexTypeOperation {
    let sweeps: [ParameterSweep]
    func run<I: DescribedIndex>(_ type: I.Type) throws -> Int { try parameterSets(type, sweeps).count }
  }
  var count = Count(sweeps: sweeps)
  return try withIndexType(named: name, &count) ?? 0
}
