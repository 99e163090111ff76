import MapClustering
import SpatialIndexes

/// **live**: frame `q` is step `q`'s viewport once the points have moved
/// `q + 1` times from the points file's positions: the ids in its
/// rectangles (as **viewport**) and its markers (as **cluster**). The moves
/// are the steps' scripted ones, or the fleet's (``FleetMotion``, seeded).
public enum LiveRule: AnswerRule {
  public static let workload = LiveWorkload.name

  public static func answers(_ data: WorkloadData, variant: String) -> [LiveFrame] {
    let steps = data.steps
    let count = min(steps.rects?.count ?? 0, steps.areas?.count ?? 0)
    var points = data.points
    var motion = FleetMotion(count: steps.moves == nil ? points.count : 0, settings: steps.live)
    let script = steps.moves.flatMap { $0.isEmpty ? nil : $0 }
    var moves: [PointMove] = []
    return (0..<count).map { q in
      if let script {
        moves = script[q % script.count]
      } else {
        motion.nextFrame(positions: points, into: &moves)
      }
      for m in moves where m.id >= 0 && Int(m.id) < points.count { points[Int(m.id)] = m.to }
      return LiveFrame(
        ids: ViewportRule.inside(steps.rects![q], points),
        markers: ClusterRule.markers(
          of: steps.areas![q], points: points, cellTable: data.cellTable))
    }
  }

  public static func allows(
    _ got: LiveFrame, expected: LiveFrame, step: Int, data: WorkloadData, variant: String
  ) -> Bool {
    got.ids == expected.ids
      && ClusterRule.allows(
        ClusterAnswer(markers: got.markers), expected: ClusterAnswer(markers: expected.markers), step: step,
        data: data, variant: variant)
  }
}
