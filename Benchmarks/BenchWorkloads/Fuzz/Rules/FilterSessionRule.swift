import MapClustering
import SpatialIndexes

/// **filters**: each step's markers and aggregates are those ``ClusterRule``
/// gives over the points that pass the step's filter alone, with their ids
/// in the points file.
///
/// Without the session's filters (data without properties) the workload
/// runs no step, and the rule has no answer.
public enum FilterSessionRule: AnswerRule {
  public static let workload = FilterSessionWorkload.name

  public static func answers(_ data: WorkloadData, variant: String) -> [ClusterAnswer] {
    guard let filter = data.sessionFilter else { return [] }
    return (data.steps.areas ?? []).enumerated().map { step, area in
      ClusterRule.answer(of: area, data, query: filter.filterQuery(step: step), aggregates: filter.aggregates)
    }
  }

  /// Equal as the answer file writes them, aggregates included.
  public static func allows(
    _ got: ClusterAnswer, expected: ClusterAnswer, step: Int, data: WorkloadData, variant: String
  ) -> Bool {
    ClusterRule.allows(got, expected: expected, step: step, data: data, variant: variant)
  }
}
