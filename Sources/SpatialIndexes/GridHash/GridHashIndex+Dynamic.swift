extension GridHashIndex {
  /// Inserts since the last build that trigger a rebuild: at least this many,
  /// and at least the number of points held at that build.
  static let rebuildMinimumInserts = 64

  /// Adds `point` to its cell (a border cell if it lies outside the build bounds).
  ///
  /// A full cell moves to the end of the pool with twice its capacity. After
  /// as many inserts as the index held at its last build, the grid is rebuilt
  /// over the current points, so its bounds and automatic cell size follow them.
  ///
  /// - Complexity: O(points in the cell) amortised.
  public mutating func insert(_ point: Point) throws(IndexError) -> Int32 {
    guard point.isFinite else { throw .nonFinitePoint(id: Int(nextIDValue), point: point) }
    guard nextIDValue < Int32.max else {
      throw .tooManyPoints(count: Int(nextIDValue) + 1, limit: maximumPointCount)
    }
    let id = nextIDValue
    try add(point, id: id)
    nextIDValue += 1
    afterAdding()
    return id
  }

  /// Where the point goes: in its cell's slot when it stays in that cell (no
  /// other point moves); otherwise out of the old cell and into the new one
  /// under the same id, counted as an insert towards the next rebuild.
  ///
  /// - Complexity: O(1) amortised (the first change indexes every id's slot).
  @discardableResult
  public mutating func move(id: Int32, from: Point, to: Point) throws(IndexError) -> Bool {
    guard let (slot, at) = find(id: id, at: from) else { return false }
    guard to.isFinite else { throw .nonFinitePoint(id: Int(id), point: to) }
    if cellSlot(of: to) == slot {
      markUnsorted(slot)
      coords[2 * at] = to.x
      coords[2 * at + 1] = to.y
      box.expand(toHold: to)
      return true
    }
    remove(id: id, at: from)
    do {
      try add(to, id: id)
    } catch {
      try add(from, id: id)  // back where it was: fails only past 2^31 pool slots, as the add did
      throw error
    }
    afterAdding()
    return true
  }

  /// The slot of the cell `p` maps to, if the grid has that cell.
  func cellSlot(of p: Point) -> Int? {
    let c = geometry.column(p.x), r = geometry.row(p.y)
    guard isSparse else { return r * geometry.cellsX + c }
    let slot = keys.withUnsafeBufferPointer {
      Self._slot(of: _GridGeometry.key(column: c, row: r), in: $0, shift: hashShift)
    }
    return slot >= 0 ? slot : nil
  }

  /// The cell slot and pool position of the point `id` held at `point`.
  mutating func find(id: Int32, at point: Point) -> (slot: Int, at: Int)? {
    guard point.isFinite, id >= 0, id < nextIDValue, let slot = cellSlot(of: point) else { return nil }
    if positions.isEmpty { indexPositions() }
    let at = Int(positions[Int(id)]), start = Int(runs[2 * slot]), n = Int(runs[2 * slot + 1])
    guard at >= start, at < start + n, ids[at] == id,
          coords[2 * at] == point.x, coords[2 * at + 1] == point.y else { return nil }
    return (slot, at)
  }

  /// Makes ``positions`` from the cells' runs.
  mutating func indexPositions() {
    positions = [Int32](repeating: -1, count: Int(nextIDValue))
    for c in 0..<(runs.count / 2) {
      let start = Int(runs[2 * c]), n = Int(runs[2 * c + 1])
      for i in start..<(start + n) { positions[Int(ids[i])] = Int32(truncatingIfNeeded: i) }
    }
  }

  /// Starts loading where point `id` sits in the pool.
  @inlinable
  public func prefetchMove(id: Int32) {
    guard id >= 0, Int(id) < positions.count else { return }
    positions.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + Int(id)) }
  }

  /// Starts loading the pool slot of point `id` (its position loaded by then).
  @inlinable
  public func prefetchMoveTarget(id: Int32) {
    guard id >= 0, Int(id) < positions.count else { return }
    let at = Int(positions[Int(id)])
    guard at >= 0, at < ids.count else { return }
    ids.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + at) }
    coords.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + 2 &* at) }
  }

  /// Writes `id` into pool slot `at`, and its position.
  @inline(__always)
  private mutating func place(_ id: Int32, at: Int) {
    ids[at] = id
    if !positions.isEmpty { positions[Int(id)] = Int32(truncatingIfNeeded: at) }
  }

  /// Puts a finite `point` under `id` at the end of its cell.
  private mutating func add(_ point: Point, id: Int32) throws(IndexError) {
    let slot = isSparse
      ? slotForInsert(key: _GridGeometry.key(
          column: geometry.column(point.x), row: geometry.row(point.y)))
      : geometry.row(point.y) * geometry.cellsX + geometry.column(point.x)
    materializeCapacities()
    markUnsorted(slot)
    let n = Int(runs[2 * slot + 1])
    if n == Int(capacities[slot]) { try grow(slot: slot) }
    let at = Int(runs[2 * slot]) + n
    coords[2 * at] = point.x
    coords[2 * at + 1] = point.y
    box.expand(toHold: point)
    if !positions.isEmpty && Int(id) >= positions.count {  // a new id
      positions.append(contentsOf: repeatElement(-1, count: Int(id) + 1 - positions.count))
    }
    place(id, at: at)
    runs[2 * slot + 1] += 1
    liveCount += 1
  }

  /// After a point joined a cell: a rebuild once the inserts since the last
  /// one reach the count it was built with, else a compaction when holes
  /// outnumber half the pool.
  private mutating func afterAdding() {
    insertsSinceBuild += 1
    if insertsSinceBuild >= max(Self.rebuildMinimumInserts, builtCount) {
      rebuild()
    } else if holes > ids.count / 2 {
      compact()
    }
  }

  /// Removes `id` from the cell `point` maps to, moving the cell's last point
  /// into its slot.
  ///
  /// - Returns: `false` if that cell holds no point `id` at `point`.
  /// - Complexity: O(1) amortised.
  @discardableResult
  public mutating func remove(id: Int32, at point: Point) -> Bool {
    guard let (slot, at) = find(id: id, at: point) else { return false }
    let start = Int(runs[2 * slot]), n = Int(runs[2 * slot + 1])
    materializeCapacities()  // the cell keeps the slot it frees
    markUnsorted(slot)
    let last = start + n - 1
    if !positions.isEmpty { positions[Int(id)] = -1 }
    if at != last { place(ids[last], at: at) }
    coords[2 * at] = coords[2 * last]
    coords[2 * at + 1] = coords[2 * last + 1]
    runs[2 * slot + 1] -= 1
    liveCount -= 1
    if ids.count > Self.rebuildMinimumInserts, liveCount < ids.count / 4 { compact() }
    return true
  }

  /// Gives every cell an explicit capacity (equal to its count) before a change.
  mutating func materializeCapacities() {
    guard capacities.isEmpty else { return }
    let cells = runs.count / 2
    capacities = [Int32](unsafeUninitializedCapacity: cells) { buffer, initialized in
      for c in 0..<cells { buffer[c] = runs[2 * c + 1] }
      initialized = cells
    }
  }

  /// Moves the run of a full cell to the end of the pool with twice the
  /// capacity (or extends it in place when it already ends the pool).
  mutating func grow(slot: Int) throws(IndexError) {
    let start = Int(runs[2 * slot]), capacity = Int(capacities[slot])
    let newCapacity = max(2, 2 * capacity)
    let atEnd = capacity > 0 && start + capacity == ids.count
    let extra = atEnd ? newCapacity - capacity : newCapacity
    if ids.count + extra > Int(Int32.max) {
      compact()
      materializeCapacities()
      if ids.count + newCapacity > Int(Int32.max) {
        throw .tooManyPoints(count: liveCount + 1, limit: maximumPointCount)
      }
      return try grow(slot: slot)
    }
    let newStart = atEnd ? start : ids.count
    coords.append(contentsOf: repeatElement(0, count: 2 * extra))
    ids.append(contentsOf: repeatElement(0, count: extra))
    if !atEnd {
      let n = Int(runs[2 * slot + 1])
      for i in 0..<n {
        place(ids[start + i], at: newStart + i)
        coords[2 * (newStart + i)] = coords[2 * (start + i)]
        coords[2 * (newStart + i) + 1] = coords[2 * (start + i) + 1]
      }
      holes += capacity
      runs[2 * slot] = Int32(newStart)
    }
    capacities[slot] = Int32(newCapacity)
  }

  /// Lays the runs out again contiguously in cell order, capacity == count.
  mutating func compact() {
    var xy = [Double](repeating: 0, count: 2 * liveCount)
    var pool = [Int32](repeating: 0, count: liveCount)
    var at = 0
    for c in 0..<(runs.count / 2) {
      let start = Int(runs[2 * c]), n = Int(runs[2 * c + 1])
      for i in 0..<n {
        pool[at + i] = ids[start + i]
        xy[2 * (at + i)] = coords[2 * (start + i)]
        xy[2 * (at + i) + 1] = coords[2 * (start + i) + 1]
      }
      runs[2 * c] = Int32(at)
      at += n
    }
    coords = xy
    ids = pool
    capacities = []
    holes = 0
    if !positions.isEmpty { indexPositions() }
  }

  /// Builds the grid again over the live points (new bounds, new automatic
  /// cell size, dense or sparse anew). If the parameters no longer fit the
  /// data (an explicit cell size now needing more than 2³¹ columns), keeps
  /// the current grid, compacted: clamping still finds every point.
  mutating func rebuild() {
    var points: [Point] = []
    var pointIDs: [Int32] = []
    points.reserveCapacity(liveCount)
    pointIDs.reserveCapacity(liveCount)
    for c in 0..<(runs.count / 2) {
      let start = Int(runs[2 * c]), n = Int(runs[2 * c + 1])
      for i in start..<(start + n) {
        points.append(Point(x: coords[2 * i], y: coords[2 * i + 1]))
        pointIDs.append(ids[i])
      }
    }
    do {
      self = try Self.built(points, ids: pointIDs, parameters: parameters, nextID: nextIDValue)
    } catch {
      compact()
      builtCount = liveCount
      insertsSinceBuild = 0
    }
  }
}
