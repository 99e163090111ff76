extension GridHashIndex {
  /// Rings of cells around the position's cell, nearest first: ring `d`
  /// is the cells `d` columns or rows away. A cell's points are considered
  /// when its box's bound (see ``_SphereMetric``) does not pass the cut; the
  /// search ends when nothing outside the rings searched can be nearer than
  /// the `k` kept (``_SphereMetric/boundOutside(_:north:south:east:west:)``).
  ///
  /// The grid does not wrap at the antimeridian, nor shrink its cells near
  /// the poles, so there a search may need many rings: past
  /// ``nearestRingLimit`` it ends through range queries
  /// (``nearestThroughRanges(to:k:maxDistance:into:counters:point:)``'s
  /// search over the coordinates in the cells, which splits its boxes at
  /// the antimeridian, or its like over whole cells when a cell is sorted:
  /// ``_nearestThroughCells(to:k:maxDistance:into:counters:kWithinMax:)``): over the circle
  /// of the farthest of the `k` found, or from the start when fewer were.
  /// Cells at the grid's edges hold the points beyond it (columns and rows
  /// are clamped), so their boxes reach the world's edge.
  @inlinable
  public func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double,
    into buffer: inout NearestBuffer, counters: inout C
  ) {
    guard var search = _NearestSearch.begin(position, k: k, maxDistance: maxDistance, count: count, &buffer)
    else { return }
    let metric = search.metric, center = metric.center
    let g = geometry
    let c0 = g.column(center.x), r0 = g.row(center.y)
    var cells = 0, tested = 0
    var finished = false
    let pad = 1e-9  // degrees; see the cells' and the square's bounds
    runs.withUnsafeBufferPointer { runs in
      keys.withUnsafeBufferPointer { keys in
        coords.withUnsafeBufferPointer { xy in
          ids.withUnsafeBufferPointer { ids in
            func visit(_ c: Int, _ r: Int) {
              let slot: Int
              if isSparse {
                slot = Self._slot(of: _GridGeometry.key(column: c, row: r), in: keys, shift: hashShift)
                if slot < 0 { return }
              } else {
                slot = r &* g.cellsX &+ c
              }
              let n = Int(runs[2 &* slot &+ 1])
              guard n > 0 else { return }
              cells &+= 1
              let box = Rect(
                minX: c == 0 ? -Double.infinity : g.originX + Double(c) * g.cellSize,
                minY: r == 0 ? -90 : g.originY + Double(r) * g.cellSize,
                maxX: c == g.cellsX &- 1 ? Double.infinity : g.originX + Double(c &+ 1) * g.cellSize,
                maxY: r == g.cellsY &- 1 ? 90 : g.originY + Double(r &+ 1) * g.cellSize)
              // padded: a point's cell comes from a rounded product, so it
              // may lie a hair outside the cell's edges
              let bound = metric.bound(
                minX: Swift.max(-180, box.minX - pad), minY: box.minY - pad,
                maxX: Swift.min(180, box.maxX + pad), maxY: box.maxY + pad)
              guard bound <= search.cut else { return }
              let start = Int(runs[2 &* slot])
              if _isSortedCell(slot) {
                // copies in runs (GridHashIndex+Runs.swift): the first k of a run
                tested &+= search.considerSortedLeaf(xy.baseAddress!, ids.baseAddress!, start..<(start &+ n))
              } else {
                tested &+= n
                search.considerLeaf(xy.baseAddress!, ids.baseAddress!, start..<(start &+ n))
              }
            }
            var d = 0
            while d <= Self.nearestRingLimit {
              let cLow = c0 &- d, cHigh = c0 &+ d, rLow = r0 &- d, rHigh = r0 &+ d
              for c in Swift.max(0, cLow)...Swift.min(g.cellsX &- 1, cHigh) {
                if rLow >= 0 { visit(c, rLow) }
                if d > 0 && rHigh < g.cellsY { visit(c, rHigh) }
              }
              let low = Swift.max(0, rLow &+ 1), high = Swift.min(g.cellsY &- 1, rHigh &- 1)
              if d > 0 && low <= high {
                for r in low...high {
                  if cLow >= 0 { visit(cLow, r) }
                  if cHigh < g.cellsX { visit(cHigh, r) }
                }
              }
              let north = rHigh < g.cellsY &- 1, south = rLow > 0
              let east = cHigh < g.cellsX &- 1, west = cLow > 0
              if !(north || south || east || west) { finished = true; return }
              // clamped to the map: a square reaching past ±180° would wrap
              // over the points at the other end of the grid, which it does
              // not hold
              let square = Rect(
                minX: Swift.max(-180, g.originX + Double(Swift.max(0, cLow)) * g.cellSize + pad),
                minY: g.originY + Double(Swift.max(0, rLow)) * g.cellSize + pad,
                maxX: Swift.min(180, g.originX + Double(Swift.min(g.cellsX, cHigh &+ 1)) * g.cellSize - pad),
                maxY: g.originY + Double(Swift.min(g.cellsY, rHigh &+ 1)) * g.cellSize - pad)
              if metric.boundOutside(square, north: north, south: south, east: east, west: west) > search.cut {
                finished = true
                return
              }
              d &+= 1
            }
          }
        }
      }
    }
    counters.visitNodes(cells)
    counters.testPoints(tested)
    search.end(into: &buffer)
    if !finished {
      // With k found, the k nearest lie within the farthest of them: one
      // range query over that circle ends the search. Else from the start.
      let found = buffer.neighbors.count == k
      let within = found ? Swift.min(maxDistance, buffer.neighbors[k - 1].distance) : maxDistance
      if sortedCells.isEmpty {
        _nearestThroughRanges(
          to: position, k: k, maxDistance: within, into: &buffer, counters: &counters,
          kWithinMax: found
        ) { rect, counters, consider in _forEachPoint(in: rect, counters: &counters, consider) }
      } else {
        _nearestThroughCells(
          to: position, k: k, maxDistance: within, into: &buffer, counters: &counters, kWithinMax: found)
      }
    }
  }

  /// Rings a k-nearest search walks before it falls back to range queries.
  @usableFromInline package static let nearestRingLimit = 24
}
