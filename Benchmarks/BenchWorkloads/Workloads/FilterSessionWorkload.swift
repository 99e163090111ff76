import BenchFormats
import MapClustering
import SpatialIndexes

/// The filter session: each step's view clustered, as the cluster
/// workload does, with the filter the user has set by then: chips toggled
/// and a slider moved between pans and zooms (``FilterSession``). Measured
/// per step; a change of filter costs only that step's query, never a
/// rebuild. One variant per ``ClusterStrategy``.
///
/// It runs on data whose properties are known (``FilterSession/forDataset(_:)``):
/// the run compiles each step's filter into ``WorkloadData/sessionFilter``.
/// Without it the workload hands the visitor no runner: `bench run` and
/// `verify` refuse the workload on such data, or leave it out and say so,
/// before they get here.
/// Answers are the cluster workload's, with the session's aggregate columns.
public enum FilterSessionWorkload: Workload {
  public typealias Answer = ClusterAnswer

  public static let name = "filters"
  /// A cluster step: a quarter of a frame.
  public static let frameShare: Double? = 0.25
  public static let needsProperties = true
  public static let summary =
    "the session clustered under filters the user changes: chips toggled, a slider moved (hotels, places, airports, zipcodes)"
  public static let need = StepNeed.zoom
  public static let variants = ClusterWorkload.variants
  public static let referenceVariant = ClusterWorkload.referenceVariant
  public static let answerColumns = ClusterWorkload.answerColumns

  public static func answerColumns(_ data: WorkloadData) -> [String] {
    answerColumns + (data.sessionFilter?.aggregateColumns ?? [])
  }

  package static func visitRunners<I: DescribedIndex, V: WorkloadVisitor>(
    on index: I, _ data: WorkloadData, variants: [String], _ visitor: inout V
  ) throws {
    guard let filter = data.sessionFilter else { return }
    let clusterer = try Clusterer(index: index, points: data.points, cellTable: data.cellTable)
    for variant in variants {
      guard let strategy = ClusterStrategy(rawValue: variant) else { continue }
      var runner = ClusterWorkload.Runner(
        clusterer: clusterer, areas: data.steps.areas ?? [], strategy: strategy, filter: filter)
      try visitor.visit(Self.self, variant: variant, &runner)
    }
  }

  public static func writeAnswer(_ answer: Answer, query: Int, ids: ExternalIDs, to csv: inout CSVWriter) {
    ClusterWorkload.writeAnswer(answer, query: query, ids: ids, to: &csv)
  }

  public static func difference(expected: Answer, got: Answer) -> String {
    ClusterWorkload.difference(expected: expected, got: got)
  }
}
