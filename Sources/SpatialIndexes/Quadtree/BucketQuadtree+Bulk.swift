extension BucketQuadtree {
  /// Builds, in one top-down pass a level, the tree that inserting `points`
  /// in id order builds, laid out as ``compact()`` lays it out (the same
  /// arrays, value for value, on any number of threads: a test checks it).
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
  /// On several threads the top of the tree is visited first, in that
  /// order, down to nodes of at most ``bulkSubtreePoints(_:threads:)``
  /// points; each of those subtrees is then built on a thread, in records of
  /// its own, its points written straight into the pool (a subtree's run of
  /// slots starts where the top's visits leave it: every point below lies in
  /// one bucket of it), and the records are put together in the order the
  /// one-thread visit gives them.
  ///
  /// - Complexity: O(*n* · depth), sequential passes instead of the
  ///   inserts' descent from the root for every point.
  mutating func bulkLoad(_ points: [Point], threads: Int) {
    let n = points.count
    let stride = Field.stride
    let work = _BulkWork(points, threads: threads)
    defer { work.deallocate() }
    // every point lands in one bucket: each slot is written once
    var poolXY = [Double](_uninitializedLarge: 2 * n)
    var poolIDs = [Int32](_uninitializedLarge: n)
    let cut = Self.bulkSubtreePoints(n, threads: threads)

    // 1. The top, visited as one thread would, each subtree of at most
    //    `cut` points left for later in its place.
    var top = Array(Self.emptyChildren[0..<stride])
    var order: [_BulkStep] = []
    var subtrees: [(record: Int, node: _BulkNode, poolStart: Int)] = []
    var filled = 0
    poolXY.withUnsafeMutableBufferPointer { poolXY in
      poolIDs.withUnsafeMutableBufferPointer { poolIDs in
        var stack = [(record: 0, node: _BulkNode(lo: 0, hi: n, box: bounds, level: 1))]
        while let (record, node) = stack.popLast() {
          if node.count > capacity && node.level < maxDepth && node.count <= cut {
            order.append(.subtree(subtrees.count))
            subtrees.append((record, node, filled))
            filled &+= node.count
            continue
          }
          if let first = visit(
            node, record: record, in: &top, work, poolXY, poolIDs, filled: &filled, then: &stack, threads: threads
          ) {
            order.append(.children(first))
          }
        }
      }
    }

    // 2. The subtrees on the threads, largest first, each thread taking the
    //    next where it has the least work (the records do not depend on it).
    var built = [[Int32]](repeating: [], count: subtrees.count)
    poolXY.withUnsafeMutableBufferPointer { poolXY in
      poolIDs.withUnsafeMutableBufferPointer { poolIDs in
        built.withUnsafeMutableBufferPointer { built in
          let shares = _sharesBySize(subtrees.map(\.node.count), threads: threads)
          _forEach(shares, threads: threads) { share in
            for s in share {
              var records = Array(Self.emptyChildren[0..<stride])
              records.reserveCapacity(stride * (2 * subtrees[s].node.count / capacity + 1))
              var filled = subtrees[s].poolStart
              var stack = [(record: 0, node: subtrees[s].node)]
              while let (record, node) = stack.popLast() {
                visit(node, record: record, in: &records, work, poolXY, poolIDs, filled: &filled, then: &stack)
              }
              built[s] = records
            }
          }
        }
      }
    }

    // 3. The records in one-thread order: the top's children where the top
    //    gave them records, each subtree's records (its root's aside) where
    //    its root was visited.
    var place = [Int](repeating: 0, count: top.count / stride)  // a top record's final record
    var start = [Int](repeating: 0, count: subtrees.count)  // where a subtree's second record goes
    var next = 1
    for step in order {
      switch step {
      case .children(let first):
        for c in 0..<4 { place[first &+ c] = next &+ c }
        next &+= 4
      case .subtree(let s):
        start[s] = next
        next &+= built[s].count / stride &- 1
      }
    }
    var records = [Int32](_uninitializedLarge: next * stride)  // every record written below
    for r in 0..<(top.count / stride) {
      let to = place[r] &* stride, from = r &* stride
      for f in 0..<stride { records[to &+ f] = top[from &+ f] }
      if top[from &+ Field.firstChild] >= 0 {
        records[to &+ Field.firstChild] = Int32(truncatingIfNeeded: place[Int(top[from &+ Field.firstChild])])
      }
    }
    for s in subtrees.indices {
      let local = built[s], shift = start[s] &- 1
      for r in 0..<(local.count / stride) {
        let to = (r == 0 ? place[subtrees[s].record] : shift &+ r) &* stride, from = r &* stride
        for f in 0..<stride { records[to &+ f] = local[from &+ f] }
        if local[from &+ Field.firstChild] >= 0 {
          records[to &+ Field.firstChild] = local[from &+ Field.firstChild] &+ Int32(truncatingIfNeeded: shift)
        }
      }
    }
    nodes = records
    coords = poolXY
    self.ids = poolIDs
    holeSlots = 0
    packed = true
  }

  /// The most points of a subtree that the bulk load leaves to a thread of
  /// its own: all of them on one thread or below 2^16 points; else an
  /// eighth of a thread's share (at least 2^14), so that on spread data
  /// there are eight or more subtrees a thread to share out (16 on two
  /// threads, after two levels of the top), and the top, visited on one
  /// thread, stays a small part of the work.
  static func bulkSubtreePoints(_ n: Int, threads: Int) -> Int {
    threads <= 1 || n < 1 << 16 ? n : Swift.max(1 << 14, n / (8 * threads))
  }

  /// Visits `node`, whose record is `record` in `records`: writes its
  /// bucket (its first `capacity` points, or all at a leaf) into the pool
  /// at `filled`, and, unless it is a leaf, partitions the rest into its
  /// quadrants, gives them four records at the end of `records` and puts
  /// them on `stack` to be visited next, in quadrant order; returns the
  /// first of those records.
  @inline(__always) @discardableResult
  func visit(
    _ node: _BulkNode, record: Int, in records: inout [Int32], _ work: _BulkWork,
    _ poolXY: UnsafeMutableBufferPointer<Double>, _ poolIDs: UnsafeMutableBufferPointer<Int32>,
    filled: inout Int, then stack: inout [(record: Int, node: _BulkNode)], threads: Int = 1
  ) -> Int? {
    let count = node.count
    let leaf = count <= capacity || node.level >= maxDepth
    let kept = leaf ? count : capacity
    let r = record &* Field.stride
    records[r &+ Field.bucketStart] = Int32(truncatingIfNeeded: filled)
    records[r &+ Field.bucketCount] = Int32(truncatingIfNeeded: kept)
    records[r &+ Field.bucketSlots] = Int32(truncatingIfNeeded: kept)
    // a node reads its range from the copy of its level's parity and
    // partitions the rest into the other one, the same positions, so no
    // pass copies back (the root reads copy 0)
    let source = ((node.level &- 1) & 1) &* work.count, target = work.count &- source
    let x = work.xs + source, y = work.ys + source, id = work.ids + source
    for i in node.lo..<(node.lo &+ kept) {
      poolXY[2 &* filled] = x[i]
      poolXY[2 &* filled &+ 1] = y[i]
      poolIDs[filled] = id[i]
      filled &+= 1
    }
    if leaf { return nil }
    let first = records.count / Field.stride
    records[r &+ Field.firstChild] = Int32(truncatingIfNeeded: first)
    records.append(contentsOf: Self.emptyChildren)
    // the rest, stably into quadrants 0...3: counted, then scattered, in
    // chunks on the threads for a large node (each chunk's points after
    // the chunks before it in each quadrant: the one-thread partition)
    let c = Self.center(of: node.box)
    let from = node.lo &+ kept, rest = node.hi &- from
    let into = (x: work.xs + target, y: work.ys + target, id: work.ids + target)
    let starts: SIMD4<Int>
    if threads > 1 && rest >= 1 << 17 {
      let counts = _mapChunks(of: rest, parts: 16, minimum: 1 << 16, threads: threads) { chunk in
        work.quadrants(from &+ chunk.lowerBound..<from &+ chunk.upperBound, x, y, center: c)
      }
      starts = Self.runStarts(from: from, counts: counts.reduce(SIMD4(), &+))
      var chunkStarts = counts, at = starts
      for k in counts.indices {
        chunkStarts[k] = at
        at &+= counts[k]
      }
      _forEachNumberedChunk(of: rest, parts: 16, minimum: 1 << 16, threads: threads) { k, chunk in
        work.scatter(from &+ chunk.lowerBound..<from &+ chunk.upperBound, (x, y, id), into, starting: chunkStarts[k])
      }
    } else {
      starts = Self.runStarts(from: from, counts: work.quadrants(from..<node.hi, x, y, center: c))
      work.scatter(from..<node.hi, (x, y, id), into, starting: starts)
    }
    // popped in quadrant order
    let level = node.level &+ 1
    stack.append((first &+ 3, _BulkNode(lo: starts[3], hi: node.hi, box: Self.quadrantBox(node.box, c, 3), level: level)))
    stack.append((first &+ 2, _BulkNode(lo: starts[2], hi: starts[3], box: Self.quadrantBox(node.box, c, 2), level: level)))
    stack.append((first &+ 1, _BulkNode(lo: starts[1], hi: starts[2], box: Self.quadrantBox(node.box, c, 1), level: level)))
    stack.append((first, _BulkNode(lo: starts[0], hi: starts[1], box: Self.quadrantBox(node.box, c, 0), level: level)))
    return first
  }
}

extension BucketQuadtree {
  /// Where each quadrant's run starts, the runs in quadrant order from `from`.
  @inline(__always)
  static func runStarts(from: Int, counts: SIMD4<Int>) -> SIMD4<Int> {
    SIMD4(from, from &+ counts[0], from &+ counts[0] &+ counts[1], from &+ counts[0] &+ counts[1] &+ counts[2])
  }
}

/// A node of the bulk load still to visit: its points' range in the work
/// copies, its box and its level (the root is 1).
struct _BulkNode {
  var lo: Int
  var hi: Int
  var box: Rect
  var level: Int
  var count: Int { hi &- lo }
}

/// A step of the one-thread visit order, as the top of a bulk load records
/// it: a node's four children given records (the first of them), or a
/// subtree built apart.
enum _BulkStep {
  case children(Int)
  case subtree(Int)
}

/// Two copies of the points (x, y, id) and each point's quadrant: a node
/// reads its range from one copy and partitions into the other. Ranges of
/// one level are disjoint, and a child's lies inside its parent's, so the
/// subtrees of a bulk load share these on their threads.
struct _BulkWork: @unchecked Sendable {
  let count: Int
  let xs: UnsafeMutablePointer<Double>
  let ys: UnsafeMutablePointer<Double>
  let ids: UnsafeMutablePointer<Int32>
  let quads: UnsafeMutablePointer<UInt8>

  init(_ points: [Point], threads: Int) {
    count = points.count
    let n = max(1, count)
    xs = .allocate(capacity: 2 * n)
    ys = .allocate(capacity: 2 * n)
    ids = .allocate(capacity: 2 * n)
    quads = .allocate(capacity: n)
    _adviseHugePages(UnsafeMutableRawBufferPointer(start: xs, count: 2 * n * MemoryLayout<Double>.stride))
    _adviseHugePages(UnsafeMutableRawBufferPointer(start: ys, count: 2 * n * MemoryLayout<Double>.stride))
    _adviseHugePages(UnsafeMutableRawBufferPointer(start: ids, count: 2 * n * MemoryLayout<Int32>.stride))
    _adviseHugePages(UnsafeMutableRawBufferPointer(start: quads, count: n))
    let work = self
    points.withUnsafeBufferPointer { points in
      _forEachChunk(of: points.count, threads: threads) { chunk in
        for i in chunk {
          work.xs[i] = points[i].x
          work.ys[i] = points[i].y
          work.ids[i] = Int32(truncatingIfNeeded: i)
        }
      }
    }
  }

  /// Each point's quadrant around `center` (bit 0 east, bit 1 north) into
  /// ``quads``, and how many points fall in each quadrant, counted without
  /// a store a point (a dynamic lane of a vector went through memory, 40%
  /// of the time).
  @inline(__always)
  func quadrants(
    _ range: Range<Int>, _ x: UnsafeMutablePointer<Double>, _ y: UnsafeMutablePointer<Double>, center c: Point
  ) -> SIMD4<Int> {
    var west = 0, south = 0, southWest = 0
    for i in range {
      let east = x[i] < c.x ? 0 : 1, north = y[i] < c.y ? 0 : 2
      quads[i] = UInt8(truncatingIfNeeded: east | north)
      let isWest = 1 &- east, isSouth = 1 &- (north >> 1)
      west &+= isWest
      south &+= isSouth
      southWest &+= isWest & isSouth
    }
    return SIMD4(southWest, south &- southWest, west &- southWest, range.count &- south &- west &+ southWest)
  }

  /// Moves the points of `range` to their quadrants' runs in the other
  /// copy, quadrant `q`'s next at `next[q]`, in order.
  @inline(__always)
  func scatter(
    _ range: Range<Int>,
    _ from: (x: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>, id: UnsafeMutablePointer<Int32>),
    _ to: (x: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>, id: UnsafeMutablePointer<Int32>),
    starting next: SIMD4<Int>
  ) {
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 4) { place in  // each quadrant's next place
      for q in 0..<4 { place[q] = next[q] }
      for i in range {  // no branch a point: quadrants of spread data are random
        let q = Int(quads[i])
        let k = place[q]
        place[q] = k &+ 1
        to.x[k] = from.x[i]
        to.y[k] = from.y[i]
        to.id[k] = from.id[i]
      }
    }
  }

  func deallocate() {
    xs.deallocate()
    ys.deallocate()
    ids.deallocate()
    quads.deallocate()
  }
}
