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

  /// One node of the walk: a range of the arrays, its split axis and its box.
  @usableFromInline
  struct _Frame {
    @usableFromInline var left: Int32
    @usableFromInline var right: Int32
    @usableFromInline var axis: Int32
    @usableFromInline var box: Rect

    @inlinable @inline(__always)
    init(_ left: Int, _ right: Int, _ axis: Int32, _ box: Rect) {
      self.left = Int32(truncatingIfNeeded: left)
      self.right = Int32(truncatingIfNeeded: right)
      self.axis = axis
      self.box = box
    }
  }

  /// Depth-first walk with an explicit stack. Each pop pushes at most two
  /// frames, one of which is popped next, so the stack never holds more than
  /// the depth plus one: at most 33 frames, since ids are 32-bit. The stack is
  /// an `InlineArray` on the call stack: a query allocates nothing
  /// (`withUnsafeTemporaryAllocation` of this size went to the heap).
  @inlinable @discardableResult
  func search<C: QueryCounters, S: _IDSink>(
    _ rect: Rect, _ counters: inout C, _ sink: inout S
  ) -> Bool {
    guard rect.isValid, !ids.isEmpty else { return true }
    let nodeSize = parameters.nodeSize
    return coords.withUnsafeBufferPointer { coords in
      ids.withUnsafeBufferPointer { ids in
        var stack = InlineArray<36, _Frame>(repeating: _Frame(0, ids.count - 1, 0, bounds))
        var top = 1
        do {
          while top > 0 {
            top &-= 1
            let f = stack[top]
            let left = Int(f.left), right = Int(f.right)
            counters.visitNodes(1)
            if rect.contains(f.box) {  // the whole subtree is inside
              counters.reportPoints(right &- left &+ 1)
              if !sink.takeAll(UnsafeBufferPointer(rebasing: ids[left...right])) { return false }
              continue
            }
            if right &- left <= nodeSize {  // a leaf: test each point
              counters.testPoints(right &- left &+ 1)
              for i in left...right where rect.contains(x: coords[2 &* i], y: coords[2 &* i &+ 1]) {
                counters.reportPoints(1)
                if !sink.take(ids[i]) { return false }
              }
              continue
            }
            let m = (left &+ right) >> 1
            counters.testPoints(1)
            if rect.contains(x: coords[2 &* m], y: coords[2 &* m &+ 1]) {
              counters.reportPoints(1)
              if !sink.take(ids[m]) { return false }
            }
            // Right child first, so the left one is walked first (ascending memory).
            var low = f.box, high = f.box
            if f.axis == 0 {
              let v = coords[2 &* m]
              low.maxX = v
              high.minX = v
              if rect.maxX >= v { stack[top] = _Frame(m &+ 1, right, 1, high); top &+= 1 }
              if rect.minX <= v { stack[top] = _Frame(left, m &- 1, 1, low); top &+= 1 }
            } else {
              let v = coords[2 &* m &+ 1]
              low.maxY = v
              high.minY = v
              if rect.maxY >= v { stack[top] = _Frame(m &+ 1, right, 0, high); top &+= 1 }
              if rect.minY <= v { stack[top] = _Frame(left, m &- 1, 0, low); top &+= 1 }
            }
          }
          return true
        }
      }
    }
  }
}
