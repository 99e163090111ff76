// Grouped queries: each cell's points fill one run of the pool, so a cell
// inside the rectangle is a group.

extension GridHashIndex {
  /// The pool's ids while every cell's run is exactly its points (after a
  /// build or a compaction); empty once an insert or a removal gave cells
  /// spare slots, when the pool also holds slots of no point.
  @inlinable package var groupOrder: [Int32] { capacities.isEmpty ? ids : [] }
  @inlinable package var groupCoordinates: _FlatArray<Double> { _FlatArray(capacities.isEmpty ? coords : []) }

  /// Offers each non-empty interior cell of `rect`'s range (see the type's
  /// documentation) to `visitor` by its box: taken whole as its run of the
  /// pool, or else id by id. Ids of the border cells that lie inside `rect`
  /// go alone, at their slots (-1 while ``groupOrder`` is empty). A crowded
  /// cell sorted by position that is not taken whole offers each run of
  /// copies as a group of one position, tested once.
  ///
  /// A cell's box is computed, not stored, so it is widened by far more than
  /// the rounding of the column and row arithmetic (about 1e-15 of the
  /// grid's extent) for every point of the cell to lie in it. An interior
  /// cell is never on the grid's border, so no clamped point sits in it.
  ///
  /// - Complexity: O(cells in range + points in border cells + ids handed
  ///   over alone); a sorted cell's run of copies costs O(log) of its length.
  @inlinable
  package func forEachGroup<C: QueryCounters, V: GroupVisitor>(
    in rect: Rect, counters: inout C, _ visitor: inout V
  ) {
    guard rect.isValid, liveCount > 0 else { return }
    let grouped = capacities.isEmpty
    let g = geometry
    let widen = g.cellSize * 1e-6 + 1e-12 * (abs(g.originX) + abs(g.originY) + 1)
    var cells = 0, tested = 0, reported = 0
    @inline(__always) func cellBox(_ c: Int, _ r: Int) -> Rect {
      let x = g.originX + Double(c) * g.cellSize, y = g.originY + Double(r) * g.cellSize
      return Rect(minX: x - widen, minY: y - widen, maxX: x + g.cellSize + widen, maxY: y + g.cellSize + widen)
    }
    keys.withUnsafeBufferPointer { keys in
      coords.withUnsafeBufferPointer { xy in
        ids.withUnsafeBufferPointer { ids in
          _ = _forEachCell(in: rect, cellsVisited: &cells, merge: false) { start, n, interior, c, r in
            let run = start..<(start &+ n)
            if interior && grouped {
              let box = cellBox(c, r)
              if rect.contains(box) && visitor.acceptsGroup(in: box) {
                reported &+= n
                visitor.takeGroup(run)
                return true
              }
            }
            if grouped && n > Self.crowdedCell
              && _isSortedCell(isSparse
                ? Self._slot(of: _GridGeometry.key(column: c, row: r), in: keys, shift: hashShift)
                : r &* g.cellsX &+ c) {
              // copies in runs (GridHashIndex+Runs.swift): each run is
              // tested once and offered as a group at one position, so a
              // million copies of a place are one group
              var i = start
              while i < run.upperBound {
                let next = _endOfCopies(xy.baseAddress!, from: i, to: run.upperBound)
                defer { i = next }
                let x = xy[2 &* i], y = xy[2 &* i &+ 1]
                if !interior {
                  tested &+= 1
                  guard rect.contains(x: x, y: y) else { continue }
                }
                reported &+= next &- i
                if visitor.acceptsGroup(in: Rect(minX: x, minY: y, maxX: x, maxY: y)) {
                  visitor.takeGroup(i..<next)
                } else {
                  for j in i..<next { visitor.take(ids[j], at: j) }
                }
              }
            } else if interior {
              reported &+= n
              for i in run { visitor.take(ids[i], at: grouped ? i : -1) }
            } else {
              tested &+= n
              for i in run where rect.contains(x: xy[2 &* i], y: xy[2 &* i &+ 1]) {
                reported &+= 1
                visitor.take(ids[i], at: grouped ? i : -1)
              }
            }
            return true
          }
        }
      }
    }
    counters.visitNodes(cells)
    counters.testPoints(tested)
    counters.reportPoints(reported)
  }
}
