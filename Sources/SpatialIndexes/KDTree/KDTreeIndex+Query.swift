import _SpatialIndexesShims

extension KDTreeIndex: _SinkGrouping {
  /// The ids as stored: split points, then leaf points (see the type's doc).
  @inlinable package var groupOrder: [Int32] { ids }
  @inlinable package var groupCoordinates: _FlatArray<Double> { coords }

  /// Depth first, with an explicit stack (``_WalkStack``): a subtree inside
  /// the rectangle is two runs of ids, a split point is tested on its own,
  /// and a leaf goes to the leaf queue (``_LeafQueue``), which prefetches
  /// it and scans it later. A right child is prefetched when pushed.
  ///
  /// Ids of split points and whole subtrees are reported as the walk meets
  /// them, leaves' ids after: the order differs from a plain depth-first
  /// one, the set does not.
  @inlinable @discardableResult
  func search<C: QueryCounters, S: _IDSink>(
    _ rect: Rect, _ counters: inout C, _ sink: inout S, _ visit: _Visit = _noVisit
  ) -> Bool {
    guard rect.isValid, !ids.isEmpty else { return true }
    let nodeSize = parameters.nodeSize
    let root = _Frame(root: ids.count, splitCount: splitCount, bounds: bounds, rect: rect)
    return coords.withUnsafeBufferPointer { coords in
      ids.withUnsafeBufferPointer { ids in
        // Positions below are proven in range by the tree's shape (the
        // invariant checker verifies it), so raw pointers skip the checks.
        let xy = coords.baseAddress!, idp = ids.baseAddress!
        func scan(_ start: Int, _ size: Int) -> Bool {
          Self.scanLeaf(start, size, rect, xy, idp, &counters, &sink, visit)
        }
        var leaves = _LeafQueue()
        var stack = _WalkStack(root, box: bounds)
        while !stack.isEmpty {
          let (f, box) = stack.pop()
          counters.visitNodes(1)
          if f.isInside && (!S.groupsLeaves || sink.takesWhole(box)) {
            guard Self.takeSubtree(f, idp, &counters, &sink, visit) else { return false }
          } else if Int(f.size) <= nodeSize {
            if leaves.add(Int(f.leaf), Int(f.size), xy, idp) && !leaves.scanAll(scan) { return false }
          } else {
            let split = Int(f.split)
            let x = xy[2 &* split], y = xy[2 &* split &+ 1]
            counters.testPoints(1)
            if rect.contains(x: x, y: y) {
              counters.reportPoints(1)
              guard sink.take(idp[split], at: split, visit) else { return false }
            }
            stack.pushChildren(
              of: f, x: x, y: y, box: box, rect, nodeSize: nodeSize, xy, keepsBoxes: S.groupsLeaves)
          }
        }
        return leaves.scanAll(scan)
      }
    }
  }
}
