import _SpatialIndexesShims

extension HilbertRTree: _SinkGrouping {
  /// The ids in Hilbert order, as stored.
  @inlinable package var groupOrder: [Int32] { ids }
  @inlinable package var groupCoordinates: _FlatArray<Double> { coords }

  /// One level of the walk: up to 64 children of one node, as node
  /// numbers of `level` from `base`, and of those the ones whose boxes meet
  /// the rectangle and are not yet looked at (`mask`); a node of more than
  /// 64 children goes on from `base + 64` up to `end`.
  @usableFromInline
  struct _Frame {
    @usableFromInline var mask: UInt64
    @usableFromInline var level: Int32
    @usableFromInline var base: Int32
    @usableFromInline var end: Int32

    @inlinable @inline(__always)
    init(level: Int, base: Int, end: Int, mask: UInt64) {
      self.mask = mask
      self.level = Int32(truncatingIfNeeded: level)
      self.base = Int32(truncatingIfNeeded: base)
      self.end = Int32(truncatingIfNeeded: end)
    }
  }

  /// The walk's path from the root, one frame a level, on the call stack:
  /// a query allocates nothing. There are at most 31 levels (2^31 points,
  /// two children a node at least).
  @usableFromInline
  struct _Path {
    @usableFromInline var frames: _Stack40<_Frame>
    @usableFromInline var depth: Int

    /// The path at the root, the one node of level `top`, which the
    /// rectangle meets or not.
    @inlinable @inline(__always)
    init(top: Int, meetsRoot: Bool) {
      frames = _Stack40(repeating: _Frame(level: top, base: 0, end: 1, mask: meetsRoot ? 1 : 0))
      depth = 1
    }
  }

  /// Depth first: a node whose box lies inside the rectangle is taken as
  /// its run of points, a leaf cut by the rectangle has its points tested,
  /// an internal node cut by it is descended into.
  @inlinable @discardableResult
  func search<C: QueryCounters, S: _IDSink>(
    _ rect: Rect, _ counters: inout C, _ sink: inout S, _ visit: _Visit = _noVisit
  ) -> Bool {
    guard rect.isValid, !ids.isEmpty else { return true }
    // The closures are written here, not passed through a helper: a closure
    // handed down through five others stayed a call, not inlined, and its
    // walk read the pointers from memory at every node (2.4% more
    // instructions).
    return coords.withUnsafeBufferPointer { xy in
      ids.withUnsafeBufferPointer { ids in
        boxes.withUnsafeBufferPointer { boxes in
          levelStarts.withUnsafeBufferPointer { starts in
            spans.withUnsafeBufferPointer { spans in
              _Storage(xy: xy, ids: ids, boxes: boxes, levelStarts: starts, spans: spans, nodeSize: parameters.nodeSize)
                .search(rect, &counters, &sink, visit)
            }
          }
        }
      }
    }
  }
}

extension HilbertRTree._Storage {
  /// The walk of ``HilbertRTree/search(_:_:_:_:)`` over the arrays.
  ///
  /// A node's children have their boxes side by side in
  /// ``HilbertRTree/boxes``, so they are tested in one loop when the walk
  /// goes down to them (flatbush's order), and the frame keeps a bit for
  /// each child the rectangle meets. A node of level 1 does not go down a
  /// frame a leaf: its cut leaves' points are prefetched, then each leaf is
  /// taken or scanned (``searchLeaves(_:_:_:_:_:)``). The ids come in
  /// depth-first order, and the counters count every child tested, as a
  /// walk that tests each child when it gets to it.
  @usableFromInline @_transparent
  func search<C: QueryCounters, S: _IDSink>(
    _ rect: Rect, _ counters: inout C, _ sink: inout S, _ visit: _Visit
  ) -> Bool {
    let top = levelCount &- 1
    counters.visitNodes(1)
    var path = HilbertRTree._Path(top: top, meetsRoot: rect.intersects(box(level: top, node: 0)))
    while path.depth > 0 {
      var f = path.frames[path.depth &- 1]
      if f.mask == 0 {
        if f.end &- f.base > 64 {  // the node's next 64 children
          f.base &+= 64
          f.mask = meeting(rect, level: Int(f.level), Int(f.base)..<Int(f.end), &counters)
          path.frames[path.depth &- 1] = f
        } else {
          path.depth &-= 1
        }
        continue
      }
      let node = Int(f.base) &+ f.mask.trailingZeroBitCount
      f.mask &= f.mask &- 1
      path.frames[path.depth &- 1] = f
      let level = Int(f.level)
      let box = self.box(level: level, node: node)
      let points = self.points(level: level, node: node)
      if rect.contains(box) && sink.takesWhole(box) {
        counters.reportPoints(points.count)
        let run = UnsafeBufferPointer(start: ids + points.lowerBound, count: points.count)
        guard sink.takeRun(run, from: points.lowerBound, visit) else { return false }
      } else if level == 0 {
        counters.testPoints(points.count)
        let (taken, goOn) = sink.takeInside(rect, xy, ids, points, visit)
        counters.reportPoints(taken)
        guard goOn else { return false }
      } else if level == 1 {
        guard searchLeaves(children(level: 1, node: node), rect, &counters, &sink, visit) else { return false }
      } else {
        let below = children(level: level, node: node)
        let mask = meeting(rect, level: level &- 1, below, &counters)
        path.frames[path.depth] = HilbertRTree._Frame(
          level: level &- 1, base: below.lowerBound, end: below.upperBound, mask: mask)
        path.depth &+= 1
      }
    }
    return true
  }

  /// Which of the first 64 nodes of `level` at `nodes` the rectangle
  /// meets, a bit each: their boxes lie side by side, so one loop tests
  /// them all (flatbush's order).
  @inlinable @inline(__always)
  func meeting<C: QueryCounters>(_ rect: Rect, level: Int, _ nodes: Range<Int>, _ counters: inout C) -> UInt64 {
    let end = Swift.min(nodes.upperBound, nodes.lowerBound &+ 64)
    counters.visitNodes(end &- nodes.lowerBound)
    let b = boxes + 4 &* (levelStarts[level] &+ nodes.lowerBound)
    var mask: UInt64 = 0
    for k in 0..<(end &- nodes.lowerBound) {
      let box = b + 4 &* k
      let meets = box[0] <= rect.maxX && box[2] >= rect.minX && box[1] <= rect.maxY && box[3] >= rect.minY
      mask |= (meets ? 1 : 0) << UInt64(k)
    }
    return mask
  }

  /// The leaves `leaves` (the children of one node of level 1), in order,
  /// 64 at a time: a first pass tests their boxes and prefetches the points
  /// of those the rectangle cuts, so their loads overlap; a second takes
  /// each leaf inside whole and scans each leaf cut.
  @inlinable @inline(__always)
  func searchLeaves<C: QueryCounters, S: _IDSink>(
    _ leaves: Range<Int>, _ rect: Rect, _ counters: inout C, _ sink: inout S, _ visit: _Visit
  ) -> Bool {
    let span = spans[0]
    var first = leaves.lowerBound
    while first < leaves.upperBound {
      let end = Swift.min(first &+ 64, leaves.upperBound)
      counters.visitNodes(end &- first)
      var cut: UInt64 = 0, inside: UInt64 = 0
      for leaf in first..<end {
        let b = boxes + 4 &* leaf
        let box = Rect(minX: b[0], minY: b[1], maxX: b[2], maxY: b[3])
        guard rect.intersects(box) else { continue }
        let bit: UInt64 = 1 << UInt64(leaf &- first)
        if rect.contains(box) {
          inside |= bit
        } else {
          cut |= bit
          let start = leaf &* span, stop = Swift.min(pointCount, start &+ span)
          var i = start
          while i < stop {  // 4 points a 64-byte line
            _spatialPrefetch(xy + 2 &* i)
            i &+= 4
          }
          _spatialPrefetch(ids + start)
        }
      }
      var met = cut | inside
      while met != 0 {
        let k = met.trailingZeroBitCount
        met &= met &- 1
        let leaf = first &+ k
        let start = leaf &* span
        let points = Range(uncheckedBounds: (start, Swift.min(pointCount, start &+ span)))
        if inside & (1 << UInt64(k)) != 0 && sink.takesWhole(box(level: 0, node: leaf)) {
          counters.reportPoints(points.count)
          let run = UnsafeBufferPointer(start: ids + points.lowerBound, count: points.count)
          guard sink.takeRun(run, from: points.lowerBound, visit) else { return false }
        } else {
          counters.testPoints(points.count)
          let (taken, goOn) = sink.takeInside(rect, xy, ids, points, visit)
          counters.reportPoints(taken)
          guard goOn else { return false }
        }
      }
      first = end
    }
    return true
  }
}
