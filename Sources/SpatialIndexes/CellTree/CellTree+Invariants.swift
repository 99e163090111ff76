extension CellTree: InvariantChecking {
  /// Every point once (on the map in the tree, off it in its k-d tree),
  /// codes sorted, each node's points in its cell and summed in its totals,
  /// children nested in their parent and side by side, leaves no fuller
  /// than `leafSize` above the deepest level.
  package func _invariantViolations() -> [String] {
    var problems: [String] = []
    func note(_ s: @autoclosure () -> String) { if problems.count < 10 { problems.append(s()) } }
    let n = ids.count
    if coords.count != 2 * n || rows.count != n { note("array lengths differ: \(coords.count), \(rows.count), \(n)") }
    if Set(ids + offMapIDs).count != count { note("an id appears twice") }
    for i in 0..<n where !Self.isOnMap(Point(x: coords[2 * i], y: coords[2 * i + 1])) {
      note("point \(ids[i]) is in the tree but off the map")
    }
    if offMap.count != offMapIDs.count { note("off-map tree holds \(offMap.count), ids \(offMapIDs.count)") }
    let kd = offMap._invariantViolations()
    if !kd.isEmpty { note("off-map tree: \(kd)") }
    if n == 0 {
      if !nodes.isEmpty { note("nodes without points") }
      return problems
    }
    let scale = WebMercator.scale(zoom: 23)
    func code(_ i: Int) -> (Int, Int) {
      (MapCells.index(WebMercator.x(longitude: coords[2 * i]), scale: scale, cellSize: 11, inverse: 1.0 / 11),
       Int(rows[i]))
    }
    var last: UInt64 = 0
    for i in 0..<n {
      let (x, y) = code(i)
      let row = MapCells.index(WebMercator.y(latitude: coords[2 * i + 1]), scale: scale, cellSize: 11, inverse: 1.0 / 11)
      if y != row { note("point \(ids[i]): its row \(y) is not its map y's \(row)") }
      let key = Self.morton(UInt64(x), UInt64(y))
      if i > 0 && key < last { note("codes out of order at \(i)") }
      last = key
    }
    var seenLeafPoints = 0
    var stack: [(node: Int, depth: Int, cx: Int, cy: Int)] = [(0, 0, 0, 0)]
    var visited = 0
    while let (i, depth, cx, cy) = stack.popLast() {
      visited += 1
      let node = nodes[i]
      let start = Int(node.start), end = start + Int(node.count)
      if node.count <= 0 { note("node \(i) is empty") }
      var lon: Int64 = 0, lat: Int64 = 0
      let shift = Self.maxDepth - depth
      for k in start..<end {
        lon += Int64(MapCells.units(coords[2 * k]))
        lat += Int64(MapCells.units(coords[2 * k + 1]))
        let (x, y) = code(k)
        if x >> shift != cx || y >> shift != cy { note("point \(ids[k]) outside node \(i)'s cell") }
      }
      if lon != node.sumLon || lat != node.sumLat { note("node \(i)'s sums are wrong") }
      for k in start..<end {
        let x = coords[2 * k], y = coords[2 * k + 1]
        if x < Double(node.minLon) || x > Double(node.maxLon) || y < Double(node.minLat) || y > Double(node.maxLat) {
          note("point \(ids[k]) outside node \(i)'s box")
        }
      }
      if node.isLeaf {
        seenLeafPoints += Int(node.count)
        if end > start && node.firstID != ids[start] { note("leaf \(i)'s first id is not its first point's") }
        if Int(node.count) > parameters.leafSize && depth < Self.maxDepth {
          note("leaf \(i) holds \(node.count) points above the deepest level")
        }
        continue
      }
      if node.childMask == 0 { note("node \(i) has no children") }
      var next = start
      var child = Int(node.firstChild)
      for q in 0..<4 where node.childMask & (1 << q) != 0 {
        if child <= i || child >= nodes.count { note("node \(i)'s child \(child) is out of place"); break }
        if Int(nodes[child].start) != next { note("node \(i)'s children are not side by side") }
        next = Int(nodes[child].start) + Int(nodes[child].count)
        stack.append((child, depth + 1, 2 * cx + (q & 1), 2 * cy + (q >> 1)))
        child += 1
      }
      if next != end { note("node \(i)'s children do not cover it") }
    }
    if seenLeafPoints != n { note("leaves hold \(seenLeafPoints) points of \(n)") }
    if visited != nodes.count { note("\(nodes.count - visited) nodes are unreachable") }
    return problems
  }
}
