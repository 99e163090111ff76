extension GridHashIndex {
  /// Calls `body(start, count, interior, column, row)` for the non-empty
  /// cells that the cell range of `rect` covers; `interior` runs need no
  /// point test (see the type's documentation). With `merge`, consecutive
  /// cells of the same kind whose runs are adjacent in the pool (a row of a
  /// freshly built dense grid) are passed as one run, and `column`, `row`
  /// are those of its first cell; without, each cell alone. Stops and
  /// returns `false` when `body` does.
  ///
  /// `rect` must be valid (no NaN, min ≤ max); infinite bounds are fine.
  @inlinable @inline(__always)
  func _forEachCell(
    in rect: Rect, cellsVisited: inout Int, merge: Bool = true,
    _ body: (_ start: Int, _ count: Int, _ interior: Bool, _ column: Int, _ row: Int) -> Bool
  ) -> Bool {
    guard rect.intersects(box) else { return true }
    let g = geometry
    let c0 = g.column(rect.minX), c1 = g.column(rect.maxX)
    let r0 = g.row(rect.minY), r1 = g.row(rect.maxY)
    var visited = 0
    defer { cellsVisited &+= visited }
    // the pending run: passed on when the next cell does not extend it
    var runStart = 0, runCount = 0, runInterior = false, runColumn = 0, runRow = 0
    @inline(__always)
    func add(_ start: Int, _ n: Int, _ interior: Bool, _ c: Int, _ r: Int) -> Bool {
      if !merge { return body(start, n, interior, c, r) }
      if runCount > 0, (interior != runInterior) || (start != runStart &+ runCount) {
        if !body(runStart, runCount, runInterior, runColumn, runRow) { return false }
        runCount = 0
      }
      if runCount == 0 {
        runStart = start
        runInterior = interior
        runColumn = c
        runRow = r
      }
      runCount &+= n
      return true
    }
    let finished = runs.withUnsafeBufferPointer { runs in
      if !isSparse {
        for r in r0...r1 {
          let innerRow = (r > r0) && (r < r1)
          let base = r &* g.cellsX
          for c in c0...c1 {
            visited &+= 1
            let k = base &+ c
            let n = Int(runs[2 &* k &+ 1])
            if n > 0, !add(Int(runs[2 &* k]), n, innerRow && (c > c0) && (c < c1), c, r) {
              return false
            }
          }
        }
        return true
      }
      return keys.withUnsafeBufferPointer { keys in
        // each axis has at most 2^31 cells: the product does not overflow
        let rangeCells = (c1 &- c0 &+ 1) &* (r1 &- r0 &+ 1)
        if rangeCells <= keys.count / 8 {
          // a small range: look each cell up; a lookup costs several times
          // a slot of the scan below (measured), hence the factor 8
          for r in r0...r1 {
            let innerRow = (r > r0) && (r < r1)
            for c in c0...c1 {
              visited &+= 1
              let s = Self._slot(
                of: _GridGeometry.key(column: c, row: r), in: keys, shift: hashShift)
              guard s >= 0 else { continue }
              let n = Int(runs[2 &* s &+ 1])
              if n > 0, !add(Int(runs[2 &* s]), n, innerRow && (c > c0) && (c < c1), c, r) {
                return false
              }
            }
          }
          return true
        }
        // a range larger than the table: visit the occupied cells instead
        for s in 0..<keys.count {
          let key = keys[s]
          guard key >= 0 else { continue }
          visited &+= 1
          let c = _GridGeometry.column(ofKey: key), r = _GridGeometry.row(ofKey: key)
          guard (c >= c0) && (c <= c1) && (r >= r0) && (r <= r1) else { continue }
          let n = Int(runs[2 &* s &+ 1])
          let interior = (c > c0) && (c < c1) && (r > r0) && (r < r1)
          if n > 0, !add(Int(runs[2 &* s]), n, interior, c, r) { return false }
        }
        return true
      }
    }
    guard finished else { return false }
    return runCount == 0 || body(runStart, runCount, runInterior, runColumn, runRow)
  }

  /// - Complexity: O(cells in range + points in border cells + ids reported).
  @inlinable @discardableResult
  public func forEach<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool
  ) -> Bool {
    guard rect.isValid, liveCount > 0 else { return true }
    var cells = 0, tested = 0, reported = 0
    let finished = coords.withUnsafeBufferPointer { xy in
      ids.withUnsafeBufferPointer { ids in
        _forEachCell(in: rect, cellsVisited: &cells) { start, n, interior, _, _ in
          if interior {
            for i in start..<(start &+ n) {
              reported &+= 1
              if !visit(ids[i]) { return false }
            }
          } else {
            tested &+= n
            for i in start..<(start &+ n)
            where rect.contains(x: xy[2 &* i], y: xy[2 &* i &+ 1]) {
              reported &+= 1
              if !visit(ids[i]) { return false }
            }
          }
          return true
        }
      }
    }
    counters.visitNodes(cells)
    counters.testPoints(tested)
    counters.reportPoints(reported)
    return finished
  }

  /// Interior runs are appended whole; the ids of a border run that pass
  /// the branch-free test are gathered in a small stack buffer (the write
  /// position advances by 0 or 1) and appended a block at a time.
  ///
  /// - Complexity: O(cells in range + points in border cells + ids reported).
  @inlinable
  public func query<C: QueryCounters>(
    in rect: Rect, into result: inout [Int32], counters: inout C
  ) {
    guard rect.isValid, liveCount > 0 else { return }
    var cells = 0, tested = 0, reported = 0
    let block = 256
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: block) { scratch in
      coords.withUnsafeBufferPointer { xy in
        ids.withUnsafeBufferPointer { ids in
          _ = _forEachCell(in: rect, cellsVisited: &cells) { start, n, interior, _, _ in
            if interior {
              reported &+= n
              result.append(contentsOf: UnsafeBufferPointer(rebasing: ids[start..<(start &+ n)]))
              return true
            }
            tested &+= n
            var from = start
            let end = start &+ n
            while from < end {
              let to = Swift.min(from &+ block, end)
              var k = 0
              for i in from..<to {
                scratch[k] = ids[i]
                k &+= rect.contains(x: xy[2 &* i], y: xy[2 &* i &+ 1]) ? 1 : 0
              }
              if k > 0 { result.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<k])) }
              reported &+= k
              from = to
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

  /// Interior cells add their counts without touching their points.
  ///
  /// - Complexity: O(cells in range + points in border cells).
  @inlinable
  public func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int {
    guard rect.isValid, liveCount > 0 else { return 0 }
    var cells = 0, tested = 0, total = 0
    coords.withUnsafeBufferPointer { xy in
      _ = _forEachCell(in: rect, cellsVisited: &cells) { start, n, interior, _, _ in
        if interior {
          total &+= n
        } else {
          tested &+= n
          for i in start..<(start &+ n) {
            total &+= rect.contains(x: xy[2 &* i], y: xy[2 &* i &+ 1]) ? 1 : 0
          }
        }
        return true
      }
    }
    counters.visitNodes(cells)
    counters.testPoints(tested)
    counters.reportPoints(total)
    return total
  }

  /// ``forEach(in:counters:_:)`` handing each point's coordinates with its
  /// id, counted the same: what k-nearest's range queries read.
  @inlinable
  func _forEachPoint<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32, Double, Double) -> Void
  ) {
    guard rect.isValid, liveCount > 0 else { return }
    var cells = 0, tested = 0, reported = 0
    coords.withUnsafeBufferPointer { xy in
      ids.withUnsafeBufferPointer { ids in
        _ = _forEachCell(in: rect, cellsVisited: &cells) { start, n, interior, _, _ in
          if !interior { tested &+= n }
          for i in start..<(start &+ n) {
            let x = xy[2 &* i], y = xy[2 &* i &+ 1]
            guard interior || rect.contains(x: x, y: y) else { continue }
            reported &+= 1
            visit(ids[i], x, y)
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
