/// A node waiting in a walk: its index, depth and cell, whether it is known
/// to lie inside the rectangle, and the dense slot of the one view cell it
/// lies in (-1 until known).
@frozen @usableFromInline
struct _CellFrame {
  @usableFromInline var node: Int32
  @usableFromInline var cx: Int32
  @usableFromInline var cy: Int32
  @usableFromInline var depth: Int16
  @usableFromInline var inside: Bool
  @usableFromInline var slot: Int32
  /// Whether a ``CellNodeFilter`` passes every point of the node (always,
  /// without one); in the frame's padding byte.
  @usableFromInline var passing: Bool

  @inlinable @inline(__always)
  init(node: Int32, cx: Int32, cy: Int32, depth: Int16, inside: Bool, slot: Int32, passing: Bool = true) {
    self.passing = passing
    self.node = node
    self.cx = cx
    self.cy = cy
    self.depth = depth
    self.inside = inside
    self.slot = slot
  }
}

extension CellTree: _SinkSearching {
  /// Depth-first over the nodes the rectangle reaches, with an explicit
  /// stack on the call stack (each pop pushes at most four children, so it
  /// holds at most 3 · 28 + 4 frames): a node inside is one run of ids, a
  /// leaf cut by an edge is tested point by point. Off-map points come from
  /// their own k-d tree first.
  @inlinable @discardableResult
  func search<C: QueryCounters, S: _IDSink>(
    _ rect: Rect, _ counters: inout C, _ sink: inout S, _ visit: _Visit = _noVisit
  ) -> Bool {
    guard rect.isValid else { return true }
    if !offMapIDs.isEmpty {
      // the k-d tree's own walk, its ids turned into ours on the way: a
      // closure here cost an allocation a query
      let goOn = offMapIDs.withUnsafeBufferPointer { offIDs in
        withUnsafeMutablePointer(to: &sink) { base in
          var mapped = _MappedSink(base, ids: offIDs.baseAddress!)
          return offMap.search(rect, &counters, &mapped, visit)
        }
      }
      if !goOn { return false }
    }
    if nodes.isEmpty { return true }
    return nodes.withUnsafeBufferPointer { nodes in
      coords.withUnsafeBufferPointer { coords in
        ids.withUnsafeBufferPointer { ids in
          let xy = coords.baseAddress!, idp = ids.baseAddress!
          var stack = _Stack96<_CellFrame>(
            repeating: _CellFrame(node: 0, cx: 0, cy: 0, depth: 0, inside: false, slot: -1))
          var top = 1
          while top > 0 {
            top &-= 1
            let f = stack[top]
            let node = nodes[Int(f.node)]
            counters.visitNodes(1)
            switch node.relation(to: rect) {
            case .outside: continue
            case .inside:
              let start = Int(node.start), n = Int(node.count)
              counters.reportPoints(n)
              if !sink.takeRun(UnsafeBufferPointer(start: idp + start, count: n), from: start, visit) {
                return false
              }
              continue
            case .cut: break
            }
            if node.isLeaf {
              let start = Int(node.start), end = start &+ Int(node.count)
              counters.testPoints(end &- start)
              let (taken, goOn) = sink.takeInside(rect, xy, idp, start..<end, visit)
              counters.reportPoints(taken)
              if !goOn { return false }
              continue
            }
            top = Self.pushChildren(of: node, f, inside: false, slot: -1, &stack, top)
          }
          return true
        }
      }
    }
  }

  /// Pushes the children of `node` (the frame `f`), the last quadrant first
  /// so the first is walked first; returns the new top.
  @inlinable @inline(__always)
  static func pushChildren<S>(
    of node: _CellNode, _ f: _CellFrame, inside: Bool, slot: Int32,
    _ stack: inout _FixedStack<S, _CellFrame>, _ top: Int
  ) -> Int {
    var top = top
    let mask = node.childMask
    var q = 3
    while q >= 0 {
      if mask & (1 << q) != 0 {
        let child = node.firstChild &+ Int32((mask & ((1 << q) &- 1)).nonzeroBitCount)
        stack[top] = _CellFrame(
          node: child, cx: 2 &* f.cx &+ Int32(q & 1), cy: 2 &* f.cy &+ Int32(q >> 1),
          depth: f.depth &+ 1, inside: inside, slot: slot)
        top &+= 1
      }
      q &-= 1
    }
    return top
  }
}
