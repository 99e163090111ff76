extension HilbertRTree: InvariantChecking {
  /// Every id appears once; the points are in Hilbert order; every node's
  /// box is exactly the box of its points (a leaf) or of its children's
  /// boxes; the levels have the sizes the packing gives.
  package func _invariantViolations() -> [String] {
    var problems: [String] = []
    let n = ids.count, s = parameters.nodeSize
    if coords.count != 2 * n { problems.append("coords \(coords.count) for \(n) ids") }
    var seen = [Bool](repeating: false, count: n)
    for id in ids {
      guard id >= 0, Int(id) < n else { problems.append("id \(id) out of range"); continue }
      if seen[Int(id)] { problems.append("id \(id) twice") }
      seen[Int(id)] = true
    }
    guard n > 0 else {
      if levelCount != 0 { problems.append("\(levelCount) levels for no points") }
      return problems
    }
    let points = (0..<n).map { Point(x: coords[2 * $0], y: coords[2 * $0 + 1]) }
    let bounds = Rect(bounding: points)!
    let order = Self.hilbertOrder(points, bounds: bounds)
    // sorted by key: the order of the stored points is their own Hilbert order
    if order != Array(0..<Int32(n)) { problems.append("points not in Hilbert order") }
    var expected = (n + s - 1) / s
    for level in 0..<levelCount {
      let count = levelStarts[level + 1] - levelStarts[level]
      if count != expected { problems.append("level \(level) has \(count) nodes, expected \(expected)") }
      let span = spans[level]
      for node in 0..<count {
        let want: Rect?
        if level == 0 {
          want = Rect(bounding: points[(node * s)..<min(n, node * s + s)])
        } else {
          let below = levelStarts[level] - levelStarts[level - 1]
          let children = ((node * s)..<min(below, node * s + s)).map { box(level: level - 1, node: $0) }
          want = children.dropFirst().reduce(children.first) { r, c in
            r.map { Rect(minX: min($0.minX, c.minX), minY: min($0.minY, c.minY),
                         maxX: max($0.maxX, c.maxX), maxY: max($0.maxY, c.maxY)) }
          }
        }
        if want != box(level: level, node: node) { problems.append("level \(level) node \(node): box \(box(level: level, node: node)), expected \(String(describing: want))") }
        // the node's run of points lies in its box
        let run = (node * span)..<min(n, node * span + span)
        if let b = want, let p = run.first(where: { !b.contains(points[$0]) }) {
          problems.append("level \(level) node \(node): point at \(p) outside")
        }
        if problems.count > 10 { return problems }
      }
      expected = (count + s - 1) / s
      if level == levelCount - 1 && count != 1 { problems.append("top level has \(count) nodes") }
    }
    return problems
  }
}
