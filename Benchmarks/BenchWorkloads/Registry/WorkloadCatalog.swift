import BenchHarness

/// Every workload SpatialBench runs, in the order reports list them.
///
/// To add one: write a type conforming to ``Workload`` in a file of its own
/// under `Workloads/` and add one line to ``forEachWorkloadType(_:)``. The
/// command line, `bench list`, `verify`, `export`, `query`, `recommend` and
/// the usage text pick it up.
///
/// `build` is not a workload here: it times the index's construction, has
/// no steps and no answers, and every run can add its row (``RunPlan/build``).
public enum WorkloadCatalog {
  /// The catalogue as a list. Computed, not stored: a stored list of
  /// metatypes is shared mutable state to the concurrency checker (the
  /// protocol is not Sendable).
  package static var all: [any Workload.Type] {
    struct Collect: WorkloadTypeVisitor {
      var types: [any Workload.Type] = []
      mutating func visit<W: Workload>(_ type: W.Type) { types.append(type) }
    }
    var collect = Collect()
    forEachWorkloadType(&collect)
    return collect.types
  }

  /// The name of the build row, accepted wherever workload names are.
  public static let buildName = "build"
  /// The build row's strategy when the run opened a saved index
  /// (`--index-file`) instead: the row times the open, and says so.
  public static let openStrategy = "open"
  /// What `bench list` says of it.
  public static let buildSummary = "build each index from the dataset (a row per index; no steps, no answers)"

  /// The budgeted workloads and their shares of a frame, in catalogue
  /// order: what `recommend` and the HTML report weigh.
  public static var budgeted: [BudgetedWorkload] {
    all.compactMap { w in
      w.frameShare.map {
        BudgetedWorkload(
          name: w.name, share: $0, onlyWhenLive: w.countsOnlyWhenLive, variantsAreQuestions: !w.variantsShareAnswers,
          onlyWithProperties: w.needsProperties)
      }
    }
  }

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

/// Every workload, one line each, in the order reports list them.
///
/// As for indexes (`forEachIndexType(_:)`), the catalogue hands `visitor`
/// each concrete type so that a runner bound to a concrete index and a
/// concrete workload specialises: opened from `any Workload.Type`, the timed
/// loop would run generic code.
package func forEachWorkloadType<V: WorkloadTypeVisitor>(_ visitor: inout V) {
  visitor.visit(ViewportWorkload.self)
  visitor.visit(ClusterWorkload.self)
  visitor.visit(TapWorkload.self)
  visitor.visit(FilterSessionWorkload.self)
  visitor.visit(NearestWorkload.self)
  visitor.visit(LiveWorkload.self)
}

/// Receives each workload type of the catalogue (``forEachWorkloadType(_:)``).
package protocol WorkloadTypeVisitor {
  mutating func visit<W: Workload>(_ type: W.Type)
}

/// A generic operation on a workload type, which ``withWorkloadType(named:_:)``
/// runs with the concrete type.
package protocol WorkloadTypeOperation {
  associatedtype Result
  mutating func run<W: Workload>(_ type: W.Type) throws -> Result
}

/// Runs `operation` with the workload type called `name` (nil if there is
/// none), specialised for it.
package func withWorkloadType<O: WorkloadTypeOperation>(
  named name: String, _ operation: inout O
) throws -> O.Result? {
  var named = NamedWorkloadType(name: name.lowercased(), operation: operation)
  forEachWorkloadType(&named)
  operation = named.operation
  return try named.result?.get()
}

/// Runs an operation on the catalogue's workload type of one name.
private struct NamedWorkloadType<O: WorkloadTypeOperation>: WorkloadTypeVisitor {
  let name: String
  var operation: O
  var result: Result<O.Result, any Error>?

  init(name: String, operation: O) {
    self.name = name
    self.operation = operation
  }

  mutating func visit<W: Workload>(_ type: W.Type) {
    guard result == nil, W.name == name else { return }
    result = Result { try operation.run(type) }
  }
}

extension FrameBudget {
  /// A budget over the catalogue's workloads (``WorkloadCatalog/budgeted``).
  public init(framesPerSecond: Double = 60, memoryLimitBytes: UInt64? = nil, live: Bool = false) {
    self.init(
      framesPerSecond: framesPerSecond, memoryLimitBytes: memoryLimitBytes, live: live,
      workloads: WorkloadCatalog.budgeted)
  }
}
