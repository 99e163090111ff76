import _SpatialIndexesShims

extension CellTree {
  /// The tree's on-map arrays as raw pointers, taken once for a whole walk.
  /// Positions come from the nodes (the invariant checker verifies them),
  /// so the pointers are read without bounds checks.
  @usableFromInline
  struct _Storage {
    @usableFromInline let nodes: UnsafePointer<_CellNode>
    /// Longitude and latitude interleaved, in code order.
    @usableFromInline let coords: UnsafePointer<Double>
    /// Each point's zoom-26 row.
    @usableFromInline let rows: UnsafePointer<UInt32>
    @usableFromInline let ids: UnsafePointer<Int32>

    @inlinable @inline(__always)
    init(
      nodes: UnsafePointer<_CellNode>, coords: UnsafePointer<Double>, rows: UnsafePointer<UInt32>,
      ids: UnsafePointer<Int32>
    ) {
      self.nodes = nodes
      self.coords = coords
      self.rows = rows
      self.ids = ids
    }
  }

  /// Calls `body` with the on-map arrays as raw pointers.
  ///
  /// - Precondition: the tree holds a point on the map (an empty array has
  ///   no address).
  @inlinable @inline(__always)
  func withStorage<R>(_ body: (_Storage) -> R) -> R {
    nodes.withUnsafeBufferPointer { nodes in
      coords.withUnsafeBufferPointer { coords in
        rows.withUnsafeBufferPointer { rows in
          ids.withUnsafeBufferPointer { ids in
            body(_Storage(
              nodes: nodes.baseAddress!, coords: coords.baseAddress!, rows: rows.baseAddress!,
              ids: ids.baseAddress!))
          }
        }
      }
    }
  }
}

/// One call of ``CellTree/sumCells(in:window:into:counters:)``: what it
/// reads, and its steps over one node.
///
/// The larger steps (here and ``_CellGrid/cell(ofNodeAt:_:depth:)``) are
/// `@_transparent`, inlined however large their caller: the optimiser
/// stops inlining `@inline(__always)` calls into a function as large as
/// the walk's loop, and as calls they cost the walk 5% more instructions.
///
/// With a ``CellNodeFilter`` (`F`), a node whose points all fail is
/// skipped, a node whose points all pass is walked as without a filter
/// (and its totals and the filter's whole), and only a mixed node is split,
/// down to its leaf, whose points are filtered one by one. With
/// ``_NoNodeFilter`` every test folds away: the walk is the plain one.
@usableFromInline
struct _CellSumming<C: QueryCounters, F: CellNodeFilter> {
  @usableFromInline let tree: CellTree._Storage
  @usableFromInline let rect: Rect
  @usableFromInline let grid: _CellGrid
  /// The zoom-26 codes that hold every point inside `rect`
  /// (``CellTree/codeRange(of:)``).
  @usableFromInline let codes: (x0: Int, x1: Int, y0: Int, y1: Int)
  @usableFromInline let cells: UnsafeMutableBufferPointer<CellTotals>
  /// A leaf holding more points than this is a deepest cell sorted by
  /// position (``CellTree/sortCrowdedLeaves(_:)``): the tree's leaf size.
  @usableFromInline let crowded: Int
  @usableFromInline let filter: F

  @inlinable @inline(__always)
  init(
    _ tree: CellTree._Storage, rect: Rect, window: CellWindow,
    into cells: UnsafeMutableBufferPointer<CellTotals>, crowded: Int, filter: F
  ) {
    self.tree = tree
    self.filter = filter
    self.crowded = crowded
    self.rect = rect
    grid = _CellGrid(window)
    codes = CellTree.codeRange(of: rect)
    self.cells = cells
  }

  /// Adds the frame's node to its cell, sums its points, or queues its
  /// children.
  @inlinable @inline(__always)
  func visit(_ frame: _CellFrame, _ queue: inout _CellQueue, _ counters: inout C) {
    var f = frame
    let node = tree.nodes[Int(f.node)]
    counters.visitNodes(1)
    if !f.inside {
      switch node.relation(to: rect) {
      case .outside: return
      case .inside: f.inside = true
      case .cut: break
      }
    }
    if F.filters && !f.passing {
      switch filter.verdict(node: Int(f.node)) {
      case .none: return
      case .all: f.passing = true
      case .some: break
      }
    }
    // a node that may hold points at +180° bins them one by one: they are
    // in column 0, though coded in the world's last
    if f.slot < 0 && node.maxLon < 180 {
      switch grid.cell(ofNodeAt: f.cx, f.cy, depth: Int(f.depth)) {
      case .several: break
      case .outsideWindow: return
      case .slot(let s): f.slot = s
      }
    }
    if f.slot >= 0 && f.inside && (!F.filters || f.passing) {
      addWhole(node, slot: Int(f.slot), &counters)
      if F.filters { filter.addNode(Int(f.node), slot: Int(f.slot)) }
    } else if F.filters && f.slot >= 0 && f.inside
      && filter.addMixed(
        node: Int(f.node), slot: Int(f.slot), into: cells.baseAddress! + Int(f.slot), coords: tree.coords,
        ids: tree.ids, counters: &counters) {
      // the filter added the mixed node from its totals by value
    } else if F.filters && f.slot >= 0 && f.inside && filter.scansMixedNodes {
      sumPoints(of: node, inside: true, slot: Int(f.slot), passing: false, &counters)
    } else if node.isLeaf {
      sumPoints(of: node, inside: f.inside, slot: Int(f.slot), passing: !F.filters || f.passing, &counters)
    } else {
      if !f.inside && node.count <= 64 { prefetchPoints(of: node) }
      queueChildren(of: node, f, &queue)
    }
  }

  /// Adds the totals of a node inside the rectangle and inside one cell.
  @inlinable @inline(__always)
  func addWhole(_ node: _CellNode, slot: Int, _ counters: inout C) {
    counters.reportPoints(Int(node.count))
    cells[slot].count &+= node.count
    // the id matters only for a cell of one point, which a node of one
    // point made: a leaf, which holds its first id
    if node.count == 1 { cells[slot].anyID = node.firstID }
    cells[slot].sumLon &+= node.sumLon
    cells[slot].sumLat &+= node.sumLat
  }

  /// Adds the points of a leaf inside the rectangle (all, when `inside`)
  /// to `slot`, or to their own cells when `slot` < 0; unless `passing`
  /// (the filter passes the whole leaf), only those the filter passes.
  /// With a filter that scans mixed nodes, `node` may be an inner node
  /// inside one cell (`slot` ≥ 0, not `passing`): its points are the same
  /// contiguous run.
  @usableFromInline @_transparent
  func sumPoints(of node: _CellNode, inside: Bool, slot: Int, passing: Bool, _ counters: inout C) {
    let start = Int(node.start), end = start &+ Int(node.count)
    // copies run by run only where the filter needs no point of them
    if end &- start > crowded && (!F.filters || (passing && !filter.addsPoints)) {
      sumCopies(of: node, inside: inside, slot: slot, &counters)
      return
    }
    // each point tested against the rectangle or the filter, or binned by
    // its position
    if !inside || slot < 0 || (F.filters && !passing) { counters.testPoints(end &- start) }
    var taken = 0
    for i in start..<end {
      let lon = tree.coords[2 &* i], lat = tree.coords[2 &* i &+ 1]
      if !inside && !rect.contains(x: lon, y: lat) { continue }
      if F.filters && !passing && !filter.passes(position: i, id: tree.ids[i]) { continue }
      var s = slot
      if s < 0 {
        guard let own = grid.slot(lon: lon, lat: lat, row26: Int(tree.rows[i])) else { continue }
        s = own
      }
      // the id only for a cell's first point (a marker of one point names
      // it): the ids are a cache line a leaf of their own, and the leaf's
      // first is in the node
      if cells[s].count == 0 {
        cells[s].anyID = i == start && (!F.filters || node.isLeaf) ? node.firstID : tree.ids[i]
      }
      cells[s].count &+= 1
      cells[s].sumLon &+= Int64(MapCells.binUnits(longitude: lon))
      cells[s].sumLat &+= Int64(MapCells.units(lat))
      if F.filters && filter.addsPoints { filter.addPoint(id: tree.ids[i], slot: s) }
      taken &+= 1
    }
    counters.reportPoints(taken)
  }

  /// ``sumPoints(of:inside:slot:_:)`` for a crowded leaf, whose points are
  /// sorted by position: each run of copies is tested and binned once and
  /// added as a whole, so a million copies of one place cost O(log) reads,
  /// not a million. Its first point leads the run, in id order, as it
  /// leads the points one by one. Counts one test a run where the points
  /// one by one count one a point.
  @inlinable
  func sumCopies(of node: _CellNode, inside: Bool, slot: Int, _ counters: inout C) {
    let start = Int(node.start), end = start &+ Int(node.count)
    var i = start, runs = 0, taken = 0
    while i < end {
      let next = _endOfCopies(tree.coords, from: i, to: end)
      defer { i = next }
      runs &+= 1
      let lon = tree.coords[2 &* i], lat = tree.coords[2 &* i &+ 1]
      if !inside && !rect.contains(x: lon, y: lat) { continue }
      var s = slot
      if s < 0 {
        guard let own = grid.slot(lon: lon, lat: lat, row26: Int(tree.rows[i])) else { continue }
        s = own
      }
      let m = next &- i
      if cells[s].count == 0 { cells[s].anyID = i == start ? node.firstID : tree.ids[i] }
      cells[s].count &+= Int32(truncatingIfNeeded: m)
      cells[s].sumLon &+= Int64(MapCells.binUnits(longitude: lon)) &* Int64(m)
      cells[s].sumLat &+= Int64(MapCells.units(lat)) &* Int64(m)
      taken &+= m
    }
    if !inside || slot < 0 { counters.testPoints(runs) }
    counters.reportPoints(taken)
  }

  /// Asks for the points of a small node cut by an edge: its leaves will be
  /// scanned soon (a line holds four points).
  @inlinable @inline(__always)
  func prefetchPoints(of node: _CellNode) {
    let start = Int(node.start), end = start &+ Int(node.count)
    var k = start
    while k < end {
      _spatialPrefetch(tree.coords + 2 &* k)
      k &+= 4
    }
  }

  /// Queues the children of `node` (the frame `f`) and prefetches their
  /// lines. A child whose cell lies beyond the rectangle's codes is left
  /// unread.
  @usableFromInline @_transparent
  func queueChildren(of node: _CellNode, _ f: _CellFrame, _ queue: inout _CellQueue) {
    let mask = node.childMask
    var child = node.firstChild
    let s = CellTree.maxDepth &- 1 &- Int(f.depth)
    for q in 0..<4 where mask & (1 << q) != 0 {
      defer { child &+= 1 }
      let cx = 2 &* Int(f.cx) &+ (q & 1), cy = 2 &* Int(f.cy) &+ (q >> 1)
      if !f.inside
        && ((cx &+ 1) << s <= codes.x0 || cx << s > codes.x1
          || (cy &+ 1) << s <= codes.y0 || cy << s > codes.y1) {
        continue
      }
      let address = UnsafeRawPointer(tree.nodes + Int(child))
      _spatialPrefetch(address)
      _spatialPrefetch(address + (MemoryLayout<_CellNode>.size &- 1))
      queue.push(_CellFrame(
        node: child, cx: Int32(truncatingIfNeeded: cx), cy: Int32(truncatingIfNeeded: cy),
        depth: f.depth &+ 1, inside: f.inside, slot: f.slot, passing: f.passing))
    }
  }
}
