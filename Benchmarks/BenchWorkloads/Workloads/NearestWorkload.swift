import BenchFormats
import MapClustering
import SpatialIndexes
import BenchHarness

/// "Search near here": the `k` points nearest to each step's position by
/// great-circle distance (``GreatCircle/distance(_:_:)``), nearest first,
/// ties to the point earlier in the points file, for k = 1, 10 and 100 (one
/// variant each, `k=10`).
/// The session's position is its tap's, a seeded place on the screen; a
/// queries file of positions (`lat,lon`) gives its rows' exactly.
///
/// Answers: `query,rank,id,distance_m`, one row per neighbour, by query and
/// rank (1 for the nearest): the point's id and its distance in metres
/// with 3 decimals. A step with no point writes no row.
public enum NearestWorkload: Workload {
  /// The neighbours, nearest first.
  public typealias Answer = [Neighbor]

  public static let name = "nearest"
  /// A quarter of a frame, as the viewport query.
  public static let frameShare: Double? = 0.25
  public static let summary = "the k points nearest to a position, great-circle, ties to the point earlier in the points file (k = 1, 10, 100)"
  public static let need = StepNeed.position
  public static let variants = ["k=1", "k=10", "k=100"]
  /// Each k has its own answers: the linear scan answers every variant.
  public static let variantsShareAnswers = false
  public static let answerColumns = ["rank", "id", "distance_m"]

  /// The k of a variant `k=K` (any K ≥ 0, so `bench query --k` takes any,
  /// and the fuzzer asks for none: `k=0` answers no neighbour).
  public static func k(of variant: String) -> Int? {
    guard variant.hasPrefix("k="), let k = Int(variant.dropFirst(2)), k >= 0 else { return nil }
    return k
  }

  package static func visitRunners<I: DescribedIndex, V: WorkloadVisitor>(
    on index: I, _ data: WorkloadData, variants: [String], _ visitor: inout V
  ) throws {
    for variant in variants {
      guard let k = k(of: variant) else { continue }
      var runner = Runner(
        index: index, points: data.points, positions: data.steps.positions ?? [], k: k,
        reaches: data.steps.reaches)
      try visitor.visit(Self.self, variant: variant, &runner)
    }
  }

  public static func writeAnswer(
    _ answer: Answer, query: Int, ids: ExternalIDs, to csv: inout CSVWriter
  ) {
    for (rank, n) in answer.enumerated() {
      csv.writeRow([String(query), String(rank + 1), String(ids[Int(n.id)]), metres(n.distance)])
    }
  }

  /// Metres with 3 decimals (whole millimetres), without a locale: a
  /// distance is at most half the Earth's circumference, 2e10 mm.
  static func metres(_ d: Double) -> String {
    let mm = Int((d * 1000).rounded())
    let fraction = String(mm % 1000)
    return "\(mm / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  public static func difference(expected: Answer, got: Answer) -> String {
    guard let rank = zip(expected, got).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
      return "\(got.count) neighbours, linear scan \(expected.count)"
    }
    return "rank \(rank + 1): id \(got[rank].id) at \(got[rank].distance) m, linear scan id \(expected[rank].id) at \(expected[rank].distance) m"
  }

  struct Runner<I: DescribedIndex>: StepRunner {
    let index: I
    let points: [Point]
    let positions: [Point]
    let k: Int
    /// Per step, the search's maximum distance; `nil`: none.
    let reaches: [Double]?
    var buffer = NearestBuffer()

    var stepCount: Int { positions.count }

    mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepOutcome {
      let reach = reaches.map { step < $0.count ? $0[step] : .infinity } ?? .infinity
      index.nearest(
        to: positions[step], k: k, maxDistance: reach, into: &buffer, counters: &counters)
      var digest: UInt64 = 0
      for (rank, n) in buffer.neighbors.enumerated() {
        digest &+= mix64(UInt64(bitPattern: Int64(n.id)) &+ UInt64(rank) << 32)
      }
      return StepOutcome(digest: digest, count: buffer.neighbors.count)
    }

    mutating func answer(step: Int) -> [Neighbor] {
      var none = NoCounters()
      _ = run(step: step, counters: &none)
      return buffer.neighbors
    }
  }
}
