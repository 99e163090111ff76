import SpatialIndexes

// The `aggregate` strategy: one grouped viewport query; a whole subtree that
// lies inside one cell is added from prefix sums without visiting its points.

/// What `aggregate` keeps by position in an index's ``GroupingIndex/groupOrder``:
/// each point's column and row codes and running sums of the fixed-point
/// coordinates at every 8th position, about 10 bytes a point in all. Codes
/// and sums are those a point is binned and summed at: +180° as −180°
/// (``MapCells/binX(longitude:)``).
///
/// **Sums.** A run of positions `a..<b` sums to `S(b) − S(a)`. The running
/// sums are kept only where the position is a multiple of 8 (two `Int64` a
/// sample); a run's sum takes the samples nearest its ends and adds or
/// removes the at most 4 points between each sample and the end, read from
/// the index's coordinates. Integer sums make the result the same, bit for
/// bit, as adding the points one by one. Full running sums (16 bytes a
/// point) and a 24-byte record a point in this order kept the points one
/// by one sequential too, but took 64 bytes a point beside the index: more
/// than the k-d tree itself (20).
///
/// **Points one by one.** A point handed over alone (in a leaf cut by a cell
/// or viewport edge) is read from the index's coordinates at its position,
/// where the index has just tested it, for its fixed-point coordinates. Its
/// column and row come from the ``_CellFamilies/unitCode(_:)``s kept here by
/// a shift and a multiply (a projection costs a logarithm, and computing the
/// column from the longitude measured slower than reading its code).
///
/// Immutable after init, so copies of a ``Clusterer`` share it.
@usableFromInline
final class _GroupSums: @unchecked Sendable {
  /// The ids in group order (the index's own array).
  @usableFromInline let order: [Int32]
  /// The points' coordinates in group order, `x` then `y`: the index's own
  /// array (or its view of the saved file it maps), or a copy made from the
  /// points when the index keeps none.
  @usableFromInline let coordinates: _FlatArray<Double>
  /// Whether ``coordinates`` is a copy, counted in ``bytes``.
  let copied: Bool
  /// Each position's ``_CellFamilies/unitCode(_:)`` of its map x, then
  /// of its map y.
  @usableFromInline let codes: UnsafeMutablePointer<UInt32>
  /// The running sums at positions 0, 8, 16, …: longitude then latitude.
  @usableFromInline let sums: UnsafeMutablePointer<Int64>
  @usableFromInline let count: Int

  init<I: SpatialIndex>(index: I, points: [Point]) {
    order = _groupOrder(index)
    let n = order.count
    count = n
    let shared = _groupCoordinates(index)
    copied = shared.count != 2 * n
    if copied {
      var own: [Double] = []
      own.reserveCapacity(2 * n)
      for id in order {
        own.append(points[Int(id)].x)
        own.append(points[Int(id)].y)
      }
      coordinates = _FlatArray(own)
    } else {
      coordinates = shared
    }
    codes = .allocate(capacity: 2 * n)
    let samples = (n >> 3) + 1
    sums = .allocate(capacity: 2 * samples)
    coordinates.withUnsafeBufferPointer { xy in
      var lon: Int64 = 0, lat: Int64 = 0
      for i in 0..<n {
        if i & 7 == 0 {
          sums[2 &* (i >> 3)] = lon
          sums[2 &* (i >> 3) &+ 1] = lat
        }
        let x = xy[2 &* i], y = xy[2 &* i &+ 1]
        codes[2 &* i] = _CellFamilies.unitCode(MapCells.binX(longitude: x))
        codes[2 &* i &+ 1] = _CellFamilies.unitCode(WebMercator.y(latitude: y))
        lon &+= Int64(MapCells.binUnits(longitude: x))
        lat &+= Int64(MapCells.units(y))
      }
      if n & 7 == 0 {
        sums[2 &* (n >> 3)] = lon
        sums[2 &* (n >> 3) &+ 1] = lat
      }
    }
  }

  /// The fixed-point sums of the points at positions `a..<b`, whose
  /// coordinates are `xy` (``coordinates``).
  @inlinable @inline(__always)
  func sums(_ a: Int, _ b: Int, _ xy: UnsafePointer<Double>) -> (lon: Int64, lat: Int64) {
    if b &- a <= 4 { return Self.direct(a, b, xy) }
    let ja = (a &+ 4) &>> 3
    var jb = (b &+ 4) &>> 3
    if jb &<< 3 > count { jb = b &>> 3 }
    let sa = ja &<< 3, sb = jb &<< 3
    var lon = sums[2 &* jb] &- sums[2 &* ja], lat = sums[2 &* jb &+ 1] &- sums[2 &* ja &+ 1]
    // from a sample to the run's true ends
    let head = sa >= a ? Self.direct(a, sa, xy) : Self.direct(sa, a, xy)
    let headSign: Int64 = sa >= a ? 1 : -1
    let tail = sb <= b ? Self.direct(sb, b, xy) : Self.direct(b, sb, xy)
    let tailSign: Int64 = sb <= b ? 1 : -1
    lon &+= headSign &* head.lon &+ tailSign &* tail.lon
    lat &+= headSign &* head.lat &+ tailSign &* tail.lat
    return (lon, lat)
  }

  /// The sums of `a..<b` point by point.
  @inlinable @inline(__always)
  static func direct(_ a: Int, _ b: Int, _ xy: UnsafePointer<Double>) -> (lon: Int64, lat: Int64) {
    var lon: Int64 = 0, lat: Int64 = 0
    var i = a
    while i < b {
      lon &+= Int64(MapCells.binUnits(longitude: xy[2 &* i]))
      lat &+= Int64(MapCells.units(xy[2 &* i &+ 1]))
      i &+= 1
    }
    return (lon, lat)
  }

  /// Bytes held beyond the index for `count` points in group order: the
  /// codes and the samples of the sums (the order and, when the index has
  /// them, the coordinates are the index's own arrays).
  static func bytes(count: Int) -> Int {
    2 * count * MemoryLayout<UInt32>.stride
      + 2 * ((count >> 3) + 1) * MemoryLayout<Int64>.stride
  }

  /// ``bytes(count:)`` and a copy of the coordinates when there is one.
  var bytes: Int { Self.bytes(count: count) + (copied ? coordinates.count * 8 : 0) }

  deinit {
    codes.deallocate()
    sums.deallocate()
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
/// group adds exactly what its points would have added one by one. A box
/// that reaches +180° is never taken whole: its points there belong to
/// column 0, the far side of the world. The padded corners are kept on the
/// map ([0, 256]), where every projected point is.
@usableFromInline
struct _CellSummer: GroupVisitor {
  @usableFromInline static var pad: Double { 1e-9 }

  @usableFromInline let cells: UnsafeMutableBufferPointer<CellTotals>
  @usableFromInline let groups: _GroupSums
  /// ``_GroupSums/coordinates``, for the step.
  @usableFromInline let xy: UnsafePointer<Double>
  /// The points by id, for one handed over without a position.
  @usableFromInline let points: [Point]
  /// How the zoom's rows come from ``_GroupSums/rows``; nil: projected.
  @usableFromInline let unitRow: _UnitRow?
  @usableFromInline let scale: Double
  @usableFromInline let cellSize: Double
  @usableFromInline let rowLo: Int
  @usableFromInline let rowHi: Int
  @usableFromInline let width: Int
  @usableFromInline let colLo: Int
  @usableFromInline let colHi: Int
  /// Added to a column to give its dense column.
  @usableFromInline let base: Int
  /// The dense column of column 0 for the points at +180° (``_RectCells/zero``).
  @usableFromInline let zero: Int
  /// The slot of the box last accepted.
  @usableFromInline var pending = 0
  /// Groups taken but not summed yet: adjacent runs for one slot (a grid's
  /// cells along a row, a tree's sibling leaves) are summed as one run,
  /// which costs two samples and the points between them and the ends.
  @usableFromInline var run = (start: 0, end: 0, slot: -1)
  /// The latitudes of the box last offered and their row (-1: two rows):
  /// a grid offers its cells row by row, and a row costs two logarithms.
  @usableFromInline var lastLatitudes = (minY: Double.nan, maxY: Double.nan)
  @usableFromInline var lastRow = -1

  @inlinable
  init(
    _ layout: _StepLayout, _ rc: _RectCells, _ cells: UnsafeMutableBufferPointer<CellTotals>,
    _ groups: _GroupSums, _ xy: UnsafePointer<Double>, _ unitRow: _UnitRow?, _ points: [Point]
  ) {
    self.cells = cells
    self.groups = groups
    self.xy = xy
    self.points = points
    self.unitRow = unitRow
    scale = layout.scale
    cellSize = layout.cellSize
    rowLo = layout.rowLo
    rowHi = layout.rowHi
    width = layout.width
    colLo = rc.colLo
    colHi = rc.colHi
    base = rc.dense &- rc.colLo
    zero = rc.zero
  }

  @inlinable @inline(__always)
  func cellIndex(_ map: Double) -> Int { MapCells.index(map, scale: scale, cellSize: cellSize, inverse: 1 / cellSize) }

  @inlinable
  mutating func acceptsGroup(in box: Rect) -> Bool {
    let pad = Self.pad
    guard !MapCells.isAntimeridian(box.maxX) else { return false }
    // every map position is in [0, 256]: the pad never reaches past the
    // map's edge, so copies at −180° or at the north edge are taken whole
    let col = cellIndex(max(0, WebMercator.x(longitude: box.minX) - pad))
    guard col == cellIndex(WebMercator.x(longitude: box.maxX) + pad),
          col >= colLo && col <= colHi else { return false }
    if box.minY != lastLatitudes.minY || box.maxY != lastLatitudes.maxY {
      lastLatitudes = (box.minY, box.maxY)
      let row = cellIndex(max(0, WebMercator.y(latitude: box.maxY) - pad))  // north: the smaller y
      lastRow = row == cellIndex(min(256, WebMercator.y(latitude: box.minY) + pad)) ? row : -1
    }
    let row = lastRow
    guard row >= 0 && row >= rowLo && row <= rowHi else { return false }
    pending = (row &- rowLo) &* width &+ base &+ col
    return true
  }

  @inlinable @inline(__always)
  mutating func takeGroup(_ positions: Range<Int>) {
    if run.slot == pending && run.end == positions.lowerBound {
      run.end = positions.upperBound
      return
    }
    flush()
    run = (positions.lowerBound, positions.upperBound, pending)
  }

  /// Sums the groups taken but not summed yet: call once the query is over.
  @inlinable @inline(__always)
  mutating func flush() {
    guard run.slot >= 0 else { return }
    let a = run.start, b = run.end, slot = run.slot
    let s = groups.sums(a, b, xy)
    cells[slot].count &+= Int32(truncatingIfNeeded: b &- a)
    cells[slot].anyID = groups.order[a]
    cells[slot].sumLon &+= s.lon
    cells[slot].sumLat &+= s.lat
    run.slot = -1
  }

  @inlinable @inline(__always)
  mutating func take(_ id: Int32, at position: Int) {
    let x: Double, y: Double
    if position >= 0 {
      x = xy[2 &* position]
      y = xy[2 &* position &+ 1]
    } else {
      let p = points[Int(id)]
      (x, y) = (p.x, p.y)
    }
    let col: Int, row: Int
    if position >= 0, let unitRow {
      col = unitRow.row(groups.codes[2 &* position])
      row = unitRow.row(groups.codes[2 &* position &+ 1])
    } else {
      col = cellIndex(MapCells.binX(longitude: x))
      row = cellIndex(WebMercator.y(latitude: y))
    }
    // `_StepLayout.slot(col:row:_:)`, inline
    let slot: Int
    if col >= colLo && col <= colHi && row >= rowLo && row <= rowHi {
      slot = (row &- rowLo) &* width &+ base &+ col
    } else {
      // a point at +180° in column 0, kept apart; else never in practice
      guard col == 0 && zero >= 0 && row >= rowLo && row <= rowHi else { return }
      slot = (row &- rowLo) &* width &+ zero
    }
    cells[slot].count &+= 1
    cells[slot].anyID = id
    cells[slot].sumLon &+= Int64(MapCells.binUnits(longitude: x))
    cells[slot].sumLat &+= Int64(MapCells.units(y))
  }
}

extension Clusterer {
  /// One grouped query per viewport rectangle (see ``ClusterStrategy/aggregate``).
  @inlinable
  mutating func _aggregate<C: QueryCounters>(
    _ layout: _StepLayout, _ cells: UnsafeMutableBufferPointer<CellTotals>,
    _ counters: inout C
  ) {
    let groups = _groups(), unitRow = _families.unitRow(layout.zoom)
    groups.coordinates.withUnsafeBufferPointer { xy in
      guard let xy = xy.baseAddress else { return }  // no points
      for k in 0..<layout.rectCount {
        var summer = _CellSummer(layout, layout.rect(k), cells, groups, xy, unitRow, _points)
        _forEachGroup(index, in: layout.rect(k).rect, counters: &counters, &summer)
        summer.flush()
      }
    }
  }

  /// The index sums the points of each viewport rectangle by cell itself
  /// (``CellSummingIndex/sumCells(in:window:into:counters:)``): the clusterer
  /// only lays out the cells and emits the markers.
  @inlinable
  mutating func _sumCells<C: QueryCounters>(
    _ layout: _StepLayout, _ cells: UnsafeMutableBufferPointer<CellTotals>, _ counters: inout C
  ) {
    for k in 0..<layout.rectCount {
      let (rect, window) = layout.window(k)
      _ = _sumCellsOf(index, in: rect, window: window, into: cells, counters: &counters)
    }
  }

  /// Bytes the clusterer holds beside the index to cluster with `strategy`:
  /// its per-point records (24 bytes a point) for `singlePass` and
  /// `perCell` (none above ``_tablePointLimit`` points, unless a filtered
  /// step made them); for ``ClusterStrategy/aggregate``, on an index that forms
  /// groups, codes and sampled sums in group order (about 10 bytes a point,
  /// 16 more when the index keeps no coordinates in that order), on one
  /// that forms none or once points moved, the records and its totals by
  /// cell (4.4 MB), and on an index that sums cells itself nothing but the
  /// summaries by node of the property columns filtered clustering has
  /// read so far (``_NodeSummaries``); and its scratch buffers as grown so
  /// far. Counted whether or not they were built yet (the summaries: once
  /// built).
  package func memoryBytes(for strategy: ClusterStrategy) -> Int {
    let n = points.count
    let sums = strategy == .aggregate && _indexSumsCells
    let grouped = strategy == .aggregate && !sums && _indexFormsGroups && !_moved
    let tableless = strategy != .aggregate && _tableStorage == nil && n > _tablePointLimit
    let table = sums || grouped || tableless ? 0 : _PointTable.bytes(count: n)
    let groups = !grouped ? 0 : _groupsStorage?.bytes
      ?? _GroupSums.bytes(count: n) + (_groupCoordinates(index).count == 2 * n ? 0 : 16 * n)
    // the totals by cell for an index that forms no groups (4.4 MB)
    let pyramid = strategy == .aggregate && !sums && (!_indexFormsGroups || _moved)
      && (_tableStorage.map(_CellPyramid.fits) ?? _CellPyramid.nests(cellTable))
      ? _CellPyramid.bytes(table: cellTable) : 0
    let scratch = _ids.capacity * 4 + _bitmap.capacity * 8
      + _fieldTotals.capacity * MemoryLayout<_FieldTotals>.stride + _slots.capacity * 4
      + _cells.capacity * MemoryLayout<CellTotals>.stride
      + (_lonEdges.capacity + _latEdges.capacity) * 8
    // the summaries of the property columns by node read so far
    let summaries = sums ? _summaryStorage?.bytes ?? 0 : 0
    return table + groups + pyramid + scratch + summaries
  }
}
