import SpatialIndexes

/// **viewport**: "the points inside (inclusive bounds, every duplicate
/// counted)" of each step's rectangles, as ids, ascending, each once.
public enum ViewportRule: AnswerRule {
  public static let workload = ViewportWorkload.name

  public static func answers(_ data: WorkloadData, variant: String) -> [[Int32]] {
    (data.steps.rects ?? []).map { inside($0, data.points) }
  }

  /// The ids of the points inside one of `rects`, edges included, ascending.
  static func inside(_ rects: [Rect], _ points: [Point]) -> [Int32] {
    var ids: [Int32] = []
    for (i, p) in points.enumerated() {
      let seen = rects.contains { r in
        p.x >= r.minX && p.x <= r.maxX && p.y >= r.minY && p.y <= r.maxY
      }
      if seen { ids.append(Int32(i)) }
    }
    return ids
  }
}
