extension BucketQuadtree {
  /// Builds, in one top-down pass a level, the tree that inserting `points`
  /// in id order builds, laid out as ``compact()`` lays it out (the same
  /// arrays, value for value: a test checks it).
  ///
  /// Inserts leave in a node the first `capacity` points that reach it and
  /// send later ones down, so the tree follows from the points alone: a
  /// node keeps the first `capacity` of its region's points by id (all of
  /// them at a leaf: no more than `capacity`, or at the depth cap) and hands
  /// the rest to its quadrants by a stable counting partition, which keeps
  /// id order for the level below. Nodes are visited depth first, each
  /// node's four children given contiguous records when it is visited, and
  /// buckets are written in the same order: that is the packed layout.
  ///
  /// - Complexity: O(*n* · depth), sequential passes instead of the
  ///   inserts' descent from the root for every point.
  mutating func bulkLoad(_ points: [Point]) {
    let n = points.count
    let capacity = self.capacity, maxDepth = self.maxDepth, stride = Field.stride
    // Two copies of the points (x, y, id): a node reads its range from the
    // copy of its level's parity and partitions the rest into the other one,
    // the same positions, so no pass copies back. Ranges of one level are
    // disjoint, and a child's lies inside its parent's.
    let xs = UnsafeMutablePointer<Double>.allocate(capacity: 2 * max(1, n))
    let ys = UnsafeMutablePointer<Double>.allocate(capacity: 2 * max(1, n))
    let ids = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * max(1, n))
    let quads = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, n))
    let next = UnsafeMutablePointer<Int>.allocate(capacity: 4)  // each quadrant's next place
    defer {
      next.deallocate()
      xs.deallocate()
      ys.deallocate()
      ids.deallocate()
      quads.deallocate()
    }
    for (i, p) in points.enumerated() {
      xs[i] = p.x
      ys[i] = p.y
      ids[i] = Int32(truncatingIfNeeded: i)
    }
    var newNodes = Array(Self.emptyChildren[0..<stride])
    // about 4/3 of a node per `capacity` points on spread data
    newNodes.reserveCapacity(stride * (2 * n / max(1, capacity) + 1))
    var poolXY = [Double](repeating: 0, count: 2 * n)
    var poolIDs = [Int32](repeating: -1, count: n)
    var filled = 0
    // a node to write: its record, its points' range, box and level
    var stack: [(record: Int, lo: Int, hi: Int, box: Rect, level: Int)] = [(0, 0, n, bounds, 1)]
    poolXY.withUnsafeMutableBufferPointer { poolXY in
    poolIDs.withUnsafeMutableBufferPointer { poolIDs in
      while let t = stack.popLast() {
        let count = t.hi &- t.lo
        let leaf = count <= capacity || t.level >= maxDepth
        let kept = leaf ? count : capacity
        let r = t.record &* stride
        newNodes[r &+ Field.bucketStart] = Int32(truncatingIfNeeded: filled)
        newNodes[r &+ Field.bucketCount] = Int32(truncatingIfNeeded: kept)
        newNodes[r &+ Field.bucketSlots] = Int32(truncatingIfNeeded: kept)
        let source = ((t.level &- 1) & 1) &* n, target = n &- source  // the root reads copy 0
        let x = xs + source, y = ys + source, id = ids + source
        for i in t.lo..<(t.lo &+ kept) {
          poolXY[2 &* filled] = x[i]
          poolXY[2 &* filled &+ 1] = y[i]
          poolIDs[filled] = id[i]
          filled &+= 1
        }
        if leaf { continue }
        let first = newNodes.count / stride
        newNodes[r &+ Field.firstChild] = Int32(truncatingIfNeeded: first)
        newNodes.append(contentsOf: Self.emptyChildren)
        // the rest, stably into quadrants 0...3 (counted without a store a
        // point: a dynamic lane of a vector went through memory, 40% of the time)
        let c = Self.center(of: t.box)
        let from = t.lo &+ kept
        var west = 0, south = 0, southWest = 0
        for i in from..<t.hi {
          let east = x[i] < c.x ? 0 : 1, north = y[i] < c.y ? 0 : 2
          quads[i] = UInt8(truncatingIfNeeded: east | north)
          let isWest = 1 &- east, isSouth = 1 &- (north >> 1)
          west &+= isWest
          south &+= isSouth
          southWest &+= isWest & isSouth
        }
        let count0 = southWest, count1 = south &- southWest
        let count2 = west &- southWest  // and quadrant 3 the rest
        let starts = (from, from &+ count0, from &+ count0 &+ count1, from &+ count0 &+ count1 &+ count2)
        next[0] = starts.0
        next[1] = starts.1
        next[2] = starts.2
        next[3] = starts.3
        let tx = xs + target, ty = ys + target, tid = ids + target
        for i in from..<t.hi {  // no branch a point: quadrants of spread data are random
          let q = Int(quads[i])
          let k = next[q]
          next[q] = k &+ 1
          tx[k] = x[i]
          ty[k] = y[i]
          tid[k] = id[i]
        }
        // popped in quadrant order
        let level = t.level &+ 1
        stack.append((first &+ 3, starts.3, t.hi, Self.quadrantBox(t.box, c, 3), level))
        stack.append((first &+ 2, starts.2, starts.3, Self.quadrantBox(t.box, c, 2), level))
        stack.append((first &+ 1, starts.1, starts.2, Self.quadrantBox(t.box, c, 1), level))
        stack.append((first, starts.0, starts.1, Self.quadrantBox(t.box, c, 0), level))
      }
    }}
    nodes = newNodes.withUnsafeBufferPointer { Array($0) }  // exact size: the reserve was a guess
    coords = poolXY
    self.ids = poolIDs
    holeSlots = 0
    packed = true
  }
}
