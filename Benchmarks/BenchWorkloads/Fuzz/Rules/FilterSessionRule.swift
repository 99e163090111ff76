import MapClustering
import SpatialIndexes

/// **filters**: each step's markers are those ``ClusterRule`` gives over
/// the points that pass the step's filter alone, with their ids in the
/// points file. Whether a point passes is the compiled filter's answer
/// (``PropertyQuery/matches(_:)``, checked against a reference of the
/// grammar in the library's tests); the aggregates are compared index
/// against index, not here.
///
/// Without the session's filters (data without properties) the workload
/// runs no step, and the rule has no answer.
public enum FilterSessionRule: AnswerRule {
  public static let workload = FilterSessionWorkload.name

  public static func answers(_ data: WorkloadData, variant: String) -> [ClusterAnswer] {
    guard let filter = data.sessionFilter else { return [] }
    return (data.steps.areas ?? []).enumerated().map { step, area in
      let query = filter.filterQuery(step: step)
      let kept = data.points.indices.filter { query?.matches(Int32($0)) ?? true }
      let markers = ClusterRule.markers(of: area, points: kept.map { data.points[$0] }, cellTable: data.cellTable)
      return ClusterAnswer(markers: markers.map { m in
        var m = m
        if let id = m.id { m.id = Int32(kept[Int(id)]) }
        return m
      })
    }
  }

  /// The markers as the answer file writes them; the aggregates are the
  /// indexes' to agree on.
  public static func allows(
    _ got: ClusterAnswer, expected: ClusterAnswer, step: Int, data: WorkloadData, variant: String
  ) -> Bool {
    got.markers.map(ClusterRule.Row.init) == expected.markers.map(ClusterRule.Row.init)
  }
}
