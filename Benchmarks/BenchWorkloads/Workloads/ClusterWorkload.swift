import BenchFormats
import MapClustering
import SpatialIndexes
import BenchHarness

/// Each step's viewport clustered into one marker per non-empty grid cell,
/// then diffed against the previous step's markers, as the original did on
/// the main thread. One variant per ``ClusterStrategy``; all give the same
/// markers, bit for bit.
///
/// Answers: `query,cell_x,cell_y,count,lat,lon,id`, one row per marker, by
/// query, then `cell_y`, then `cell_x`: the world-aligned cell at the step's
/// zoom, the marker's count, its position as the ``FixedPoint`` mean written
/// with 7 decimals, and the point's id when the cell holds one point (else
/// empty). A step with no point in view writes no row.
public enum ClusterWorkload: Workload {
  /// The markers, in the clusterer's order (row, then column).
  public typealias Answer = [ClusterMarker]

  public static let name = "cluster"
  /// A quarter of a frame, as the viewport query.
  public static let frameShare: Double? = 0.25
  public static let summary =
    "each viewport clustered into grid markers; strategies per-cell, single-pass, aggregate"
  public static let need = StepNeed.zoom
  public static let variants = ClusterStrategy.allCases.map(\.rawValue)
  /// The linear scan clusters in one pass (per cell it would scan once a cell).
  public static let referenceVariant = ClusterStrategy.singlePass.rawValue
  public static let answerColumns = ["cell_x", "cell_y", "count", "lat", "lon", "id"]

  package static func visitRunners<I: DescribedIndex, V: WorkloadVisitor>(
    on index: I, _ data: WorkloadData, variants: [String], _ visitor: inout V
  ) throws {
    // one clusterer for every strategy: its tables are built once
    let clusterer = try Clusterer(index: index, points: data.points, cellTable: data.cellTable)
    for variant in variants {
      guard let strategy = ClusterStrategy(rawValue: variant) else { continue }
      var runner = Runner(clusterer: clusterer, areas: data.steps.areas ?? [], strategy: strategy)
      try visitor.visit(Self.self, variant: variant, &runner)
    }
  }

  public static func writeAnswer(
    _ answer: Answer, query: Int, ids: ExternalIDs, to csv: inout CSVWriter
  ) {
    for m in answer {
      csv.writeRow([
        String(query), String(m.key.column), String(m.key.row), String(m.count),
        FixedPoint.text(m.latitudeE7), FixedPoint.text(m.longitudeE7),
        m.id.map { String(ids[Int($0)]) } ?? "",
      ])
    }
  }

  public static func difference(expected: Answer, got: Answer) -> String {
    let missing = expected.filter { !got.contains($0) }.prefix(3)
    let extra = got.filter { !expected.contains($0) }.prefix(3)
    return "\(got.count) markers, linear scan \(expected.count); missing \(Array(missing)), extra \(Array(extra))"
  }

  struct Runner<I: DescribedIndex>: StepRunner {
    var clusterer: Clusterer<I>
    let areas: [VisibleArea]
    let strategy: ClusterStrategy
    var markers: [ClusterMarker] = []
    var diff = MarkerDiff()
    /// Markers added plus removed since step 0 last ran: one pass's churn
    /// (a step repeated in a timing batch diffs against itself and adds 0).
    var markerChurn = 0

    var stepCount: Int { areas.count }

    mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepOutcome {
      if step == 0 {
        diff.reset()
        markerChurn = 0
      }
      clusterer.cluster(areas[step], strategy: strategy, into: &markers, counters: &counters)
      diff.update(with: markers)
      markerChurn &+= diff.churn
      var digest: UInt64 = 0
      for m in markers { digest = digest &* 0x100_0000_01B3 &+ Self.hash(m) }
      return StepOutcome(digest: digest, count: markers.count)
    }

    mutating func answer(step: Int) -> [ClusterMarker] {
      _ = runStep(step)
      return markers
    }

    var churn: Int? { markerChurn }
    var workloadBytes: Int? { clusterer.memoryBytes(for: strategy) }

    static func hash(_ m: ClusterMarker) -> UInt64 {
      var h = mix64(UInt64(bitPattern: Int64(m.key.column)) &+ UInt64(m.key.zoom) << 58)
      h = mix64(h ^ UInt64(bitPattern: Int64(m.key.row)))
      h = mix64(h ^ UInt64(m.key.count))
      h = mix64(h ^ UInt64(UInt32(bitPattern: m.longitudeE7)) << 32 ^ UInt64(UInt32(bitPattern: m.latitudeE7)))
      h = mix64(h ^ m.coordinate.x.bitPattern)
      h = mix64(h ^ m.coordinate.y.bitPattern)
      return mix64(h ^ UInt64(bitPattern: Int64(m.id ?? -1)))
    }
  }
}
