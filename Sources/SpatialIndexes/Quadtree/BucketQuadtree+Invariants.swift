extension BucketQuadtree: InvariantChecking {
  /// Checks, from the root down (iteratively):
  /// - every node is reached exactly once, at level ≤ `maxDepth`, and nodes
  ///   at the cap are leaves;
  /// - each child's box is its quadrant of the parent's box, the two halves
  ///   meeting at the parent's center, which lies inside the parent's box;
  /// - every point lies in its node's box and on its own side of every split
  ///   above it (west means `x < midX`), so inserts and removals find it;
  /// - buckets hold at most `capacity` points except at the depth cap, own
  ///   disjoint slots in the pool, and the slots plus holes fill the pool;
  /// - every id is below ``nextID`` and held once; the total is ``count``;
  /// - when packed, buckets have no spare slot and follow each other in
  ///   depth-first order, so every subtree's points fill one run of slots.
  ///
  /// - Complexity: O(*n* + nodes + pool slots).
  package func _invariantViolations() -> [String] {
    var problems: [String] = []
    func note(_ s: @autoclosure () -> String) {
      if problems.count < 20 { problems.append(s()) }
    }
    guard nodes.count >= Field.stride, nodes.count % Field.stride == 0 else {
      return ["nodes.count \(nodes.count) is not a positive multiple of \(Field.stride)"]
    }
    if coords.count != 2 * ids.count {
      return ["coords.count \(coords.count) != 2 × ids.count \(ids.count)"]
    }
    if liveCount > idCount { note("count \(liveCount) > nextID \(idCount)") }

    var reached = [Bool](repeating: false, count: nodeCount)
    var slotOwned = [Bool](repeating: false, count: ids.count)
    var idSeen = [Bool](repeating: false, count: idCount)
    var points = 0
    var ownedSlots = 0
    // openX: some split routes x == box.maxX elsewhere, so points need x < maxX
    var stack: [(node: Int, level: Int, box: Rect, openX: Bool, openY: Bool)] = [
      (0, 1, bounds, false, false)
    ]
    reached[0] = true
    var nextSlot = 0  // when packed: where the next node in depth-first order starts
    if packed && holeSlots != 0 { note("packed with \(holeSlots) hole slots") }
    while let (node, level, box, openX, openY) = stack.popLast() {
      let r = node * Field.stride
      let firstChild = Int(nodes[r + Field.firstChild])
      let start = Int(nodes[r + Field.bucketStart])
      let n = Int(nodes[r + Field.bucketCount])
      let slots = Int(nodes[r + Field.bucketSlots])
      if level > maxDepth { note("node \(node) at level \(level) > maxDepth \(maxDepth)") }
      if n < 0 || n > slots { note("node \(node): \(n) points in \(slots) slots") }
      if packed {
        if start != nextSlot || slots != n {
          note("packed, but node \(node) has slots \(start)..<\(start + slots) for \(n) points, "
            + "expected start \(nextSlot)")
        }
        nextSlot = start + n
      }
      if n > capacity && level != maxDepth {
        note("node \(node) at level \(level) holds \(n) > capacity \(capacity) points")
      }
      if slots > 0 {
        if start < 0 || start + slots > ids.count {
          note("node \(node): slots \(start)..<\(start + slots) outside the pool of \(ids.count)")
          continue
        }
        for i in start..<(start + slots) {
          if slotOwned[i] { note("pool slot \(i) owned twice (node \(node))") }
          slotOwned[i] = true
        }
        ownedSlots += slots
      }
      for i in start..<(start + Swift.max(0, Swift.min(n, slots))) {
        let id = Int(ids[i])
        let p = Point(x: coords[2 * i], y: coords[2 * i + 1])
        points += 1
        if !box.contains(p) || (openX && p.x == box.maxX) || (openY && p.y == box.maxY) {
          note("point \(id) \(p) outside its node \(node) box \(box)")
        }
        if id < 0 || id >= idCount {
          note("node \(node) holds id \(id), nextID is \(idCount)")
        } else if idSeen[id] {
          note("id \(id) held twice")
        } else {
          idSeen[id] = true
        }
      }
      guard firstChild >= 0 else { continue }
      if level >= maxDepth { note("node \(node) at the depth cap has children") }
      guard firstChild + 4 <= nodeCount else {
        note("node \(node): children \(firstChild)... beyond \(nodeCount) nodes")
        continue
      }
      let c = Self.center(of: box)
      if !box.contains(c) { note("node \(node): center \(c) outside its box \(box)") }
      for q in (0..<4).reversed() {  // popped in quadrant order: depth-first order
        let child = firstChild + q
        if reached[child] { note("node \(child) reached twice"); continue }
        reached[child] = true
        let b = Self.quadrantBox(box, c, q)
        // the quadrant is the parent's box with one x bound and one y bound moved to the center
        let xOK = q & 1 == 0
          ? b.minX == box.minX && b.maxX == c.x : b.minX == c.x && b.maxX == box.maxX
        let yOK = q & 2 == 0
          ? b.minY == box.minY && b.maxY == c.y : b.minY == c.y && b.maxY == box.maxY
        if !xOK || !yOK { note("child \(child) box \(b) is not quadrant \(q) of \(box)") }
        // a west (south) child's east (north) edge is open: x == midX goes east
        stack.append((child, level + 1, b, q & 1 == 0 || openX, q & 2 == 0 || openY))
      }
    }
    let unreached = reached.count { !$0 }
    if unreached > 0 { note("\(unreached) nodes unreachable from the root") }
    if points != liveCount { note("\(points) points in buckets, count says \(liveCount)") }
    if packed && nextSlot != ids.count {
      note("packed, but \(ids.count - nextSlot) slots after the last bucket")
    }
    if ownedSlots + holeSlots != ids.count {
      note("\(ownedSlots) owned + \(holeSlots) hole slots != pool of \(ids.count)")
    }
    return problems
  }
}

extension BucketQuadtree {
  /// The arrays themselves, for tests that compare two builds value for value.
  package var _storage: (nodes: [Int32], coords: [Double], ids: [Int32], packed: Bool) {
    (nodes, coords, ids, packed)
  }
}
