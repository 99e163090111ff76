import SpatialIndexes

// The `aggregate` strategy: one grouped viewport query; a whole subtree that
// lies inside one cell is added from prefix sums without visiting its points.

/// The points' records and the prefix sums of their fixed-point coordinates,
/// both in an index's ``SpatialIndex/groupOrder``.
///
/// A run of positions `a..<b` sums to `sums[b] − sums[a]` (two `Int64` a
/// position, longitude then latitude), so a group of any size is added to a
/// cell in O(1); integer sums make the result the same, bit for bit, as
/// adding the points one by one. The records in the same order let the points
/// handed over one by one (in leaves cut by a cell or viewport edge) be read
/// sequentially: read by id, at random, they cost more than all the groups
/// (measured on places at zoom 2: about 20k such points a view, a median
/// 2.7 ms a step against 0.8 ms for a single pass that reads records in id
/// order). Empty (and unused) for an index that forms no groups. Immutable
/// after init, so copies of a ``Clusterer`` share it.
@usableFromInline
final class _GroupSums: @unchecked Sendable {
  /// The ids in group order.
  @usableFromInline let order: [Int32]
  /// `2 · (order.count + 1)` running sums.
  @usableFromInline let sums: UnsafeMutablePointer<Int64>
  /// The records, by position in `order`.
  @usableFromInline let records: UnsafeMutablePointer<_PointRecord>

  init(order: [Int32], records byID: UnsafeMutablePointer<_PointRecord>) {
    self.order = order
    sums = .allocate(capacity: 2 * (order.count + 1))
    records = .allocate(capacity: order.count)
    var lon: Int64 = 0, lat: Int64 = 0
    sums[0] = 0
    sums[1] = 0
    for (i, id) in order.enumerated() {
      let r = byID[Int(id)]
      records[i] = r
      lon &+= Int64(r.lonE7)
      lat &+= Int64(r.latE7)
      sums[2 * i + 2] = lon
      sums[2 * i + 3] = lat
    }
  }

  /// Bytes held beyond the index for `count` points in group order: the
  /// sums and the records (the order is the index's own array).
  static func bytes(count: Int) -> Int {
    2 * (count + 1) * MemoryLayout<Int64>.stride + count * MemoryLayout<_PointRecord>.stride
  }

  deinit {
    sums.deallocate()
    records.deallocate()
  }
}

/// Adds one viewport rectangle's points to their cells, taking a group whole
/// when its box lies inside one cell of the rectangle's cell range.
///
/// **Exactness.** A point's cell comes from its own projected coordinates;
/// a box is accepted only when its corners, projected and pushed outward by
/// ``pad`` map units (1e-9 of a zoom-0 map 256 units wide, thousands of
/// times the projection's rounding error), fall in the same cell. The true
/// projection is monotone, so every point of the box lies in that cell: the
/// group adds exactly what its points would have added one by one.
@usableFromInline
struct _CellSummer: GroupVisitor {
  @usableFromInline static var pad: Double { 1e-9 }

  @usableFromInline let cells: UnsafeMutableBufferPointer<CellTotals>
  @usableFromInline let table: _PointTable
  @usableFromInline let groups: _GroupSums
  /// The points, for a zoom whose cells the records do not hold.
  @usableFromInline let points: [Point]
  @usableFromInline let family: Int
  @usableFromInline let shift: UInt32
  @usableFromInline let scale: Double
  @usableFromInline let cellSize: Double
  @usableFromInline let rowLo: Int
  @usableFromInline let rowHi: Int
  @usableFromInline let width: Int
  @usableFromInline let colLo: Int
  @usableFromInline let colHi: Int
  /// Added to a column to give its dense column.
  @usableFromInline let base: Int
  /// The slot of the box last accepted.
  @usableFromInline var pending = 0
  /// The latitudes of the box last offered and their row (-1: two rows):
  /// a grid offers its cells row by row, and a row costs two logarithms.
  @usableFromInline var lastLatitudes = (minY: Double.nan, maxY: Double.nan)
  @usableFromInline var lastRow = -1

  @inlinable
  init(
    _ layout: _StepLayout, _ rc: _RectCells, _ cells: UnsafeMutableBufferPointer<CellTotals>,
    _ table: _PointTable, _ groups: _GroupSums, _ points: [Point]
  ) {
    self.cells = cells
    self.table = table
    self.groups = groups
    self.points = points
    family = Int(table.family[layout.zoom])
    shift = UInt32(table.shift[layout.zoom])
    scale = layout.scale
    cellSize = layout.cellSize
    rowLo = layout.rowLo
    rowHi = layout.rowHi
    width = layout.width
    colLo = rc.colLo
    colHi = rc.colHi
    base = rc.dense &- rc.colLo
  }

  @inlinable @inline(__always)
  func cellIndex(_ map: Double) -> Int { MapCells.index(map, scale: scale, cellSize: cellSize, inverse: 1 / cellSize) }

  @inlinable
  mutating func acceptsGroup(in box: Rect) -> Bool {
    let pad = Self.pad
    let col = cellIndex(WebMercator.x(longitude: box.minX) - pad)
    guard col == cellIndex(WebMercator.x(longitude: box.maxX) + pad),
          col >= colLo && col <= colHi else { return false }
    if box.minY != lastLatitudes.minY || box.maxY != lastLatitudes.maxY {
      lastLatitudes = (box.minY, box.maxY)
      let row = cellIndex(WebMercator.y(latitude: box.maxY) - pad)  // north: the smaller y
      lastRow = row == cellIndex(WebMercator.y(latitude: box.minY) + pad) ? row : -1
    }
    let row = lastRow
    guard row >= 0 && row >= rowLo && row <= rowHi else { return false }
    pending = (row &- rowLo) &* width &+ base &+ col
    return true
  }

  @inlinable @inline(__always)
  mutating func takeGroup(_ positions: Range<Int>) {
    let a = positions.lowerBound, b = positions.upperBound, sums = groups.sums
    cells[pending].count &+= Int32(truncatingIfNeeded: b &- a)
    cells[pending].anyID = groups.order[a]
    cells[pending].sumLon &+= sums[2 &* b] &- sums[2 &* a]
    cells[pending].sumLat &+= sums[2 &* b &+ 1] &- sums[2 &* a &+ 1]
  }

  @inlinable @inline(__always)
  mutating func take(_ id: Int32, at position: Int) {
    let i = Int(id), r = position >= 0 ? groups.records[position] : table.records[i]
    let col: Int, row: Int
    switch family {
    case 0: (col, row) = (Int(r.col0 &>> shift), Int(r.row0 &>> shift))
    case 1: (col, row) = (Int(r.col1 &>> shift), Int(r.row1 &>> shift))
    default: (col, row) = _PointTable.projectedCell(points[i], scale: scale, cellSize: cellSize)
    }
    // never false in practice: see "Which points" on Clusterer
    guard col >= colLo && col <= colHi && row >= rowLo && row <= rowHi else { return }
    let slot = (row &- rowLo) &* width &+ base &+ col
    cells[slot].count &+= 1
    cells[slot].anyID = id
    cells[slot].sumLon &+= Int64(r.lonE7)
    cells[slot].sumLat &+= Int64(r.latE7)
  }
}

extension Clusterer {
  /// One grouped query per viewport rectangle (see ``ClusterStrategy/aggregate``).
  @inlinable
  mutating func _aggregate<C: QueryCounters>(
    _ layout: _StepLayout, _ cells: UnsafeMutableBufferPointer<CellTotals>,
    _ counters: inout C
  ) {
    for k in 0..<layout.rectCount {
      var summer = _CellSummer(layout, layout.rect(k), cells, _table(), _groups(), _points)
      index.forEachGroup(in: layout.rect(k).rect, counters: &counters, &summer)
    }
  }

  /// The index sums the points of each viewport rectangle by cell itself
  /// (``SpatialIndex/sumCells(in:window:into:counters:)``): the clusterer
  /// only lays out the cells and emits the markers.
  @inlinable
  mutating func _sumCells<C: QueryCounters>(
    _ layout: _StepLayout, _ cells: UnsafeMutableBufferPointer<CellTotals>, _ counters: inout C
  ) {
    for k in 0..<layout.rectCount {
      let rc = layout.rect(k)
      let window = CellWindow(
        zoom: layout.zoom, cellSize: layout.cellSize, rowLo: layout.rowLo, rowHi: layout.rowHi,
        colLo: rc.colLo, colHi: rc.colHi, width: layout.width, base: rc.dense &- rc.colLo)
      _ = index.sumCells(in: rc.rect, window: window, into: cells, counters: &counters)
    }
  }

  /// Bytes the clusterer holds beside the index to cluster with `strategy`:
  /// its per-point records (24 bytes a point; not for `aggregate` over an
  /// index that sums cells itself), the prefix sums and records in group
  /// order when the strategy takes groups (``ClusterStrategy/aggregate``
  /// on an index that forms them, 40 more), its totals by cell for
  /// `aggregate` on one that does not (4.4 MB), and its scratch buffers as grown
  /// so far. Counted whether or not they were built yet.
  public func memoryBytes(for strategy: ClusterStrategy) -> Int {
    let n = points.count
    let sums = strategy == .aggregate && Index.sumsCells
    let table = sums ? 0 : _PointTable.bytes(count: n)
    let groups = strategy == .aggregate && !sums && !index.groupOrder.isEmpty && !_moved
      ? _GroupSums.bytes(count: n) : 0
    // the totals by cell for an index that forms no groups (4.4 MB)
    let pyramid = strategy == .aggregate && !sums && (index.groupOrder.isEmpty || _moved)
      && (_tableStorage.map(_CellPyramid.fits) ?? _CellPyramid.nests(cellTable))
      ? _CellPyramid.bytes(table: cellTable) : 0
    let scratch = _ids.capacity * 4 + _sortedIDs.capacity * 4 + _bitmap.capacity * 8
      + _cells.capacity * MemoryLayout<CellTotals>.stride
      + (_lonEdges.capacity + _latEdges.capacity) * 8
    return table + groups + pyramid + scratch
  }
}
