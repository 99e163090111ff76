import BenchFormats
import SpatialIndexes
import BenchHarness

/// Every point inside each step's viewport (one rectangle, or two across the
/// antimeridian), through the reused-buffer query a map would use.
///
/// Answers: `query,count,id_sum`, one row per step: the points inside
/// (inclusive bounds, every duplicate counted) and the sum of their ids
/// modulo 2^64. With a filter (``WorkloadData/filter``), only the points
/// that pass it.
public enum ViewportWorkload: Workload {
  /// The ids inside, ascending.
  public typealias Answer = [Int32]

  public static let name = "viewport"
  /// A quarter of a frame: one of the four map operations runs in a frame,
  /// and a quarter leaves the drawing three.
  public static let frameShare: Double? = 0.25
  public static let summary = "every point in each step's viewport (the session, or each row of --queries)"
  public static let need = StepNeed.rectangles
  public static let answerColumns = ["count", "id_sum"]

  package static func visitRunners<I: DescribedIndex, V: WorkloadVisitor>(
    on index: I, _ data: WorkloadData, variants: [String], _ visitor: inout V
  ) throws {
    var runner = Runner(index: index, steps: data.steps.rects ?? [], filter: data.filter)
    try visitor.visit(Self.self, variant: "", &runner)
  }

  public static func writeAnswer(
    _ answer: Answer, query: Int, ids: ExternalIDs, to csv: inout CSVWriter
  ) {
    var sum: UInt64 = 0
    for id in answer { sum &+= ids[Int(id)] }
    csv.writeRow([String(query), String(answer.count), String(sum)])
  }

  public static func difference(expected: Answer, got: Answer) -> String {
    idDifference(expected: expected, got: got)
  }

  struct Runner<I: DescribedIndex>: StepRunner {
    let index: I
    let steps: [[Rect]]
    /// Each step's filter; `nil`: every point.
    let filter: StepFilter?
    var buffer: [Int32] = []

    var stepCount: Int { steps.count }

    @inline(__always)
    mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepOutcome {
      buffer.removeAll(keepingCapacity: true)
      for rect in steps[step] {
        index.query(in: rect, into: &buffer, counters: &counters)
      }
      filter?.filterQuery(step: step)?.retainMatching(&buffer)
      var digest: UInt64 = 0
      for id in buffer { digest &+= mix64(UInt64(UInt32(bitPattern: id))) }
      return StepOutcome(digest: digest, count: buffer.count)
    }

    var workloadBytes: Int? { filter?.propertyBytes }

    mutating func answer(step: Int) -> [Int32] {
      _ = runStep(step)
      return buffer.sorted()
    }
  }
}

/// `12 ids, linear scan 13; missing [4], extra []`: the first few of each.
func idDifference(expected: [Int32], got: [Int32]) -> String {
  let missing = Set(expected).subtracting(got).sorted().prefix(5)
  let extra = Set(got).subtracting(expected).sorted().prefix(5)
  return "\(got.count) ids, linear scan \(expected.count); missing \(Array(missing)), extra \(Array(extra))"
}
