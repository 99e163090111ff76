import BenchFormats
import BenchHarness
import MapClustering
import SpatialIndexes

/// One workload, declared once: what it is, what its steps need, how it runs
/// on an index, how its answers are written and how they are checked.
/// `bench list`, `run`, `verify`, `export`, `query` and the usage text all
/// read these declarations from ``WorkloadCatalog``; adding a workload is a
/// new file with a type conforming to this protocol, registered there.
package protocol Workload {
  /// One step's answer in canonical form: equal, for every index that
  /// answers correctly, to the linear scan's.
  associatedtype Answer: Equatable

  /// The name on the command line and in reports (`viewport`).
  static var name: String { get }
  /// One line for `bench list` and the usage text.
  static var summary: String { get }
  /// What its steps need from the map.
  static var need: StepNeed { get }
  /// The ways it can ask an index (cluster strategies), each its own report
  /// row; `[""]` for a workload with one way.
  static var variants: [String] { get }
  /// The variant the linear scan answers with when it is `bench verify`'s
  /// reference: by default the first.
  static var referenceVariant: String { get }
  /// Whether every variant gives the same answers (the cluster strategies
  /// do, the default); when not (nearest's k), each variant is checked
  /// against the linear scan's answers of the same variant.
  static var variantsShareAnswers: Bool { get }
  /// Parts of a step its runners time on their own (``StepRunner/phases``),
  /// each reported as a row of its own, workload `NAME.PHASE`; none by default.
  static var phases: [String] { get }
  /// The columns of `bench query`'s answer file, after `query`.
  static var answerColumns: [String] { get }
  /// The columns of the answer file of a run over `data`: by default
  /// ``answerColumns``; the cluster workload adds one per aggregate.
  static func answerColumns(_ data: WorkloadData) -> [String]
  /// The share of a map's frame its p99 may take, for `recommend` and the
  /// HTML report; nil (the default) when it is not budgeted.
  static var frameShare: Double? { get }
  /// Whether it counts only for data that change (`recommend --live`).
  static var countsOnlyWhenLive: Bool { get }
  /// Whether it runs only on data with properties (the filter session):
  /// a verdict without its rows does not list it as not measured.
  static var needsProperties: Bool { get }

  /// Whether `variant` runs on indexes of `type` (the live workload's
  /// `move` needs a dynamic index); by default every variant runs everywhere.
  static func runs(_ variant: String, on type: any DescribedIndex.Type) -> Bool

  /// Hands `visitor` one runner on `index` per variant in `variants` that
  /// ``runs(_:on:)`` on it.
  static func visitRunners<I: DescribedIndex, V: WorkloadVisitor>(
    on index: I, _ data: WorkloadData, variants: [String], _ visitor: inout V) throws

  /// Writes the answer of step `query` as rows of `answerColumns` (after
  /// the `query` column), with the points' external `ids`.
  static func writeAnswer(
    _ answer: Answer, query: Int, ids: ExternalIDs, to csv: inout CSVWriter)

  /// How `got` differs from `expected`, for `bench verify`: a few words.
  static func difference(expected: Answer, got: Answer) -> String
}

extension Workload {
  public static var variants: [String] { [""] }
  public static var referenceVariant: String { variants[0] }
  public static var variantsShareAnswers: Bool { true }
  public static var phases: [String] { [] }
  public static var frameShare: Double? { nil }
  public static var countsOnlyWhenLive: Bool { false }
  public static var needsProperties: Bool { false }
  public static func answerColumns(_ data: WorkloadData) -> [String] { answerColumns }
  public static func runs(_ variant: String, on type: any DescribedIndex.Type) -> Bool { true }
}

/// What a workload runs on besides the index: the points it was built from,
/// the run's steps, and the filter its steps apply to the points (`nil`:
/// every point counts).
public struct WorkloadData: Sendable {
  public var points: [Point]
  public var steps: MapSteps
  public var cellTable: ClusterCellTable
  /// The filter and aggregates of each step (``RunFilter/compiled(_:steps:)``);
  /// the viewport, cluster and tap workloads apply it.
  public var filter: StepFilter?
  /// The filter session's filter of each step (``FilterSession/compiled(_:steps:seed:)``):
  /// what the `filters` workload applies; `nil` on data without controls.
  public var sessionFilter: StepFilter?
  /// The properties the filters read, where a reference needs their values
  /// (the fuzzer's rules work out the aggregates from them); empty otherwise.
  public var properties: PropertyTable = .none

  public init(
    points: [Point], steps: MapSteps, cellTable: ClusterCellTable = .default, filter: StepFilter? = nil,
    sessionFilter: StepFilter? = nil
  ) {
    self.points = points
    self.steps = steps
    self.cellTable = cellTable
    self.filter = filter
    self.sessionFilter = sessionFilter
  }
}

/// One workload bound to one index: its steps, each timed on its own, and
/// their answers.
///
/// Runners are generic over the index so every query specialises; each
/// keeps its scratch buffers between steps, so a step allocates nothing
/// once warm.
package protocol StepRunner<Answer>: TimedSteps {
  associatedtype Answer

  /// Runs step `step`, adding the index's work to `counters`.
  mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepOutcome

  /// The answer of step `step` in canonical form.
  mutating func answer(step: Int) -> Answer

  /// Cluster markers added plus removed over the last pass; `nil` for a
  /// workload without markers.
  var churn: Int? { get }

  /// Bytes the runner keeps beside the index for the workload (a cluster
  /// strategy's per-point records and sums); `nil` for none.
  var workloadBytes: Int? { get }

  /// Parts of a step timed on their own (the live workload's update and
  /// query), each with one time per call of ``runStep(_:)`` since the runner
  /// was made, in call order; none by default.
  var phases: [StepPhase] { get }

  /// The parameters of the index the runner queries, when it is not the
  /// one it was handed (the live workload's buffered index, or a quadtree
  /// rebuilt over the world); `nil` by default.
  var indexParameters: [ParameterValue]? { get }
}

/// One timed part of a step: its name and the nanoseconds of each call.
public struct StepPhase: Sendable {
  public var name: String
  public var nanos: [Double]

  public init(name: String, nanos: [Double]) {
    self.name = name
    self.nanos = nanos
  }
}

extension StepRunner {
  @inlinable
  public mutating func runStep(_ step: Int) -> StepOutcome {
    var none = NoCounters()
    return run(step: step, counters: &none)
  }

  public var churn: Int? { nil }
  public var workloadBytes: Int? { nil }
  public var phases: [StepPhase] { [] }
  package var indexParameters: [ParameterValue]? { nil }
}

/// Receives each runner of a workload bound to an index, generically, so
/// `run` can time it, `verify` compare its answers and `query` write them.
package protocol WorkloadVisitor {
  mutating func visit<W: Workload, R: StepRunner>(
    _ workload: W.Type, variant: String, _ runner: inout R) throws where R.Answer == W.Answer
}

/// A 64-bit mix (the SplitMix64 finaliser): sums of mixed ids make an
/// order-independent digest of a set of ids.
@inlinable @inline(__always)
public func mix64(_ x: UInt64) -> UInt64 {
  var z = x &+ 0x9E37_79B9_7F4A_7C15
  z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
  z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
  return z ^ (z >> 31)
}
