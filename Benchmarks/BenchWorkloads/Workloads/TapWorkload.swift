import BenchFormats
import MapClustering
import SpatialIndexes
import BenchHarness

/// The nearest point within the touch target (22 screen points) of each
/// step's tap, ties to the point earlier in the points file, two ways: `range`, through the
/// index's range queries over the target's boxes, and `nearest`, through
/// its k-nearest search on the sphere (``SpatialIndex/nearestByNeighbours(to:points:buffer:counters:)``).
/// Both give the same answers.
///
/// Answers: `query,id`, one row per tap: the id of the point found, empty
/// when none is within the radius. With a filter (``WorkloadData/filter``),
/// only the points that pass it are candidates.
public enum TapWorkload: Workload {
  /// The point found, or `nil`.
  public typealias Answer = Int32?

  public static let name = "tap"
  /// A quarter of a frame, as the viewport query.
  public static let frameShare: Double? = 0.25
  public static let summary =
    "nearest point within 22 screen points of a tap, ties to the point earlier in the points file; by range queries or k-nearest"
  public static let need = StepNeed.tap
  public static let answerColumns = ["id"]
  public static let variants = ["range", "nearest"]

  package static func visitRunners<I: DescribedIndex, V: WorkloadVisitor>(
    on index: I, _ data: WorkloadData, variants: [String], _ visitor: inout V
  ) throws {
    for variant in variants {
      var runner = Runner(
        index: index, points: data.points, taps: data.steps.taps ?? [], throughNearest: variant == "nearest",
        filter: data.filter)
      try visitor.visit(Self.self, variant: variant, &runner)
    }
  }

  public static func writeAnswer(
    _ answer: Answer, query: Int, ids: ExternalIDs, to csv: inout CSVWriter
  ) {
    csv.writeRow([String(query), answer.map { String(ids[Int($0)]) } ?? ""])
  }

  public static func difference(expected: Answer, got: Answer) -> String {
    "id \(got.map(String.init) ?? "none"), linear scan \(expected.map(String.init) ?? "none")"
  }

  struct Runner<I: DescribedIndex>: StepRunner {
    let index: I
    let points: [Point]
    let taps: [Tap]
    let throughNearest: Bool
    /// Each step's filter; `nil`: every point.
    let filter: StepFilter?
    var buffer = NearestBuffer()

    init(index: I, points: [Point], taps: [Tap], throughNearest: Bool, filter: StepFilter? = nil) {
      self.index = index
      self.points = points
      self.taps = taps
      self.throughNearest = throughNearest
      self.filter = filter
    }

    var stepCount: Int { taps.count }

    mutating func hit<C: QueryCounters>(_ step: Int, _ counters: inout C) -> TapHit? {
      if let query = filter?.filterQuery(step: step) {
        return throughNearest
          ? index.nearestPassingByNeighbours(query, to: taps[step], points: points, buffer: &buffer, counters: &counters)
          : index.nearestPassing(query, to: taps[step], points: points, counters: &counters)
      }
      return throughNearest
        ? index.nearestByNeighbours(to: taps[step], points: points, buffer: &buffer, counters: &counters)
        : index.nearestByRangeQuery(to: taps[step], points: points, buffer: &buffer, counters: &counters)
    }

    mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepOutcome {
      let found = hit(step, &counters)
      return StepOutcome(digest: mix64(UInt64(bitPattern: Int64(found?.id ?? -1))), count: found == nil ? 0 : 1)
    }

    var workloadBytes: Int? { filter?.propertyBytes }

    mutating func answer(step: Int) -> Int32? {
      var none = NoCounters()
      return hit(step, &none)?.id
    }
  }
}
