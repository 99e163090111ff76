extension KDTreeIndex: InvariantChecking {
  /// Every id appears once; the split points and leaves exactly fill their
  /// regions; every point lies inside the box its node's splits give it.
  package func _invariantViolations() -> [String] {
    var problems: [String] = []
    if coords.count != 2 * ids.count { problems.append("coords \(coords.count) for \(ids.count) ids") }
    if splitCount != Self._splitCount(size: ids.count, nodeSize: parameters.nodeSize) {
      problems.append("splitCount \(splitCount) does not match the shape")
    }
    var seen = [Bool](repeating: false, count: ids.count)
    for id in ids {
      guard id >= 0, Int(id) < ids.count else { problems.append("id \(id) out of range"); continue }
      if seen[Int(id)] { problems.append("id \(id) twice") }
      seen[Int(id)] = true
    }
    guard !ids.isEmpty else { return problems }
    var splitsSeen = 0, leafPointsSeen = 0
    func inside(_ i: Int, _ box: Rect) -> Bool { box.contains(x: coords[2 * i], y: coords[2 * i + 1]) }
    var stack = [(split: 0, leaf: splitCount, size: ids.count, splits: splitCount, axis: 0, box: bounds)]
    while let f = stack.popLast() {
      if f.size <= parameters.nodeSize {
        if f.splits != 0 { problems.append("leaf at \(f.leaf) claims \(f.splits) splits") }
        leafPointsSeen += f.size
        for i in f.leaf..<(f.leaf + f.size) where !inside(i, f.box) {
          problems.append("leaf point at \(i) outside its box \(f.box)")
        }
        continue
      }
      splitsSeen += 1
      if !inside(f.split, f.box) { problems.append("split point \(f.split) outside its box") }
      let l = Self._leftShape(size: f.size, nodeSize: parameters.nodeSize)
      let v = coords[2 * f.split + f.axis]
      var low = f.box, high = f.box
      if f.axis == 0 { low.maxX = v; high.minX = v } else { low.maxY = v; high.minY = v }
      stack.append((f.split + 1, f.leaf, l.points, l.splits, 1 - f.axis, low))
      let rightSize = f.size - 1 - l.points
      if rightSize > 0 {
        stack.append((f.split + 1 + l.splits, f.leaf + l.points - l.splits, rightSize,
                      f.splits - 1 - l.splits, 1 - f.axis, high))
      }
      if problems.count > 10 { return problems }
    }
    if splitsSeen != splitCount { problems.append("\(splitsSeen) split points reached of \(splitCount)") }
    if leafPointsSeen != ids.count - splitCount {
      problems.append("\(leafPointsSeen) leaf points reached of \(ids.count - splitCount)")
    }
    return problems
  }
}
