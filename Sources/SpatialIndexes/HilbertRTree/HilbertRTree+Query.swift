import _SpatialIndexesShims

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
  ///
  /// Most nodes a query meets are leaves, so a node of level 1 is not
  /// descended into a frame a leaf: its leaves' boxes, side by side in
  /// ``HilbertRTree/boxes``, are tested in one loop (flatbush's order), the
  /// cut leaves' points are prefetched, then each leaf is taken or scanned,
  /// in order. The ids come in the same order and the counters count the
  /// same nodes as a frame a leaf would.
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
      } else if level == 1 {
        guard searchLeaves(children(level: 1, node: node), rect, &counters, &sink, visit) else { return false }
      } else {
        path.descend(level: level &- 1, nodes: children(level: level, node: node))
      }
    }
    return true
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
