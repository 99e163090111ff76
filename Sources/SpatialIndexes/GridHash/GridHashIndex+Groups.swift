// Grouped queries: each cell's points fill one run of the pool, so a cell
// inside the rectangle is a group.

extension GridHashIndex {
  /// The pool's ids while every cell's run is exactly its points (after a
  /// build or a compaction); empty once an insert or a removal gave cells
  /// spare slots, when the pool also holds slots of no point.
  @inlinable package var groupOrder: [Int32] { capacities.isEmpty ? ids : [] }
  @inlinable package var groupCoordinates: [Double] { capacities.isEmpty ? coords : [] }

  /// Offers each non-empty interior cell of `rect`'s range (see the type's
  /// documentation) to `visitor` by its box: taken whole as its run of the
  /// pool, or else id by id. Ids of the border cells that lie inside `rect`
  /// go alone, at their slots (-1 while ``groupOrder`` is empty).
  ///
  /// A cell's box is computed, not stored, so it is widened by far more than
  /// the rounding of the column and row arithmetic (about 1e-15 of the
  /// grid's extent) for every point of the cell to lie in it. An interior
  /// cell is never on the grid's border, so no clamped point sits in it.
  ///
  /// - Complexity: O(cells in range + points in border cells + ids handed over alone).
  @inlinable
  package func forEachGroup<C: QueryCounters, V: GroupVisitor>(
    in rect: Rect, counters: inout C, _ visitor: inout V
  ) {
    guard rect.isValid, liveCount > 0 else { return }
    let grouped = capacities.isEmpty
    let g = geometry
    let widen = g.cellSize * 1e-6 + 1e-12 * (abs(g.originX) + abs(g.originY) + 1)
    var cells = 0, tested = 0, reported = 0
    coords.withUnsafeBufferPointer { xy in
      ids.withUnsafeBufferPointer { ids in
        _ = _forEachCell(in: rect, cellsVisited: &cells, merge: false) { start, n, interior, c, r in
          if interior {
            reported &+= n
            let x = g.originX + Double(c) * g.cellSize, y = g.originY + Double(r) * g.cellSize
            let box = Rect(minX: x - widen, minY: y - widen,
                           maxX: x + g.cellSize + widen, maxY: y + g.cellSize + widen)
            if grouped && rect.contains(box) && visitor.acceptsGroup(in: box) {
              visitor.takeGroup(start..<(start &+ n))
            } else {
              for i in start..<(start &+ n) { visitor.take(ids[i], at: grouped ? i : -1) }
            }
          } else {
            tested &+= n
            for i in start..<(start &+ n) where rect.contains(x: xy[2 &* i], y: xy[2 &* i &+ 1]) {
              reported &+= 1
              visitor.take(ids[i], at: grouped ? i : -1)
            }
          }
          return true
        }
      }
    }
    counters.visitNodes(cells)
    counters.testPoints(tested)
    counters.reportPoints(reported)
  }
}
