extension CellTree: _BestFirstTree {
  /// Best first over the nodes' bounding boxes (``_bestFirst(_:_:)``), as the
  /// other trees search. Before it, the range-query default widened a circle
  /// fourfold until it held `k` points; on clustered data the last widening
  /// took in whole cities, and a nearest-100 search at 10M hotels had a p99
  /// of 22 ms against the R-tree's 0.08 ms (`bench recommend`, this machine).
  /// Points off the map live outside the tree, in a k-d tree of their own.
  /// From a position off the map, a search of them comes first and bounds
  /// the distance (its `k`-th nearest): else the tree's search would walk
  /// most of the tree before the cut fell (350 µs a search within 5° of a
  /// pole on uniform points, 5% of them beyond ±85.05°). From a position on
  /// the map that first search costs more than it saves (a pole's points
  /// are far, and the k-d tree's regions prune loosely there). Either way
  /// the tree's search keeps what lies within the bound, and one range
  /// query of the off-map points over the circle of the farthest kept adds
  /// theirs: nothing outside it can be kept.
  @inlinable
  public func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double,
    into buffer: inout NearestBuffer, counters: inout C
  ) {
    var limit = maxDistance
    if !offMapIDs.isEmpty, !Self.isOnMap(position) {
      offMap.nearest(to: position, k: k, maxDistance: maxDistance, into: &buffer, counters: &counters)
      if k > 0 && buffer.neighbors.count >= k { limit = Swift.min(limit, buffer.neighbors[k &- 1].distance) }
    }
    // `begin` empties the buffer when there is nothing to find (k = 0, a NaN position)
    guard var search = _NearestSearch.begin(position, k: k, maxDistance: limit, count: count, &buffer),
          let center = _nearestCenter(position, k: k, maxDistance: limit, count: count)
    else { return }
    _bestFirst(&search, &counters)
    if !offMapIDs.isEmpty {
      let radius = search.radius
      offMapIDs.withUnsafeBufferPointer { offIDs in
        func offer(_ local: Int32) -> Bool {
          let id = offIDs[Int(local)]
          let p = offMapPoints[Int(local)]
          search.consider(x: p.x, y: p.y, id: id)
          return true
        }
        if !(radius < .pi * GreatCircle.earthRadius) {
          counters.testPoints(offIDs.count)
          for local in 0..<offIDs.count { _ = offer(Int32(local)) }
        } else {
          let (first, second) = GreatCircle.boxes(around: center, radius: radius)
          offMap.forEach(in: first, counters: &counters, offer)
          if let second { offMap.forEach(in: second, counters: &counters, offer) }
        }
      }
    }
    search.end(into: &buffer)
  }

  @inlinable
  func _nearestRoot<M: _NearestMetric>(_ search: inout _NearestSearch<M>) -> _NearestNode? {
    guard !nodes.isEmpty else { return nil }
    let b = box(of: nodes[0])
    return _NearestNode(bound: search.metric.bound(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY), node: 0)
  }

  @inlinable
  func _nearestBox<M: _NearestMetric>(_ node: _NearestNode, _ search: _NearestSearch<M>) -> Rect {
    box(of: nodes[Int(node.node)])
  }

  @inlinable
  func _expand<M: _NearestMetric, C: QueryCounters>(
    _ node: _NearestNode, _ search: inout _NearestSearch<M>, _ counters: inout C
  ) {
    counters.visitNodes(1)
    nodes.withUnsafeBufferPointer { nodes in
      let n = nodes[Int(node.node)]
      if n.isLeaf {
        let first = Int(n.start), last = first &+ Int(n.count)
        coords.withUnsafeBufferPointer { xy in
          ids.withUnsafeBufferPointer { ids in
            if last &- first > parameters.leafSize {
              // a deepest cell's copies, sorted by position (``sortCrowdedLeaves(_:)``)
              counters.testPoints(search.considerSortedLeaf(xy.baseAddress!, ids.baseAddress!, first..<last))
            } else {
              counters.testPoints(last &- first)
              search.considerLeaf(xy.baseAddress!, ids.baseAddress!, first..<last)
            }
          }
        }
        return
      }
      let first = Int(n.firstChild)
      for c in first..<(first &+ n.childMask.nonzeroBitCount) {
        let child = nodes[c], b = box(of: child)
        let bound = search.metric.bound(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY)
        search.push(_NearestNode(bound: bound, node: c), count: Int(child.count), box: b)
      }
    }
  }

  /// The bounding box of a node's points, in degrees.
  @inlinable @inline(__always)
  func box(of node: _CellNode) -> Rect {
    Rect(minX: Double(node.minLon), minY: Double(node.minLat), maxX: Double(node.maxLon), maxY: Double(node.maxLat))
  }
}
