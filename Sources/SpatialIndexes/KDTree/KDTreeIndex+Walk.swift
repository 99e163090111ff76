import _SpatialIndexesShims

extension KDTreeIndex {
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

    /// The root of a tree of `count` points and `splitCount` split points,
    /// within `bounds`, for a query of `rect`.
    @inlinable @inline(__always)
    init(root count: Int, splitCount: Int, bounds: Rect, rect: Rect) {
      let state: Int32 =
        (bounds.minX >= rect.minX ? 1 : 0) | (bounds.maxX <= rect.maxX ? 2 : 0)
        | (bounds.minY >= rect.minY ? 4 : 0) | (bounds.maxY <= rect.maxY ? 8 : 0)
      self.init(split: 0, leaf: splitCount, size: count, splits: splitCount, state: state)
    }

    /// All four edges of the node's box lie inside the rectangle.
    @inlinable @inline(__always)
    var isInside: Bool { state & 15 == 15 }
  }

  /// The walk's frames, on the call stack: a query allocates nothing.
  ///
  /// Each pop pushes at most two frames, one of which is popped next, so
  /// the stack never holds more than the depth plus one. The depth is at
  /// most 33 for 32-bit ids (a left subtree halves at least, a right one is
  /// never larger).
  ///
  /// A node's box is kept only as which of its edges lie inside the
  /// rectangle. A grouping sink, whose visitor judges boxes, gets them from
  /// `boxes`, which other sinks never read (the compiler drops it).
  @usableFromInline
  struct _WalkStack {
    @usableFromInline var frames: _Stack40<_Frame>
    @usableFromInline var boxes: _Stack40<Rect>
    @usableFromInline var top: Int

    @inlinable @inline(__always)
    init(_ root: _Frame, box: Rect) {
      frames = _Stack40(repeating: root)
      boxes = _Stack40(repeating: box)
      top = 1
    }

    @inlinable @inline(__always)
    var isEmpty: Bool { top == 0 }

    /// The newest frame and its box.
    @inlinable @inline(__always)
    mutating func pop() -> (frame: _Frame, box: Rect) {
      top &-= 1
      return (frames[top], boxes[top])
    }

    /// Pushes the children of `f` that the rectangle reaches, given its
    /// split point (`x`, `y`) and its box. The right child goes first, so
    /// the left subtree is walked first.
    ///
    /// A child's new edge is its parent's split line. It lies inside the
    /// rectangle exactly when the query goes to the other side too.
    @inlinable @inline(__always)
    mutating func pushChildren(
      of f: _Frame, x: Double, y: Double, box: Rect, _ rect: Rect, nodeSize: Int,
      _ xy: UnsafePointer<Double>, keepsBoxes: Bool
    ) {
      let split = Int(f.split), leaf = Int(f.leaf), size = Int(f.size), splits = Int(f.splits)
      let l = KDTreeIndex._leftShape(size: size, nodeSize: nodeSize)
      let rightSize = size &- 1 &- l.points
      let onY = f.state & 16 != 0
      let v = onY ? y : x
      let goLow = (onY ? rect.minY : rect.minX) <= v
      let goHigh = (onY ? rect.maxY : rect.maxX) >= v
      // The low child's new edge (maxX or maxY) is v: inside when the
      // query reaches past v; the high child's (minX or minY) likewise.
      let shift: Int32 = onY ? 2 : 0
      let next = f.state ^ 16
      if goHigh && rightSize > 0 {
        // Its split point lies far from its parent's in pre-order.
        let rightSplit = split &+ 1 &+ l.splits
        _spatialPrefetch(xy + 2 &* rightSplit)
        frames[top] = _Frame(
          split: rightSplit, leaf: leaf &+ l.points &- l.splits, size: rightSize,
          splits: splits &- 1 &- l.splits, state: next | ((goLow ? 1 : 0) << shift))
        if keepsBoxes {
          var high = box
          if onY { high.minY = v } else { high.minX = v }
          boxes[top] = high
        }
        top &+= 1
      }
      if goLow {  // its split point follows its parent's: no prefetch
        frames[top] = _Frame(
          split: split &+ 1, leaf: leaf, size: l.points, splits: l.splits,
          state: next | ((goHigh ? 2 : 0) << shift))
        if keepsBoxes {
          var low = box
          if onY { low.maxY = v } else { low.maxX = v }
          boxes[top] = low
        }
        top &+= 1
      }
    }
  }

  /// Hands the sink a subtree inside the rectangle: two runs of ids, its
  /// split points' and its leaves'. False when the sink stops.
  @inlinable @inline(__always)
  static func takeSubtree<C: QueryCounters, S: _IDSink>(
    _ f: _Frame, _ ids: UnsafePointer<Int32>, _ counters: inout C, _ sink: inout S, _ visit: _Visit
  ) -> Bool {
    let split = Int(f.split), leaf = Int(f.leaf), size = Int(f.size), splits = Int(f.splits)
    counters.reportPoints(size)
    if splits > 0,
       !sink.takeRun(UnsafeBufferPointer(start: ids + split, count: splits), from: split, visit) {
      return false
    }
    return sink.takeRun(UnsafeBufferPointer(start: ids + leaf, count: size &- splits), from: leaf, visit)
  }

  /// Scans the leaf of `size` points at `start`. False when the sink stops.
  ///
  /// A grouping sink gets the leaf whole when its points' own box (tighter
  /// than the leaf's region) is inside and accepted.
  @inlinable @inline(__always)
  static func scanLeaf<C: QueryCounters, S: _IDSink>(
    _ start: Int, _ size: Int, _ rect: Rect, _ xy: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>,
    _ counters: inout C, _ sink: inout S, _ visit: _Visit
  ) -> Bool {
    counters.testPoints(size)
    if S.groupsLeaves {
      var box = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
      for i in start..<(start &+ size) {
        let x = xy[2 &* i], y = xy[2 &* i &+ 1]
        box.minX = min(box.minX, x)
        box.maxX = max(box.maxX, x)
        box.minY = min(box.minY, y)
        box.maxY = max(box.maxY, y)
      }
      if rect.contains(box) && sink.takesWhole(box) {
        counters.reportPoints(size)
        return sink.takeRun(UnsafeBufferPointer(start: ids + start, count: size), from: start, visit)
      }
    }
    let (taken, goOn) = sink.takeInside(rect, xy, ids, start..<(start &+ size), visit)
    counters.reportPoints(taken)
    return goOn
  }
}
