/// What a map's frame leaves the index, and the other limits a choice must
/// meet: the rules `bench recommend` decides by (README, "Which index for
/// your map").
///
/// The app draws in the same frame, so no workload gets the whole of it:
/// each workload declares its share (``BudgetedWorkload``; the catalogue's
/// list is `WorkloadCatalog.budgeted`). The build is not budgeted: it
/// happens once, and breaks ties last.
public struct FrameBudget: Sendable, Equatable {
  /// 60 or 120 frames a second.
  public var framesPerSecond: Double
  /// The most memory the index and what clustering keeps beside it may hold;
  /// `nil` for no limit.
  public var memoryLimitBytes: UInt64?
  /// Whether the data changes while the map shows it: then the live workload
  /// counts, else its rows are left out.
  public var live: Bool
  /// The budgeted workloads, in the order verdicts list them.
  public var workloads: [BudgetedWorkload]

  public init(
    framesPerSecond: Double = 60, memoryLimitBytes: UInt64? = nil, live: Bool = false,
    workloads: [BudgetedWorkload]
  ) {
    self.framesPerSecond = framesPerSecond
    self.memoryLimitBytes = memoryLimitBytes
    self.live = live
    self.workloads = workloads
  }

  /// Choices whose worst share used is within this factor of the best's are
  /// as fast: the VM's run-to-run spread is 20-50%, so a closer race is a
  /// coin toss, and memory then build time decide it.
  public static let sameSpeedFactor = 1.5

  /// A choice whose p99s take at most this share of their allowances (a
  /// sixteenth of a frame) is as fast as any: the frame has room either way.
  public static let roomyUse = 0.25

  /// Memory within this factor of the smallest counts as the same: a few
  /// percent is an array's growth, not a reason to choose.
  public static let sameMemoryFactor = 1.1

  /// One frame, in nanoseconds.
  public var frameNanoseconds: Double { 1e9 / framesPerSecond }

  /// The p99 `workload` may take, in nanoseconds; `nil` when it is not
  /// budgeted (`build`, a phase row, `live` for data that does not change).
  public func allowance(for workload: String) -> Double? {
    guard let w = workloads.first(where: { $0.name == workload }), live || !w.onlyWhenLive else { return nil }
    return w.share * frameNanoseconds
  }

  /// The budgeted workloads that count for this map: all, or all but those
  /// that count only when the data change.
  public var counted: [BudgetedWorkload] { workloads.filter { live || !$0.onlyWhenLive } }

  /// Whether `workload`'s variants are different questions (nearest's k),
  /// so its slowest decides; else they are ways to one answer, and the app
  /// takes the fastest.
  func variantsAreQuestions(_ workload: String) -> Bool {
    workloads.first { $0.name == workload }?.variantsAreQuestions ?? false
  }
}

/// A workload's claim on the frame, as the workload declares it.
public struct BudgetedWorkload: Sendable, Equatable {
  /// The workload's name in reports.
  public var name: String
  /// The share of a frame its p99 may take.
  public var share: Double
  /// Whether it counts only for data that change (the live workload); its
  /// rows then run the index with parameters of their own (a buffered
  /// index's share) and join every candidate with the same chosen ones.
  public var onlyWhenLive: Bool
  /// Whether its variants are different questions (nearest's k) rather than
  /// ways to one answer (cluster strategies).
  public var variantsAreQuestions: Bool
  /// Whether it runs only on data with properties (the filter session):
  /// weighed where measured, and not missed where the data have none.
  public var onlyWithProperties: Bool

  public init(
    name: String, share: Double, onlyWhenLive: Bool = false, variantsAreQuestions: Bool = false,
    onlyWithProperties: Bool = false
  ) {
    self.name = name
    self.share = share
    self.onlyWhenLive = onlyWhenLive
    self.variantsAreQuestions = variantsAreQuestions
    self.onlyWithProperties = onlyWithProperties
  }
}
