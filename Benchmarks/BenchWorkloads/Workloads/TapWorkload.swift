import BenchFormats
import MapClustering
import SpatialIndexes
import BenchHarness

/// The nearest point within the touch target (22 screen points) of each
/// step's tap, ties to the smaller id, through the index's range queries.
///
/// Answers: `query,id`, one row per tap: the id of the point found, empty
/// when none is within the radius.
public enum TapWorkload: Workload {
  /// The point found, or `nil`.
  public typealias Answer = Int32?

  public static let name = "tap"
  public static let summary = "nearest point within 22 screen points of a tap, ties to the smaller id"
  public static let need = StepNeed.tap
  public static let answerColumns = ["id"]

  public static func visitRunners<I: SpatialIndex, V: WorkloadVisitor>(
    on index: I, _ data: WorkloadData, variants: [String], _ visitor: inout V
  ) throws {
    var runner = Runner(index: index, points: data.points, taps: data.steps.taps ?? [])
    try visitor.visit(Self.self, variant: "", &runner)
  }

  public static func writeAnswer(
    _ answer: Answer, query: Int, ids: [UInt64], to csv: inout CSVWriter
  ) {
    csv.writeRow([String(query), answer.map { String(ids[Int($0)]) } ?? ""])
  }

  public static func difference(expected: Answer, got: Answer) -> String {
    "id \(got.map(String.init) ?? "none"), linear scan \(expected.map(String.init) ?? "none")"
  }

  struct Runner<I: SpatialIndex>: StepRunner {
    let index: I
    let points: [Point]
    let taps: [Tap]

    var stepCount: Int { taps.count }

    mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepOutcome {
      let hit = index.nearestByRangeQuery(to: taps[step], points: points, counters: &counters)
      return StepOutcome(digest: mix64(UInt64(bitPattern: Int64(hit?.id ?? -1))), count: hit == nil ? 0 : 1)
    }

    mutating func answer(step: Int) -> Int32? {
      index.nearestByRangeQuery(to: taps[step], points: points)?.id
    }
  }
}
