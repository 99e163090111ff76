extension HilbertRTree: _SinkGrouping {
  /// The ids in Hilbert order, as stored.
  @inlinable public var groupOrder: [Int32] { ids }
  @inlinable public var groupCoordinates: [Double] { coords }

  /// One level of the walk: the next child to look at and the end of its
  /// siblings, as node numbers within `level`.
  @usableFromInline
  struct _Frame {
    @usableFromInline var level: Int32
    @usableFromInline var next: Int32
    @usableFromInline var end: Int32

    @inlinable @inline(__always)
    init(level: Int, next: Int, end: Int) {
      self.level = Int32(truncatingIfNeeded: level)
      self.next = Int32(truncatingIfNeeded: next)
      self.end = Int32(truncatingIfNeeded: end)
    }
  }

  /// Depth first, one frame a level: a node whose box lies inside the
  /// rectangle is taken as its run of points, a leaf cut by the rectangle
  /// has its points tested, an internal node cut by it pushes the frame of
  /// its children. The stack holds at most one frame a level, and there are
  /// at most 31 levels (2^31 points, two children a node at least).
  @inlinable @discardableResult
  func search<C: QueryCounters, S: _IDSink>(
    _ rect: Rect, _ counters: inout C, _ sink: inout S, _ visit: _Visit = _noVisit
  ) -> Bool {
    guard rect.isValid, !ids.isEmpty else { return true }
    let nodeSize = parameters.nodeSize
    let n = ids.count
    return coords.withUnsafeBufferPointer { coords in
      ids.withUnsafeBufferPointer { ids in
        boxes.withUnsafeBufferPointer { boxes in
          levelStarts.withUnsafeBufferPointer { starts in
            spans.withUnsafeBufferPointer { spans in
              // Positions below follow from the packing (the invariant
              // checker verifies it), so raw pointers skip the checks.
              let xy = coords.baseAddress!, idp = ids.baseAddress!, bp = boxes.baseAddress!
              let top = starts.count &- 2
              var stack = _Stack40<_Frame>(repeating: _Frame(level: top, next: 0, end: 1))
              var depth = 1
              while depth > 0 {
                var f = stack[depth &- 1]
                if f.next == f.end {
                  depth &-= 1
                  continue
                }
                let level = Int(f.level), node = Int(f.next)
                f.next &+= 1
                stack[depth &- 1] = f
                counters.visitNodes(1)
                let b = bp + 4 &* (starts[level] &+ node)
                let box = Rect(minX: b[0], minY: b[1], maxX: b[2], maxY: b[3])
                guard rect.intersects(box) else { continue }
                let span = spans[level]
                let first = node &* span, last = Swift.min(n, first &+ span)
                if rect.contains(box) && sink.takesWhole(box) {
                  counters.reportPoints(last &- first)
                  if !sink.takeRun(UnsafeBufferPointer(start: idp + first, count: last &- first), from: first, visit) {
                    return false
                  }
                  continue
                }
                if level == 0 {
                  counters.testPoints(last &- first)
                  let (taken, goOn) = sink.takeInside(rect, xy, idp, first..<last, visit)
                  counters.reportPoints(taken)
                  if !goOn { return false }
                  continue
                }
                let below = level &- 1
                let belowCount = starts[level] &- starts[below]
                stack[depth] = _Frame(
                  level: below, next: node &* nodeSize, end: Swift.min(belowCount, node &* nodeSize &+ nodeSize))
                depth &+= 1
              }
              return true
            }
          }
        }
      }
    }
  }
}
