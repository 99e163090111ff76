import MapClustering
import SpatialIndexes

/// **viewport**: "the points inside (inclusive bounds, every duplicate
/// counted)" of each step's rectangles, as ids, ascending, each once; with
/// a filter, only those that pass it (``PropertyQuery/matches(_:)``).
public enum ViewportRule: AnswerRule {
  public static let workload = ViewportWorkload.name

  public static func answers(_ data: WorkloadData, variant: String) -> [[Int32]] {
    (data.steps.rects ?? []).enumerated().map { step, rects in
      inside(rects, data.points, passing: data.filter?.filterQuery(step: step))
    }
  }

  /// The ids of the points inside one of `rects`, edges included, that
  /// `query` keeps (every one when nil), ascending.
  static func inside(_ rects: [Rect], _ points: [Point], passing query: PropertyQuery? = nil) -> [Int32] {
    var ids: [Int32] = []
    for (i, p) in points.enumerated() where query?.matches(Int32(i)) ?? true {
      let seen = rects.contains { r in
        p.x >= r.minX && p.x <= r.maxX && p.y >= r.minY && p.y <= r.maxY
      }
      if seen { ids.append(Int32(i)) }
    }
    return ids
  }
}
