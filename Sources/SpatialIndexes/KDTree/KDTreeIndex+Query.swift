extension KDTreeIndex {
  @inlinable @discardableResult
  public func forEach<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool
  ) -> Bool {
    withoutActuallyEscaping(visit) { visit in
      var sink = _VisitSink(visit)
      return search(rect, &counters, &sink)
    }
  }

  @inlinable
  public func query<C: QueryCounters>(
    in rect: Rect, into ids: inout [Int32], counters: inout C
  ) {
    var sink = _AppendSink([])
    swap(&sink.ids, &ids)
    search(rect, &counters, &sink)
    swap(&sink.ids, &ids)
  }

  @inlinable
  public func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int {
    var sink = _CountSink()
    search(rect, &counters, &sink)
    return sink.count
  }

  /// Hands whole subtrees to `visitor` as runs of ``groupOrder`` when it
  /// accepts their box (the subtree's region, bounded by its ancestors'
  /// split lines and the data's bounds).
  @inlinable
  public func forEachGroup<C: QueryCounters, V: GroupVisitor>(
    in rect: Rect, counters: inout C, _ visitor: inout V
  ) {
    var sink = _GroupSink(visitor)
    search(rect, &counters, &sink)
    visitor = sink.visitor
  }

  /// The ids as stored: split points, then leaf points (see the type's doc).
  @inlinable public var groupOrder: [Int32] { ids }

  /// One node of the walk: where its split points and leaf points start,
  /// its size, its number of split points, its split axis and its box.
  @usableFromInline
  struct _Frame {
    @usableFromInline var split: Int32
    @usableFromInline var leaf: Int32
    @usableFromInline var size: Int32
    @usableFromInline var splits: Int32
    @usableFromInline var axis: Int32
    @usableFromInline var box: Rect

    @inlinable @inline(__always)
    init(split: Int, leaf: Int, size: Int, splits: Int, axis: Int32, box: Rect) {
      self.split = Int32(truncatingIfNeeded: split)
      self.leaf = Int32(truncatingIfNeeded: leaf)
      self.size = Int32(truncatingIfNeeded: size)
      self.splits = Int32(truncatingIfNeeded: splits)
      self.axis = axis
      self.box = box
    }
  }

  /// Depth-first walk with an explicit stack. Each pop pushes at most two
  /// frames, one of which is popped next, so the stack never holds more than
  /// the depth plus one; the depth is at most 33 for 32-bit ids (a left
  /// subtree halves at least, a right one is never larger). The stack is an
  /// `InlineArray` on the call stack: a query allocates nothing.
  @inlinable @discardableResult
  func search<C: QueryCounters, S: _IDSink>(
    _ rect: Rect, _ counters: inout C, _ sink: inout S
  ) -> Bool {
    guard rect.isValid, !ids.isEmpty else { return true }
    let nodeSize = parameters.nodeSize
    return coords.withUnsafeBufferPointer { coords in
      ids.withUnsafeBufferPointer { ids in
        var stack = InlineArray<40, _Frame>(
          repeating: _Frame(
            split: 0, leaf: splitCount, size: ids.count, splits: splitCount, axis: 0, box: bounds))
        var top = 1
        while top > 0 {
          top &-= 1
          let f = stack[top]
          let split = Int(f.split), leaf = Int(f.leaf), size = Int(f.size), splits = Int(f.splits)
          counters.visitNodes(1)
          if rect.contains(f.box) && sink.takesWhole(f.box) {  // the whole subtree: two runs of ids
            counters.reportPoints(size)
            if splits > 0,
               !sink.takeRun(UnsafeBufferPointer(rebasing: ids[split..<(split &+ splits)]), from: split) {
              return false
            }
            let leafEnd = leaf &+ size &- splits
            if !sink.takeRun(UnsafeBufferPointer(rebasing: ids[leaf..<leafEnd]), from: leaf) {
              return false
            }
            continue
          }
          if size <= nodeSize {  // a leaf: test each point
            counters.testPoints(size)
            // A grouping sink gets a leaf whole when its points' own box
            // (tighter than the leaf's region) is inside and accepted.
            if S.groupsLeaves {
              var box = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
              for i in leaf..<(leaf &+ size) {
                let x = coords[2 &* i], y = coords[2 &* i &+ 1]
                box.minX = min(box.minX, x)
                box.maxX = max(box.maxX, x)
                box.minY = min(box.minY, y)
                box.maxY = max(box.maxY, y)
              }
              if rect.contains(box) && sink.takesWhole(box) {
                counters.reportPoints(size)
                if !sink.takeRun(UnsafeBufferPointer(rebasing: ids[leaf..<(leaf &+ size)]), from: leaf) {
                  return false
                }
                continue
              }
            }
            for i in leaf..<(leaf &+ size)
            where rect.contains(x: coords[2 &* i], y: coords[2 &* i &+ 1]) {
              counters.reportPoints(1)
              if !sink.take(ids[i], at: i) { return false }
            }
            continue
          }
          counters.testPoints(1)
          let x = coords[2 &* split], y = coords[2 &* split &+ 1]
          if rect.contains(x: x, y: y) {
            counters.reportPoints(1)
            if !sink.take(ids[split], at: split) { return false }
          }
          let l = Self._leftShape(size: size, nodeSize: nodeSize)
          let rightSize = size &- 1 &- l.points
          let v = f.axis == 0 ? x : y
          var low = f.box, high = f.box
          let goLow: Bool, goHigh: Bool
          if f.axis == 0 {
            low.maxX = v
            high.minX = v
            goLow = rect.minX <= v
            goHigh = rect.maxX >= v
          } else {
            low.maxY = v
            high.minY = v
            goLow = rect.minY <= v
            goHigh = rect.maxY >= v
          }
          let next: Int32 = 1 &- f.axis
          // Right first, so the left subtree is walked first.
          if goHigh && rightSize > 0 {
            stack[top] = _Frame(
              split: split &+ 1 &+ l.splits, leaf: leaf &+ l.points &- l.splits, size: rightSize,
              splits: splits &- 1 &- l.splits, axis: next, box: high)
            top &+= 1
          }
          if goLow {
            stack[top] = _Frame(
              split: split &+ 1, leaf: leaf, size: l.points, splits: l.splits, axis: next, box: low)
            top &+= 1
          }
        }
        return true
      }
    }
  }
}
