import _SpatialIndexesShims

extension KDTreeIndex: _SinkGrouping {
  /// The ids as stored: split points, then leaf points (see the type's doc).
  @inlinable public var groupOrder: [Int32] { ids }
  @inlinable public var groupCoordinates: [Double] { coords }

  /// One node of the walk: where its split points and leaf points start,
  /// its size, its number of split points, and in `state` its split axis
  /// (bit 4) and which edges of its box lie inside the rectangle (bits 0–3:
  /// minX, maxX, minY, maxY), so containment is one compare. 20 bytes, where
  /// one holding its `Rect` took 56.
  @usableFromInline
  struct _Frame {
    @usableFromInline var split: Int32
    @usableFromInline var leaf: Int32
    @usableFromInline var size: Int32
    @usableFromInline var splits: Int32
    @usableFromInline var state: Int32

    @inlinable @inline(__always)
    init(split: Int, leaf: Int, size: Int, splits: Int, state: Int32) {
      self.split = Int32(truncatingIfNeeded: split)
      self.leaf = Int32(truncatingIfNeeded: leaf)
      self.size = Int32(truncatingIfNeeded: size)
      self.splits = Int32(truncatingIfNeeded: splits)
      self.state = state
    }
  }

  /// Depth-first walk with an explicit stack. Each pop pushes at most two
  /// frames, one of which is popped next, so the stack never holds more than
  /// the depth plus one; the depth is at most 33 for 32-bit ids (a left
  /// subtree halves at least, a right one is never larger). The stack is an
  /// fixed-size stack (``_FixedStack``) on the call stack: a query allocates nothing.
  ///
  /// A node's box (its region: the data's bounds cut by its ancestors'
  /// split lines) is not kept, only which of its four edges lie inside the
  /// rectangle: a child's new edge is its parent's split line, inside
  /// exactly when the query goes to the other side too. A grouping sink,
  /// whose visitor judges boxes, gets them from a second stack that other
  /// sinks never read (the compiler drops it).
  ///
  /// Memory, not arithmetic, bounds a query over 1M points: a leaf's points
  /// are rarely in cache. So the walk does not scan a leaf when it reaches
  /// it: it prefetches the leaf's coordinates and ids and queues it, and
  /// scans the queue when it is full or the walk is over, by which time the
  /// loads have overlapped instead of following one another. A right child,
  /// whose split point lies far from its parent's in pre-order, is
  /// prefetched when pushed. Ids of split points and whole subtrees are
  /// reported as the walk meets them, leaves' ids after: the order differs
  /// from a plain depth-first one, the set does not.
  @inlinable @discardableResult
  func search<C: QueryCounters, S: _IDSink>(
    _ rect: Rect, _ counters: inout C, _ sink: inout S, _ visit: _Visit = _noVisit
  ) -> Bool {
    guard rect.isValid, !ids.isEmpty else { return true }
    let nodeSize = parameters.nodeSize
    let rootState: Int32 =
      (bounds.minX >= rect.minX ? 1 : 0) | (bounds.maxX <= rect.maxX ? 2 : 0)
      | (bounds.minY >= rect.minY ? 4 : 0) | (bounds.maxY <= rect.maxY ? 8 : 0)
    return coords.withUnsafeBufferPointer { coords in
      ids.withUnsafeBufferPointer { ids in
        // Positions below are proven in range by the tree's shape (the
        // invariant checker verifies it), so raw pointers skip the checks.
        let xy = coords.baseAddress!, idp = ids.baseAddress!

        // Scans one leaf; false when the sink stops.
        func scan(_ leaf: Int, _ size: Int) -> Bool {
          counters.testPoints(size)
          // A grouping sink gets a leaf whole when its points' own box
          // (tighter than the leaf's region) is inside and accepted.
          if S.groupsLeaves {
            var box = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            for i in leaf..<(leaf &+ size) {
              let x = xy[2 &* i], y = xy[2 &* i &+ 1]
              box.minX = min(box.minX, x)
              box.maxX = max(box.maxX, x)
              box.minY = min(box.minY, y)
              box.maxY = max(box.maxY, y)
            }
            if rect.contains(box) && sink.takesWhole(box) {
              counters.reportPoints(size)
              return sink.takeRun(UnsafeBufferPointer(start: idp + leaf, count: size), from: leaf, visit)
            }
          }
          let (taken, goOn) = sink.takeInside(rect, xy, idp, leaf..<(leaf &+ size), visit)
          counters.reportPoints(taken)
          return goOn
        }

        // Leaves met but not scanned yet, their lines prefetched; 8 to 32
        // measured alike (a 1e-4 query meets about 5).
        var waiting = _Stack16<(leaf: Int32, size: Int32)>(repeating: (0, 0))
        var waitingCount = 0
        func scanWaiting() -> Bool {
          for k in 0..<waitingCount where !scan(Int(waiting[k].leaf), Int(waiting[k].size)) {
            return false
          }
          waitingCount = 0
          return true
        }

        var stack = _Stack40<_Frame>(
          repeating: _Frame(split: 0, leaf: splitCount, size: ids.count, splits: splitCount, state: rootState))
        var boxes = _Stack40<Rect>(repeating: bounds)
        var top = 1
        while top > 0 {
          top &-= 1
          let f = stack[top]
          let split = Int(f.split), leaf = Int(f.leaf), size = Int(f.size), splits = Int(f.splits)
          let state = f.state
          counters.visitNodes(1)
          if state & 15 == 15 && (!S.groupsLeaves || sink.takesWhole(boxes[top])) {
            // the whole subtree: two runs of ids
            counters.reportPoints(size)
            if splits > 0,
               !sink.takeRun(UnsafeBufferPointer(start: idp + split, count: splits), from: split, visit) {
              return false
            }
            let leafCount = size &- splits
            if !sink.takeRun(
              UnsafeBufferPointer(start: idp + leaf, count: leafCount), from: leaf, visit) {
              return false
            }
            continue
          }
          if size <= nodeSize {  // a leaf: fetch it now, scan it later
            var i = leaf
            while i < leaf &+ size {  // 4 points a 64-byte line
              _spatialPrefetch(xy + 2 &* i)
              i &+= 4
            }
            i = leaf
            while i < leaf &+ size {  // 16 ids a line
              _spatialPrefetch(idp + i)
              i &+= 16
            }
            waiting[waitingCount] = (Int32(truncatingIfNeeded: leaf), Int32(truncatingIfNeeded: size))
            waitingCount &+= 1
            if waitingCount == waiting.count && !scanWaiting() { return false }
            continue
          }
          counters.testPoints(1)
          let x = xy[2 &* split], y = xy[2 &* split &+ 1]
          if rect.contains(x: x, y: y) {
            counters.reportPoints(1)
            if !sink.take(idp[split], at: split, visit) { return false }
          }
          let l = Self._leftShape(size: size, nodeSize: nodeSize)
          let rightSize = size &- 1 &- l.points
          let onY = state & 16 != 0
          let v = onY ? y : x
          let goLow = (onY ? rect.minY : rect.minX) <= v
          let goHigh = (onY ? rect.maxY : rect.maxX) >= v
          // The low child's new edge (maxX or maxY) is v: inside when the
          // query reaches past v; the high child's (minX or minY) likewise.
          let shift: Int32 = onY ? 2 : 0
          let next = state ^ 16
          let box = boxes[top]
          // Right first, so the left subtree is walked first.
          if goHigh && rightSize > 0 {
            let rightSplit = split &+ 1 &+ l.splits
            _spatialPrefetch(xy + 2 &* rightSplit)
            stack[top] = _Frame(
              split: rightSplit, leaf: leaf &+ l.points &- l.splits, size: rightSize,
              splits: splits &- 1 &- l.splits, state: next | ((goLow ? 1 : 0) << shift))
            if S.groupsLeaves {
              var high = box
              if onY { high.minY = v } else { high.minX = v }
              boxes[top] = high
            }
            top &+= 1
          }
          if goLow {  // its split point follows its parent's: no prefetch
            stack[top] = _Frame(
              split: split &+ 1, leaf: leaf, size: l.points, splits: l.splits,
              state: next | ((goHigh ? 2 : 0) << shift))
            if S.groupsLeaves {
              var low = box
              if onY { low.maxY = v } else { low.maxX = v }
              boxes[top] = low
            }
            top &+= 1
          }
        }
        return scanWaiting()
      }
    }
  }
}
