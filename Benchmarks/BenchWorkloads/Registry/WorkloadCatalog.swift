/// Every workload SpatialBench runs, in the order reports list them.
///
/// To add one: write a type conforming to ``Workload`` in a file of its own
/// under `Workloads/`, add it to ``all`` and to the switch of
/// ``withWorkloadType(named:_:)`` (a test checks that the two agree). The
/// command line, `bench list`, `verify`, `export`, `query` and the usage text
/// pick it up.
///
/// `build` is not a workload here: it times the index's construction, has
/// no steps and no answers, and every run can add its row (``RunPlan/build``).
public enum WorkloadCatalog {
  /// Computed, not stored: a stored list of metatypes is shared mutable
  /// state to the concurrency checker (the protocol is not Sendable).
  package static var all: [any Workload.Type] {
    [
      ViewportWorkload.self,
      ClusterWorkload.self,
      TapWorkload.self,
      NearestWorkload.self,
      LiveWorkload.self,
    ]
  }

  /// The name of the build row, accepted wherever workload names are.
  public static let buildName = "build"
  /// What `bench list` says of it.
  public static let buildSummary = "build each index from the dataset (a row per index; no steps, no answers)"

  /// The workloads' names, in catalogue order.
  public static var names: [String] { all.map { $0.name } }

  /// The workload column of a phase row (`live.update`): a part of a
  /// workload's step, with no counters of its own.
  public static func phaseRowName(_ workload: String, _ phase: String) -> String { "\(workload).\(phase)" }

  /// Whether `workload` (a report row's) names a phase row.
  public static func isPhaseRow(_ workload: String) -> Bool {
    all.contains { type in type.phases.contains { phaseRowName(type.name, $0) == workload } }
  }

  /// The workload called `name`.
  package static func type(named name: String) -> (any Workload.Type)? {
    all.first { $0.name == name.lowercased() }
  }
}

/// A generic operation on a workload type, which ``withWorkloadType(named:_:)``
/// runs with the concrete type.
package protocol WorkloadTypeOperation {
  associatedtype Result
  mutating func run<W: Workload>(_ type: W.Type) throws -> Result
}

/// Runs `operation` with the workload type called `name` (nil if there is none).
///
/// As for indexes (`withIndexType(named:_:)`), the switch names each type so
/// a runner bound to a concrete index and a concrete workload specialises:
/// opened from `any Workload.Type`, the timed loop would run generic code.
package func withWorkloadType<O: WorkloadTypeOperation>(
  named name: String, _ operation: inout O
) throws -> O.Result? {
  switch name.lowercased() {
  case ViewportWorkload.name: try operation.run(ViewportWorkload.self)
  case ClusterWorkload.name: try operation.run(ClusterWorkload.self)
  case TapWorkload.name: try operation.run(TapWorkload.self)
  case NearestWorkload.name: try operation.run(NearestWorkload.self)
  case LiveWorkload.name: try operation.run(LiveWorkload.self)
  default: nil
  }
}
