extension HilbertRTree: _SinkGrouping {
  /// The ids in Hilbert order, as stored.
  @inlinable package var groupOrder: [Int32] { ids }
  @inlinable package var groupCoordinates: [Double] { coords }

  /// One level of the walk: the next child to look at and the end of its
  /// siblings, as node numbers within `level`.
  @usableFromInline
  struct _Frame {
    @usableFromInline var level: Int32
    @usableFromInline var next: Int32
    @usableFromInline var end: Int32

    @inlinable @inline(__always)
    init(level: Int, nodes: Range<Int>) {
      self.level = Int32(truncatingIfNeeded: level)
      self.next = Int32(truncatingIfNeeded: nodes.lowerBound)
      self.end = Int32(truncatingIfNeeded: nodes.upperBound)
    }
  }

  /// The walk's path from the root, one frame a level, on the call stack:
  /// a query allocates nothing. There are at most 31 levels (2^31 points,
  /// two children a node at least).
  @usableFromInline
  struct _Path {
    @usableFromInline var frames: _Stack40<_Frame>
    @usableFromInline var depth: Int

    /// The path at the root, the one node of level `top`.
    @inlinable @inline(__always)
    init(top: Int) {
      frames = _Stack40(repeating: _Frame(level: top, nodes: 0..<1))
      depth = 1
    }

    /// The next node to look at, deepest level first; nil when the walk is
    /// over.
    @inlinable @inline(__always)
    mutating func next() -> (level: Int, node: Int)? {
      while depth > 0 {
        var f = frames[depth &- 1]
        if f.next == f.end {
          depth &-= 1
          continue
        }
        let node = Int(f.next)
        f.next &+= 1
        frames[depth &- 1] = f
        return (Int(f.level), node)
      }
      return nil
    }

    /// Goes down to `nodes` of `level`, to look at them next.
    @inlinable @inline(__always)
    mutating func descend(level: Int, nodes: Range<Int>) {
      frames[depth] = _Frame(level: level, nodes: nodes)
      depth &+= 1
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
  @usableFromInline @_transparent
  func search<C: QueryCounters, S: _IDSink>(
    _ rect: Rect, _ counters: inout C, _ sink: inout S, _ visit: _Visit
  ) -> Bool {
    var path = HilbertRTree._Path(top: levelCount &- 1)
    while let (level, node) = path.next() {
      counters.visitNodes(1)
      let box = self.box(level: level, node: node)
      guard rect.intersects(box) else { continue }
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
      } else {
        path.descend(level: level &- 1, nodes: children(level: level, node: node))
      }
    }
    return true
  }
}
