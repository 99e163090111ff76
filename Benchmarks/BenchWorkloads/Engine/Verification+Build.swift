import SpatialIndexes

extension Verification {
  /// The name of a build's check in ``Result/workload``.
  public static let buildCheck = "build"

  /// `bench verify --workload build`: the index built over `pointCount`
  /// points holds them all, each once, as the linear scan does: its `count`
  /// is `pointCount`, and a query of the whole map (every valid point lies
  /// in it) lists each id in `0..<pointCount` once and counts as many.
  static func checkBuild<I: DescribedIndex>(_ index: I, pointCount: Int) -> Result {
    var problems: [String] = []
    if index.count != pointCount {
      problems.append("count is \(index.count), not \(pointCount)")
    }
    let world = Rect(minX: -180, minY: -90, maxX: 180, maxY: 90)
    var ids: [Int32] = []
    ids.reserveCapacity(pointCount)
    index.query(in: world, into: &ids)
    ids.sort()
    if !ids.elementsEqual(0..<Int32(clamping: pointCount)) {
      var seen = Set<Int32>()
      let repeated = ids.filter { !seen.insert($0).inserted }.count
      let missing = pointCount - seen.count
      problems.append("a query of the whole map listed \(ids.count) ids (\(missing) missing, \(repeated) repeated)")
    }
    let counted = index.count(in: world)
    if counted != pointCount {
      problems.append("a count of the whole map gave \(counted)")
    }
    return Result(
      index: index.label, workload: buildCheck, steps: 1, differingSteps: problems.isEmpty ? 0 : 1,
      problems: problems)
  }
}
