extension _GridGeometry {
  /// The grid over `bounds` (`nil`: no points) for `n` points.
  ///
  /// Throws when an explicit cell size would need more than 2³¹ columns or
  /// rows over the data; the automatic size never does (it clamps).
  init(bounds: Rect?, count n: Int, parameters: GridHashIndex.Parameters) throws(IndexError) {
    let b = bounds ?? Rect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    let size = parameters.cellSize
      ?? Self.automaticCellSize(bounds: b, count: n, pointsPerCell: parameters.pointsPerCell)
    originX = b.minX
    originY = b.minY
    cellSize = size
    inverseCellSize = 1 / size
    let limit = Double(Self.axisLimit - 1)
    // (max - min) may overflow to infinity for coordinates near ±1.8e308
    let spanX = (b.maxX - b.minX) * inverseCellSize
    let spanY = (b.maxY - b.minY) * inverseCellSize
    if parameters.cellSize != nil, !(spanX <= limit && spanY <= limit) {
      throw .invalidParameter(
        name: "cellSize", value: "\(size)",
        reason: "the data (\(b.width) × \(b.height) degrees) would need more than 2^31 "
          + "columns or rows; use a larger cell size")
    }
    cellsX = Int(spanX >= 0 ? min(spanX, limit) : 0) + 1
    cellsY = Int(spanY >= 0 ? min(spanY, limit) : 0) + 1
    lastColumn = Double(cellsX - 1)
    lastRow = Double(cellsY - 1)
  }

  /// The side `s` for about `T = n / pointsPerCell` cells over `bounds`.
  ///
  /// Solves `(w/s + 1)(h/s + 1) = T` (the `+ 1` is the last, partial cell of
  /// each axis). With half extents `a = w/2`, `b = h/2` and `v = 2/s` this is
  /// `ab·v² + (a + b)·v + 1 - T = 0`, whose positive root, written to avoid
  /// cancellation, gives `s = ((a + b) + √((a + b)² + 4ab(T - 1))) / (T - 1)`.
  /// It needs no division by `w` or `h`: zero-width data gets one column of
  /// `T` rows, identical points one cell. Half extents keep `max - min`
  /// from overflowing.
  static func automaticCellSize(bounds: Rect, count n: Int, pointsPerCell: Int) -> Double {
    let a = bounds.maxX * 0.5 - bounds.minX * 0.5
    let b = bounds.maxY * 0.5 - bounds.minY * 0.5
    let target = Double(n) / Double(pointsPerCell)
    guard a + b > 0 else { return 1 }  // one point, or all identical: any size is one cell
    guard target > 1 else { return min(2 * max(a, b), .greatestFiniteMagnitude) }
    let sum = a + b
    let s = (sum + (sum * sum + 4 * a * b * (target - 1)).squareRoot()) / (target - 1)
    // an overflow gives infinity: the largest size still makes a valid grid
    guard s.isFinite else { return .greatestFiniteMagnitude }
    // below ~1e-300 the reciprocal overflows; such data has a few cells anyway
    return max(s, 0x1p-1000)
  }
}

extension GridHashIndex {
  /// Lays `points` out by cell; `ids[i]` (or `i` when `ids` is `nil`) is the
  /// id of `points[i]`. The points are already validated. The automatic
  /// cell size is for `cellsFor` points (default all: see
  /// ``built(_:ids:parameters:nextID:)``). Crowded cells are left unsorted.
  init(building points: [Point], ids pointIDs: [Int32]?, parameters: Parameters,
       nextID: Int32, cellsFor: Int? = nil) throws(IndexError) {
    let n = points.count
    let bounds = Rect(bounding: points)
    let g = try _GridGeometry(bounds: bounds, count: cellsFor ?? n, parameters: parameters)
    let cells = g.cellsX * g.cellsY  // ≤ 2^62: no overflow
    let sparse: Bool
    switch parameters.storage {
    case .dense:
      guard cells <= Self.denseMaximumCells else {
        throw .invalidParameter(
          name: "storage", value: "dense",
          reason: "the grid has \(g.cellsX)x\(g.cellsY) cells, more than \(Self.denseMaximumCells)")
      }
      sparse = false
    case .sparse:
      sparse = true
    case .auto:
      sparse = cells > max(Self.denseCellsPerPoint * n, Self.denseMinimumCells)
    }

    self.parameters = parameters
    geometry = g
    box = bounds ?? Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    isSparse = sparse
    capacities = []
    sortedCells = []
    holes = 0
    liveCount = n
    nextIDValue = nextID
    builtCount = n
    insertsSinceBuild = 0
    coords = []
    ids = []

    // pass 1: the cell slot of every point (sparse: occupied keys enter the table)
    var slotOf = [Int](repeating: 0, count: n)
    if sparse {
      keys = [Int64](repeating: -1, count: 16)
      hashShift = 64 - 4
      occupiedSlots = 0
      runs = [Int32](repeating: 0, count: 2 * 16)
      for i in 0..<n {
        let p = points[i]
        let key = _GridGeometry.key(column: g.column(p.x), row: g.row(p.y))
        slotOf[i] = Int(key)
        _ = slotForInsert(key: key)
      }
      keys.withUnsafeBufferPointer { keys in
        for i in 0..<n {
          slotOf[i] = Self._slot(of: Int64(slotOf[i]), in: keys, shift: hashShift)
        }
      }
    } else {
      keys = []
      hashShift = 64
      occupiedSlots = 0
      runs = [Int32](repeating: 0, count: 2 * cells)
      // each part counts per cell: at most two counts a point in all
      let parts = Swift.min(parameters.resolvedThreads, Self.maximumBuildParts, 2 * n / Swift.max(1, cells))
      if parts > 1 && Self.parallelBuildRange.contains(n) {
        (coords, ids) = Self.denseLayoutInParallel(points, pointIDs, g, parts: parts, runs: &runs)
        return
      }
      for i in 0..<n {
        let p = points[i]
        slotOf[i] = g.row(p.y) &* g.cellsX &+ g.column(p.x)
      }
    }

    // pass 2: counting sort into the pool
    var xy = [Double](repeating: 0, count: 2 * n)
    var pool = [Int32](repeating: 0, count: n)
    runs.withUnsafeMutableBufferPointer { runs in
      for s in slotOf { runs[2 * s + 1] &+= 1 }
      var start: Int32 = 0
      for c in 0..<(runs.count / 2) {
        runs[2 * c] = start
        start &+= runs[2 * c + 1]
        runs[2 * c + 1] = 0
      }
      xy.withUnsafeMutableBufferPointer { xy in
        pool.withUnsafeMutableBufferPointer { pool in
          for i in 0..<n {
            let s = slotOf[i]
            let at = Int(runs[2 * s] &+ runs[2 * s + 1])
            runs[2 * s + 1] &+= 1
            xy[2 * at] = points[i].x
            xy[2 * at + 1] = points[i].y
            pool[at] = pointIDs?[i] ?? Int32(truncatingIfNeeded: i)
          }
        }
      }
    }
    coords = xy
    ids = pool
  }

  /// The sizes a dense build runs on several threads at. The build is a
  /// scatter of every point to a random place in the output, bound by the
  /// memory more than the cores: `bench speed --index grid --param
  /// threads=T --n N`, separate processes, two or three rounds, 2 cores:
  /// 1M 26-34 ms on one thread, 21-27 ms on two; 3M 128-159, 115-116;
  /// 10M 583-608, 683-725 (two threads scattering into 240 MB slow each
  /// other down). Below 2^17 points the threads cost more than they save.
  static let parallelBuildRange = (1 << 17)...(1 << 22)
  /// The most parts a parallel build splits the points into: each keeps a
  /// count per cell (4 bytes a cell a part).
  static let maximumBuildParts = 8

  /// The dense counting sort on `parts` threads: the points are split into
  /// `parts` consecutive ranges, each counts its points per cell, a serial
  /// pass turns the counts into each range's first position in every cell
  /// (cell by cell, range after range), and each range then writes its own
  /// points. Within a cell the points keep their input order, as in the
  /// serial pass: the layout is the same value for value.
  static func denseLayoutInParallel(
    _ points: [Point], _ pointIDs: [Int32]?, _ g: _GridGeometry, parts: Int, runs: inout [Int32]
  ) -> (coords: [Double], ids: [Int32]) {
    let n = points.count, cells = g.cellsX * g.cellsY
    func range(_ c: Int) -> Range<Int> { (n * c / parts)..<(n * (c + 1) / parts) }
    var slotOf = [Int32](repeating: 0, count: n)
    // per part and cell: its count, then where its next point goes
    var next = [Int32](repeating: 0, count: parts * cells)
    var xy = [Double](repeating: 0, count: 2 * n)
    var pool = [Int32](repeating: 0, count: n)
    slotOf.withUnsafeMutableBufferPointer { slotOf in
      next.withUnsafeMutableBufferPointer { next in
        _forEach(Array(0..<parts), threads: parts) { c in
          for i in range(c) {
            let p = points[i]
            let s = g.row(p.y) &* g.cellsX &+ g.column(p.x)
            slotOf[i] = Int32(truncatingIfNeeded: s)
            next[c &* cells &+ s] &+= 1
          }
        }
        runs.withUnsafeMutableBufferPointer { runs in
          var start: Int32 = 0
          for s in 0..<cells {
            runs[2 * s] = start
            for c in 0..<parts {
              let k = next[c &* cells &+ s]
              next[c &* cells &+ s] = start
              start &+= k
            }
            runs[2 * s + 1] = start &- runs[2 * s]
          }
        }
        xy.withUnsafeMutableBufferPointer { xy in
          pool.withUnsafeMutableBufferPointer { pool in
            _forEach(Array(0..<parts), threads: parts) { c in
              for i in range(c) {
                let k = c &* cells &+ Int(slotOf[i])
                let at = Int(next[k])
                next[k] &+= 1
                xy[2 * at] = points[i].x
                xy[2 * at + 1] = points[i].y
                pool[at] = pointIDs?[i] ?? Int32(truncatingIfNeeded: i)
              }
            }
          }
        }
      }
    }
    return (xy, pool)
  }

  // MARK: The sparse hash table

  /// The home slot of `key`: aligned groups of 8 columns of a row share one
  /// hash (Fibonacci hashing: the top bits of the group times 2⁶⁴/φ) and
  /// take consecutive slots, so a query's lookups along a row touch one
  /// cache line of keys, and the build lays their runs out side by side.
  @inlinable @inline(__always)
  static func _home(of key: Int64, shift: Int) -> Int {
    let group = UInt64(bitPattern: key) &>> 3
    let h = Int(truncatingIfNeeded: (group &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(shift))
    return (h & ~7) | Int(truncatingIfNeeded: key & 7)
  }

  /// The table slot holding `key`, or -1. The table is never more than half
  /// full, so the probe meets an empty slot.
  @inlinable @inline(__always)
  static func _slot(of key: Int64, in keys: UnsafeBufferPointer<Int64>, shift: Int) -> Int {
    let mask = keys.count &- 1
    var i = _home(of: key, shift: shift)
    while true {
      let k = keys[i]
      if k == key { return i }
      if k < 0 { return -1 }
      i = (i &+ 1) & mask
    }
  }

  /// The slot of `key`, adding the key (and growing the table) if absent.
  mutating func slotForInsert(key: Int64) -> Int {
    let found = keys.withUnsafeBufferPointer { Self._slot(of: key, in: $0, shift: hashShift) }
    if found >= 0 { return found }
    if 2 * (occupiedSlots + 1) > keys.count { growTable() }
    let mask = keys.count - 1
    var i = Self._home(of: key, shift: hashShift)
    while keys[i] >= 0 { i = (i + 1) & mask }
    keys[i] = key
    occupiedSlots += 1
    return i
  }

  /// Doubles the table, moving each cell's entry with its key.
  mutating func growTable() {
    let size = keys.count * 2
    let shift = hashShift - 1
    var newKeys = [Int64](repeating: -1, count: size)
    var newRuns = [Int32](repeating: 0, count: 2 * size)
    var newCaps = [Int32](repeating: 0, count: capacities.isEmpty ? 0 : size)
    var newSorted = [UInt64](repeating: 0, count: sortedCells.isEmpty ? 0 : size / 64 + 1)
    let mask = size - 1
    for s in 0..<keys.count where keys[s] >= 0 {
      var i = Self._home(of: keys[s], shift: shift)
      while newKeys[i] >= 0 { i = (i + 1) & mask }
      newKeys[i] = keys[s]
      newRuns[2 * i] = runs[2 * s]
      newRuns[2 * i + 1] = runs[2 * s + 1]
      if !capacities.isEmpty { newCaps[i] = capacities[s] }
      if _isSortedCell(s) { newSorted[i >> 6] |= 1 << UInt64(i & 63) }
    }
    keys = newKeys
    runs = newRuns
    capacities = newCaps
    sortedCells = newSorted
    hashShift = shift
  }
}
