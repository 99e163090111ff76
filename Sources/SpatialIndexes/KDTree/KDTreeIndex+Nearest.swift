extension KDTreeIndex: _BestFirstTree {
  /// A subtree in the queue: `node` is its place in the buffer's regions.
  @inlinable
  func _nearestRoot<M: _NearestMetric>(_ search: inout _NearestSearch<M>) -> _NearestNode? {
    guard !ids.isEmpty else { return nil }
    return _queue(
      _NearestRegion(split: 0, leaf: splitCount, size: ids.count, splits: splitCount, axis: 0, box: bounds),
      &search)
  }

  /// The queue entry of `region`, kept beside the queue.
  @inlinable @inline(__always)
  func _queue<M: _NearestMetric>(_ region: _NearestRegion, _ search: inout _NearestSearch<M>) -> _NearestNode {
    let b = region.box
    search.buffer.regions.append(region)
    return _NearestNode(
      bound: search.metric.bound(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY),
      node: search.buffer.regions.count - 1)
  }

  /// Queues a child subtree unless its bound passes the cut; only then is
  /// its region kept beside the queue.
  @inlinable @inline(__always)
  func _push<M: _NearestMetric>(_ region: _NearestRegion, _ search: inout _NearestSearch<M>) {
    let b = region.box
    let bound = search.metric.bound(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY)
    guard bound <= search.cut else { return }
    search.buffer.regions.append(region)
    search.push(_NearestNode(bound: bound, node: search.buffer.regions.count - 1), count: Int(region.size), box: b)
  }

  @inlinable
  func _nearestBox<M: _NearestMetric>(_ node: _NearestNode, _ search: _NearestSearch<M>) -> Rect {
    search.buffer.regions[Int(node.node)].box
  }

  @inlinable
  func _expand<M: _NearestMetric, C: QueryCounters>(
    _ node: _NearestNode, _ search: inout _NearestSearch<M>, _ counters: inout C
  ) {
    let r = search.buffer.regions[Int(node.node)]
    let split = Int(r.split), leaf = Int(r.leaf), size = Int(r.size), splits = Int(r.splits)
    let nodeSize = parameters.nodeSize
    counters.visitNodes(1)
    coords.withUnsafeBufferPointer { xy in
      ids.withUnsafeBufferPointer { ids in
        if size <= nodeSize {
          counters.testPoints(size)
          search.considerLeaf(xy.baseAddress!, ids.baseAddress!, leaf..<(leaf &+ size))
          return
        }
        let x = xy[2 &* split], y = xy[2 &* split &+ 1]
        if isRun(split) {
          // copies of one place, ids ascending across the two runs
          counters.testPoints(search.considerRun(x: x, y: y, ids: ids.baseAddress! + split, count: splits))
          counters.testPoints(search.considerRun(x: x, y: y, ids: ids.baseAddress! + leaf, count: size &- splits))
          return
        }
        counters.testPoints(1)
        search.consider(x: x, y: y, id: ids[split])
        let l = Self._leftShape(size: size, nodeSize: nodeSize)
        let rightSize = size &- 1 &- l.points
        let onY = r.axis != 0
        let v = onY ? y : x
        var low = r.box, high = r.box
        if onY { low.maxY = v; high.minY = v } else { low.maxX = v; high.minX = v }
        let axis = onY ? 0 : 1
        _push(
          _NearestRegion(split: split &+ 1, leaf: leaf, size: l.points, splits: l.splits, axis: axis, box: low),
          &search)
        if rightSize > 0 {
          _push(
            _NearestRegion(
              split: split &+ 1 &+ l.splits, leaf: leaf &+ l.points &- l.splits, size: rightSize,
              splits: splits &- 1 &- l.splits, axis: axis, box: high),
            &search)
        }
      }
    }
  }
}
