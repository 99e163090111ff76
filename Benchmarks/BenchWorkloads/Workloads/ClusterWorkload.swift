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
///
/// With a filter (``WorkloadData/filter``) the markers are those of the
/// points that pass it: a cell with none has no marker. Each aggregate asked
/// adds a column, `sum_F`, `min_F` or `max_F` in the order asked, written
/// with the property's scale (``AggregateValue``), empty when no point of
/// the marker has a value.
public enum ClusterWorkload: Workload {
  public typealias Answer = ClusterAnswer

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

  public static func answerColumns(_ data: WorkloadData) -> [String] {
    answerColumns + (data.filter?.aggregateColumns ?? [])
  }

  package static func visitRunners<I: DescribedIndex, V: WorkloadVisitor>(
    on index: I, _ data: WorkloadData, variants: [String], _ visitor: inout V
  ) throws {
    // one clusterer for every strategy: its tables are built once
    let clusterer = try Clusterer(index: index, points: data.points, cellTable: data.cellTable)
    for variant in variants {
      guard let strategy = ClusterStrategy(rawValue: variant) else { continue }
      var runner = Runner(
        clusterer: clusterer, areas: data.steps.areas ?? [], strategy: strategy, filter: data.filter)
      try visitor.visit(Self.self, variant: variant, &runner)
    }
  }

  public static func writeAnswer(
    _ answer: Answer, query: Int, ids: ExternalIDs, to csv: inout CSVWriter
  ) {
    let width = answer.aggregatesPerMarker
    for (k, m) in answer.markers.enumerated() {
      var row = [
        String(query), String(m.key.column), String(m.key.row), String(m.count),
        FixedPoint.text(m.latitudeE7), FixedPoint.text(m.longitudeE7),
        m.id.map { String(ids[Int($0)]) } ?? "",
      ]
      for a in answer.aggregates[(k * width)..<((k + 1) * width)] { row.append(a.description) }
      csv.writeRow(row)
    }
  }

  public static func difference(expected: Answer, got: Answer) -> String {
    let missing = expected.markers.filter { !got.markers.contains($0) }.prefix(3)
    let extra = got.markers.filter { !expected.markers.contains($0) }.prefix(3)
    let markers = "\(got.markers.count) markers, linear scan \(expected.markers.count); "
      + "missing \(Array(missing)), extra \(Array(extra))"
    guard missing.isEmpty && extra.isEmpty && got.markers == expected.markers else { return markers }
    let common = min(got.aggregates.count, expected.aggregates.count)
    let k = (0..<common).first { got.aggregates[$0] != expected.aggregates[$0] } ?? common
    func shown(_ a: [AggregateValue]) -> String { k < a.count ? "\"\(a[k])\"" : "none" }
    return "the markers agree; aggregate \(k) is \(shown(got.aggregates)), linear scan \(shown(expected.aggregates))"
  }

  struct Runner<I: DescribedIndex>: StepRunner {
    var clusterer: Clusterer<I>
    let areas: [VisibleArea]
    let strategy: ClusterStrategy
    /// Each step's filter and the aggregates; `nil`: every point, no aggregate.
    let filter: StepFilter?
    var markers: [ClusterMarker] = []
    var aggregates: [AggregateValue] = []
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
      if let filter {
        do {
          try clusterer.cluster(
            areas[step], strategy: strategy, query: filter.query(step: step), into: &markers,
            aggregates: &aggregates, counters: &counters)
        } catch {
          // the properties are the points' (RunFilter.compiled): never here
          markers.removeAll(keepingCapacity: true)
          aggregates.removeAll(keepingCapacity: true)
        }
      } else {
        clusterer.cluster(areas[step], strategy: strategy, into: &markers, counters: &counters)
      }
      diff.update(with: markers)
      markerChurn &+= diff.churn
      var digest: UInt64 = 0
      for m in markers { digest = digest &* 0x100_0000_01B3 &+ Self.hash(m) }
      // Hasher is seeded per process: the digest takes the value's bits
      for a in aggregates { digest = digest &* 0x100_0000_01B3 &+ mix64(a.value?.bitPattern ?? 1) }
      return StepOutcome(digest: digest, count: markers.count)
    }

    mutating func answer(step: Int) -> ClusterAnswer {
      _ = runStep(step)
      return ClusterAnswer(markers: markers, aggregates: aggregates)
    }

    var churn: Int? { markerChurn }
    var workloadBytes: Int? { clusterer.memoryBytes(for: strategy) + (filter?.propertyBytes ?? 0) }

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

/// The cluster workload's answer to one step: the markers, in the
/// clusterer's order (row, then column), and each marker's aggregates in
/// the order asked (marker `m`'s aggregate `a` at `m · count + a`).
public struct ClusterAnswer: Equatable, Sendable {
  public var markers: [ClusterMarker]
  public var aggregates: [AggregateValue]

  public init(markers: [ClusterMarker], aggregates: [AggregateValue] = []) {
    self.markers = markers
    self.aggregates = aggregates
  }

  /// The aggregates a marker reports.
  public var aggregatesPerMarker: Int { markers.isEmpty ? 0 : aggregates.count / markers.count }
}
