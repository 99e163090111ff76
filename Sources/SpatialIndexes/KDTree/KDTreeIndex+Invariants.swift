extension KDTreeIndex: InvariantChecking {
  /// Every id appears once; every subtree's points lie on the right side of
  /// each split above them (checked through the boxes the query uses).
  package func _invariantViolations() -> [String] {
    var problems: [String] = []
    if coords.count != 2 * ids.count { problems.append("coords \(coords.count) for \(ids.count) ids") }
    var seen = [Bool](repeating: false, count: ids.count)
    for id in ids {
      guard id >= 0, Int(id) < ids.count else { problems.append("id \(id) out of range"); continue }
      if seen[Int(id)] { problems.append("id \(id) twice") }
      seen[Int(id)] = true
    }
    guard !ids.isEmpty else { return problems }
    var stack = [(0, ids.count - 1, 0, bounds)]
    while let (left, right, axis, box) = stack.popLast() {
      for i in left...right where !box.contains(x: coords[2 * i], y: coords[2 * i + 1]) {
        problems.append("point at \(i) outside its node box \(box)")
        if problems.count > 10 { return problems }
      }
      if right - left <= parameters.nodeSize { continue }
      let m = (left + right) >> 1
      let v = coords[2 * m + axis]
      var low = box, high = box
      if axis == 0 { low.maxX = v; high.minX = v } else { low.maxY = v; high.minY = v }
      stack.append((left, m - 1, 1 - axis, low))
      stack.append((m + 1, right, 1 - axis, high))
    }
    return problems
  }
}
