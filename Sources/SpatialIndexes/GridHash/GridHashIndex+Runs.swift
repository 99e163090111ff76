// Crowded cells: copies of one place make a cell of any size (a million
// identical points are a grid of one cell), and a k-nearest search that
// reads every copy costs O(copies). Sorted by position, then id, the
// copies of a place lie together in input order: a search takes the
// first `k` of them and skips the rest by galloping
// (``_NearestSearch/considerSortedLeaf(_:_:_:)``).

extension GridHashIndex {
  /// A cell holding more points than this is sorted when the grid is built.
  /// A cell this size costs a search its points whatever they hold; most
  /// cells hold about ``Parameters/pointsPerCell``, so sorting rarely runs
  /// on data without copies.
  @usableFromInline static let crowdedCell = 256

  /// Whether the cell at `slot` is sorted by position, then id.
  @inlinable @inline(__always)
  func _isSortedCell(_ slot: Int) -> Bool {
    !sortedCells.isEmpty && sortedCells[slot &>> 6] & (1 &<< UInt64(slot & 63)) != 0
  }

  /// Forgets that the cell at `slot` is sorted: a change to a cell (a point
  /// added, removed or moved in place) does not keep the order. The cell is
  /// searched point by point until the next rebuild sorts it again.
  @inline(__always)
  mutating func markUnsorted(_ slot: Int) {
    guard !sortedCells.isEmpty else { return }
    sortedCells[slot >> 6] &= ~(1 << UInt64(slot & 63))
  }

  /// Sorts every cell holding more than ``crowdedCell`` points and copies
  /// by position (`x`, then `y`), then id, and marks it in ``sortedCells``
  /// (a cell without copies keeps its order and is searched point by
  /// point, as before, its points' bounds taken a block at a time). A
  /// build's counting sort keeps input order within a cell, so a cell of
  /// copies of one place is already sorted and costs one pass.
  ///
  /// - Returns: the copies in crowded cells (points at the position of the
  ///   point before them).
  /// - Complexity: O(*m*) a crowded cell of *m* points, O(*m* log *m*) if
  ///   it holds copies out of order.
  @discardableResult
  mutating func sortCrowdedCells() -> Int {
    let slots = runs.count / 2
    var marks: [UInt64] = []
    var total = 0
    var order: [Int] = []
    var seen: [UInt64] = []
    for s in 0..<slots where Int(runs[2 * s + 1]) > Self.crowdedCell {
      let start = Int(runs[2 * s]), end = start + Int(runs[2 * s + 1])
      func before(_ a: Int, _ b: Int) -> Bool {
        let ax = coords[2 * a], bx = coords[2 * b]
        if ax != bx { return ax < bx }
        let ay = coords[2 * a + 1], by = coords[2 * b + 1]
        if ay != by { return ay < by }
        return ids[a] < ids[b]
      }
      if !(start + 1..<end).allSatisfy({ !before($0, $0 - 1) }) {
        // a cell of distinct points keeps its order: sorting them cost a
        // build on clustered data a third more
        guard holdsCopies(start..<end, &seen) else { continue }
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: start..<end)
        order.sort(by: before)
        let sortedXY = order.flatMap { [coords[2 * $0], coords[2 * $0 + 1]] }
        let sortedIDs = order.map { ids[$0] }
        coords.replaceSubrange((2 * start)..<(2 * end), with: sortedXY)
        ids.replaceSubrange(start..<end, with: sortedIDs)
      }
      var copies = 0
      for i in (start + 1)..<end where coords[2 * i] == coords[2 * i - 2] && coords[2 * i + 1] == coords[2 * i - 1] {
        copies += 1
      }
      guard copies > 0 else { continue }
      total += copies
      if marks.isEmpty { marks = [UInt64](repeating: 0, count: slots / 64 + 1) }
      marks[s >> 6] |= 1 << UInt64(s & 63)
    }
    sortedCells = marks
    return total
  }

  /// Whether two points at `range` may lie at one position: a hash set of
  /// their positions, `seen` its reused table (a false yes costs a sort).
  func holdsCopies(_ range: Range<Int>, _ seen: inout [UInt64]) -> Bool {
    var size = 16
    while size < 2 * range.count { size *= 2 }
    if seen.count < size { seen = [UInt64](repeating: 0, count: size) }
    let mask = size - 1
    for i in 0..<size { seen[i] = 0 }
    for i in range {
      // + 0 makes -0.0 the same as 0.0, as == has it
      let x = (coords[2 * i] + 0).bitPattern, y = (coords[2 * i + 1] + 0).bitPattern
      var h = (x &* 0x9E37_79B9_7F4A_7C15) ^ (y &* 0xC2B2_AE3D_27D4_EB4F)
      h ^= h >> 29
      if h == 0 { h = 1 }
      var slot = Int(truncatingIfNeeded: h) & mask
      while seen[slot] != 0 {
        if seen[slot] == h { return true }
        slot = (slot + 1) & mask
      }
      seen[slot] = h
    }
    return false
  }

  /// The grid over `points` (see ``init(building:ids:parameters:nextID:cellsFor:)``),
  /// its crowded cells sorted. When copies in them are most of the points
  /// and the cell size is automatic, it is built again with cells for the
  /// other points only: the automatic size counts points, and a million
  /// copies and a few points beside them made a grid of a quarter of a
  /// million cells, nearly all empty, that a search visited one by one.
  static func built(
    _ points: [Point], ids pointIDs: [Int32]?, parameters: Parameters, nextID: Int32
  ) throws(IndexError) -> Self {
    var grid = try Self(building: points, ids: pointIDs, parameters: parameters, nextID: nextID)
    let copies = grid.sortCrowdedCells()
    guard parameters.cellSize == nil, 2 * copies > points.count else { return grid }
    grid = try Self(building: points, ids: pointIDs, parameters: parameters, nextID: nextID,
                    cellsFor: points.count - copies)
    grid.sortCrowdedCells()
    return grid
  }

  /// The protocol's search through range queries
  /// (``SpatialIndex/_nearestThroughRanges(to:k:maxDistance:points:into:counters:kWithinMax:)``),
  /// which the ring search ends with, for a grid with a sorted cell: the
  /// same circles, from the same first radius, but each cell whose range
  /// meets them offered whole, once (points outside a circle are farther
  /// than its radius, the search's maximum distance, and are dropped), and
  /// a sorted cell a run of copies at a time.
  @inlinable
  func _nearestThroughCells<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double, into buffer: inout NearestBuffer, counters: inout C,
    kWithinMax: Bool
  ) {
    buffer.reset()
    guard let center = _nearestCenter(position, k: k, maxDistance: maxDistance, count: count) else { return }
    let area = 4 * Double.pi * GreatCircle.earthRadius * GreatCircle.earthRadius
    var radius = kWithinMax
      ? maxDistance : Swift.min(maxDistance, Swift.max(1, (area * Double(k) / Double(count) / .pi).squareRoot()))
    let metric = _SphereMetric(center: center)
    let g = geometry
    while true {
      var search = _NearestSearch(taking: &buffer, metric: metric, k: k, maxDistance: radius)
      let (first, second) = GreatCircle.boxes(around: center, radius: radius)
      // the cells of the first box, which the second's must not offer again
      let taken = first.intersects(box)
        ? (g.column(first.minX), g.column(first.maxX), g.row(first.minY), g.row(first.maxY)) : (1, 0, 1, 0)
      var cells = 0, tested = 0
      keys.withUnsafeBufferPointer { keys in
        coords.withUnsafeBufferPointer { xy in
          ids.withUnsafeBufferPointer { ids in
            for part in 0..<(second == nil ? 1 : 2) {
              let rect = part == 0 ? first : second!
              _ = _forEachCell(in: rect, cellsVisited: &cells, merge: false) { start, n, _, c, r in
                if part == 1 && c >= taken.0 && c <= taken.1 && r >= taken.2 && r <= taken.3 { return true }
                let slot = isSparse
                  ? Self._slot(of: _GridGeometry.key(column: c, row: r), in: keys, shift: hashShift)
                  : r &* g.cellsX &+ c
                if _isSortedCell(slot) {
                  tested &+= search.considerSortedLeaf(xy.baseAddress!, ids.baseAddress!, start..<(start &+ n))
                } else {
                  tested &+= n
                  search.considerLeaf(xy.baseAddress!, ids.baseAddress!, start..<(start &+ n))
                }
                return true
              }
            }
          }
        }
      }
      counters.visitNodes(cells)
      counters.testPoints(tested)
      search.end(into: &buffer)
      let everywhere = radius >= .pi * GreatCircle.earthRadius
      if buffer.neighbors.count >= k || radius >= maxDistance || everywhere { break }
      radius = Swift.min(maxDistance, radius * 4)
    }
  }
}
