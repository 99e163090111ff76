import _SpatialIndexesShims

extension HilbertRTree: _BestFirstTree {
  /// A node in the queue: `level`, and `node` its number in the level.
  @inlinable
  func _nearestRoot<M: _NearestMetric>(_ search: inout _NearestSearch<M>) -> _NearestNode? {
    guard levelCount > 0 else { return nil }
    let top = levelCount - 1, b = box(level: top, node: 0)
    return _NearestNode(
      bound: search.metric.bound(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY), node: 0, level: top)
  }

  @inlinable
  func _nearestBox<M: _NearestMetric>(_ node: _NearestNode, _ search: _NearestSearch<M>) -> Rect {
    box(level: Int(node.level), node: Int(node.node))
  }

  @inlinable
  func _expand<M: _NearestMetric, C: QueryCounters>(
    _ node: _NearestNode, _ search: inout _NearestSearch<M>, _ counters: inout C
  ) {
    let level = Int(node.level), j = Int(node.node), s = parameters.nodeSize
    counters.visitNodes(1)
    // A node whose box is a point holds copies of one place, in id order
    // (the sort keeps ids in order among equal Hilbert values): a run,
    // however many levels it spans.
    let b = box(level: level, node: j)
    if b.minX == b.maxX && b.minY == b.maxY {
      let span = spans[level], first = j &* span, last = Swift.min(ids.count, first &+ span)
      ids.withUnsafeBufferPointer { ids in
        counters.testPoints(
          search.considerRun(x: b.minX, y: b.minY, ids: ids.baseAddress! + first, count: last &- first))
      }
      return
    }
    if level == 0 {
      let first = j &* s, last = Swift.min(ids.count, first &+ s)
      counters.testPoints(last &- first)
      coords.withUnsafeBufferPointer { xy in
        ids.withUnsafeBufferPointer { ids in
          search.considerLeaf(xy.baseAddress!, ids.baseAddress!, first..<last)
        }
      }
      return
    }
    let below = level &- 1
    let start = levelStarts[below], belowCount = levelStarts[level] &- start
    let span = spans[below], n = ids.count
    boxes.withUnsafeBufferPointer { bp in
      coords.withUnsafeBufferPointer { xy in
        for c in (j &* s)..<Swift.min(belowCount, j &* s &+ s) {
          let o = 4 &* (start &+ c)
          let box = Rect(minX: bp[o], minY: bp[o &+ 1], maxX: bp[o &+ 2], maxY: bp[o &+ 3])
          let bound = search.metric.bound(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY)
          guard bound <= search.cut else { continue }
          // What the child's expansion will read, fetched while the
          // search pops others: a leaf's first points, else its children's
          // first boxes (a query over 1M points waits on memory as much as
          // it computes).
          if below == 0 {
            _spatialPrefetch(xy.baseAddress! + 2 &* c &* s)
            _spatialPrefetch(xy.baseAddress! + (2 &* c &* s &+ 8))
          } else {
            _spatialPrefetch(bp.baseAddress! + 4 &* (levelStarts[below &- 1] &+ c &* s))
          }
          let count = Swift.min(n, c &* span &+ span) &- c &* span
          search.push(_NearestNode(bound: bound, node: c, level: below), count: count, box: box)
        }
      }
    }
  }
}
