import SpatialIndexes

/// A deliberately wrong index for the fuzzer's tests: a linear scan that
/// leaves out the points lying exactly on a query rectangle's east edge
/// (a `<` where `<=` belongs). Every workload that queries a box through
/// a point on its east edge sees it.
struct EdgeShyIndex: DescribedIndex {
  typealias Parameters = NoParameters
  static let name = "edgeshy"
  static let summary = "a linear scan that misses points on a box's east edge (wrong on purpose)"

  let points: [Point]

  init(points: [Point], parameters: NoParameters) throws(IndexError) {
    self.points = points
  }

  var count: Int { points.count }
  var parameters: NoParameters { NoParameters() }
  var parameterValues: [ParameterValue] { [] }
  var memoryBytes: Int { points.count * 16 }

  @discardableResult
  func forEach<C: QueryCounters>(in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool) -> Bool {
    counters.testPoints(points.count)  // a scan: the work grows with the points
    for (i, p) in points.enumerated() where rect.contains(p) && p.x < rect.maxX {
      if !visit(Int32(i)) { return false }
    }
    return true
  }

  func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double, into buffer: inout NearestBuffer, counters: inout C
  ) {
    nearestThroughRanges(to: position, k: k, maxDistance: maxDistance, into: &buffer, counters: &counters) {
      points[Int($0)]
    }
  }
}
