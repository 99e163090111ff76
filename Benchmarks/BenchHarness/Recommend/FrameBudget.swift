/// What a map's frame leaves the index, and the other limits a choice must
/// meet: the rules `bench recommend` decides by (README, "Which index for
/// your map").
///
/// The app draws in the same frame, so no workload gets the whole of it. A
/// quarter of a frame each for the viewport query, the clustering, a tap and
/// a nearest search: one of them runs in a frame, and a quarter leaves the
/// drawing three. A live frame moves points and then clusters, so it gets
/// half. The build is not budgeted: it happens once, and breaks ties last.
public struct FrameBudget: Sendable, Equatable {
  /// 60 or 120 frames a second.
  public var framesPerSecond: Double
  /// The most memory the index and what clustering keeps beside it may hold;
  /// `nil` for no limit.
  public var memoryLimitBytes: UInt64?
  /// Whether the data changes while the map shows it: then the live workload
  /// counts, else its rows are left out.
  public var live: Bool

  public init(framesPerSecond: Double = 60, memoryLimitBytes: UInt64? = nil, live: Bool = false) {
    self.framesPerSecond = framesPerSecond
    self.memoryLimitBytes = memoryLimitBytes
    self.live = live
  }

  /// Each budgeted workload's share of a frame, in the order verdicts list them.
  public static let shares: [(workload: String, share: Double)] = [
    ("viewport", 0.25), ("cluster", 0.25), ("tap", 0.25), ("nearest", 0.25), ("live", 0.5),
  ]

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
    if workload == "live" && !live { return nil }
    return Self.shares.first { $0.workload == workload }.map { $0.share * frameNanoseconds }
  }

  /// The position of `workload` in ``shares`` (verdicts list evidence in it).
  static func order(of workload: String) -> Int {
    shares.firstIndex { $0.workload == workload } ?? shares.count
  }
}
