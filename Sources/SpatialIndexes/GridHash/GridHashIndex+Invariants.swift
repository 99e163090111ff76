extension GridHashIndex: InvariantChecking {
  /// Checks the pool, the cells and (sparse) the hash table: every live point
  /// is in exactly one cell's run, in the cell its coordinates map to; runs
  /// lie inside the pool without overlapping; holes and counts add up; every
  /// stored key is unique and reachable from its home slot; a cell marked
  /// sorted is in order by position, then id.
  ///
  /// - Complexity: O(pool slots + cells + `nextID`).
  package func _invariantViolations() -> [String] {
    var problems: [String] = []
    func note(_ s: @autoclosure () -> String) {
      if problems.count < 20 { problems.append(s()) }
    }
    let g = geometry
    if !(g.cellSize > 0 && g.inverseCellSize.isFinite && g.inverseCellSize > 0) {
      note("cell size \(g.cellSize), inverse \(g.inverseCellSize)")
    }
    if g.cellsX < 1 || g.cellsY < 1 || g.cellsX > _GridGeometry.axisLimit
      || g.cellsY > _GridGeometry.axisLimit {
      note("grid \(g.cellsX)x\(g.cellsY)")
    }
    if coords.count != 2 * ids.count { note("coords \(coords.count) for \(ids.count) slots") }
    let slots = runs.count / 2
    if runs.count % 2 != 0 { note("runs has odd length \(runs.count)") }
    if isSparse {
      if keys.count != slots { note("\(keys.count) keys for \(slots) cell entries") }
      if keys.count < 2 || keys.count & (keys.count - 1) != 0 {
        note("table size \(keys.count) is not a power of two")
      }
      if 1 << (64 - hashShift) != keys.count { note("hash shift \(hashShift) for \(keys.count)") }
      if 2 * occupiedSlots > keys.count { note("table over half full: \(occupiedSlots)") }
    } else if slots != g.cellsX * g.cellsY {
      note("\(slots) cells for a \(g.cellsX)x\(g.cellsY) grid")
    }
    if !capacities.isEmpty, capacities.count != slots {
      note("\(capacities.count) capacities for \(slots) cells")
    }

    var owned = [Bool](repeating: false, count: ids.count)
    var seen = [Bool](repeating: false, count: Int(max(nextIDValue, 0)))
    var live = 0, capacityTotal = 0, occupied = 0
    var seenKeys = Set<Int64>()
    for s in 0..<slots {
      let start = Int(runs[2 * s]), n = Int(runs[2 * s + 1])
      let capacity = capacities.isEmpty ? n : Int(capacities[s])
      if isSparse, s < keys.count {
        let key = keys[s]
        if key < 0 {
          if n != 0 || capacity != 0 { note("empty slot \(s) has count \(n), capacity \(capacity)") }
          continue
        }
        occupied += 1
        if !seenKeys.insert(key).inserted { note("key \(key) stored twice") }
        let found = keys.withUnsafeBufferPointer { Self._slot(of: key, in: $0, shift: hashShift) }
        if found != s { note("key \(key) in slot \(s) is found at \(found)") }
      }
      guard n >= 0, n <= capacity, start >= 0, start + capacity <= ids.count else {
        note("cell \(s): start \(start), count \(n), capacity \(capacity), pool \(ids.count)")
        continue
      }
      live += n
      capacityTotal += capacity
      if _isSortedCell(s) {
        for i in (start + 1)..<max(start + 1, start + n) {
          let a = (coords[2 * i - 2], coords[2 * i - 1], ids[i - 1]), b = (coords[2 * i], coords[2 * i + 1], ids[i])
          if !(a < b) { note("cell \(s) is marked sorted, but slot \(i - 1) \(a) is not before \(b)") }
        }
      }
      for i in start..<(start + capacity) {
        if owned[i] { note("pool slot \(i) owned twice") }
        owned[i] = true
      }
      for i in start..<(start + n) {
        let p = Point(x: coords[2 * i], y: coords[2 * i + 1])
        let id = Int(ids[i])
        if !box.contains(p) { note("id \(id) at \(p) lies outside the box \(box)") }
        if id < 0 || id >= seen.count {
          note("cell \(s) holds id \(id), next id is \(nextIDValue)")
        } else if seen[id] {
          note("id \(id) held twice")
        } else {
          seen[id] = true
          if !positions.isEmpty && (id >= positions.count || Int(positions[id]) != i) {
            note("id \(id) is at pool slot \(i), its position says \(id < positions.count ? Int(positions[id]) : -1)")
          }
        }
        guard p.isFinite else {
          note("id \(id) has non-finite \(p)")
          continue
        }
        let c = g.column(p.x), r = g.row(p.y)
        let home = isSparse ? Int(_GridGeometry.key(column: c, row: r)) : r * g.cellsX + c
        let here = isSparse ? Int(keys[s]) : s
        if home != here { note("id \(id) at \(p) belongs to cell \(c),\(r), is in \(s)") }
      }
    }
    if isSparse, occupied != occupiedSlots {
      note("\(occupied) occupied slots, counted \(occupiedSlots)")
    }
    if !positions.isEmpty {
      let placed = positions.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }
      if placed != live { note("\(placed) ids have a position, \(live) points in cells") }
    }
    if live != liveCount { note("\(live) points in cells, count says \(liveCount)") }
    if capacityTotal + holes != ids.count {
      note("capacities \(capacityTotal) + holes \(holes) != pool \(ids.count)")
    }
    return problems
  }
}
