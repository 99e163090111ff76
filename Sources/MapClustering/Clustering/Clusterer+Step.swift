import SpatialIndexes

// The hot path of a clustering step: the viewport's cell layout, the two
// strategies and the emission of markers.

/// A viewport rectangle and its range of cell columns.
@usableFromInline
struct _RectCells {
  @usableFromInline var rect: Rect
  @usableFromInline var colLo: Int
  @usableFromInline var colHi: Int
  /// The dense column (see ``_StepLayout``) of `colLo`.
  @usableFromInline var dense: Int
  /// Whether the rectangle reaches +180° (``MapCells/isAntimeridian(_:)``):
  /// its points there are in column 0.
  @usableFromInline var reachesAntimeridian: Bool
  /// The dense column of column 0 when the rectangle reaches +180° and
  /// column 0 lies outside `colLo...colHi`; -1 otherwise.
  @usableFromInline var zero: Int

  @inlinable
  init(rect: Rect, colLo: Int, colHi: Int, reachesAntimeridian: Bool) {
    self.rect = rect
    self.colLo = colLo
    self.colHi = colHi
    self.reachesAntimeridian = reachesAntimeridian
    dense = 0
    zero = -1
  }
}

/// Up to three disjoint ranges of world columns, ascending, each with the
/// dense column of its first: the columns of two rectangles, and column 0
/// for the points at +180° of a rectangle that reaches it.
@usableFromInline
struct _ColumnRanges {
  @usableFromInline typealias Span = (lo: Int, hi: Int, dense: Int)
  @usableFromInline var count = 0
  @usableFromInline var ranges: (Span, Span, Span) = ((0, -1, 0), (0, -1, 0), (0, -1, 0))

  @inlinable init() {}

  @inlinable subscript(k: Int) -> Span {
    get { k == 0 ? ranges.0 : k == 1 ? ranges.1 : ranges.2 }
    set {
      switch k {
      case 0: ranges.0 = newValue
      case 1: ranges.1 = newValue
      default: ranges.2 = newValue
      }
    }
  }

  /// Adds columns `lo...hi`, merged with the ranges they share a cell with
  /// (a view across the antimeridian wider than the world's half sees some
  /// columns from both sides). At most three adds.
  @inlinable
  mutating func add(_ lo: Int, _ hi: Int) {
    var lo = lo, hi = hi, k = 0
    while k < count {
      let r = self[k]
      if r.lo <= hi && lo <= r.hi {
        lo = min(lo, r.lo)
        hi = max(hi, r.hi)
        for j in k..<(count &- 1) { self[j] = self[j &+ 1] }
        count &-= 1
      } else {
        k &+= 1
      }
    }
    var i = count
    while i > 0 && self[i &- 1].lo > lo {
      self[i] = self[i &- 1]
      i &-= 1
    }
    self[i] = (lo, hi, 0)
    count &+= 1
  }

  /// Lays the ranges side by side in the dense buffer; returns its width.
  @inlinable
  mutating func place() -> Int {
    var width = 0
    for k in 0..<count {
      self[k].dense = width
      width &+= self[k].hi &- self[k].lo &+ 1
    }
    return width
  }

  /// The dense column of `column`, or -1 when no range holds it.
  @inlinable
  func dense(of column: Int) -> Int {
    for k in 0..<count where self[k].lo <= column && column <= self[k].hi {
      return self[k].dense &+ (column &- self[k].lo)
    }
    return -1
  }
}

/// Where each cell of one step lives in the accumulator array: row-major
/// over rows `rowLo...rowHi` and `width` dense columns, which are the
/// columns of up to three disjoint ranges of world columns, ascending (two
/// across the antimeridian, merged into one when they share a cell, and
/// column 0 for the points at +180° of a rectangle that reaches it).
@usableFromInline
struct _StepLayout {
  @usableFromInline var zoom: Int
  @usableFromInline var scale: Double
  @usableFromInline var cellSize: Double
  @usableFromInline var rowLo: Int
  @usableFromInline var rowHi: Int
  @usableFromInline var width: Int
  @usableFromInline var rectCount: Int
  @usableFromInline var rects: (_RectCells, _RectCells)
  @usableFromInline var ranges: _ColumnRanges

  @inlinable
  init(
    zoom: Int, scale: Double, cellSize: Double, rowLo: Int, rowHi: Int, width: Int,
    rectCount: Int, rects: (_RectCells, _RectCells), ranges: _ColumnRanges
  ) {
    self.zoom = zoom
    self.scale = scale
    self.cellSize = cellSize
    self.rowLo = rowLo
    self.rowHi = rowHi
    self.width = width
    self.rectCount = rectCount
    self.rects = rects
    self.ranges = ranges
  }

  /// Saturating: at zoom 30 a box of the world has 2^76 one-point cells.
  @inlinable var cellCount: Int {
    let (n, overflow) = width.multipliedReportingOverflow(by: rowHi - rowLo + 1)
    return overflow ? Int.max : n
  }

  @inlinable func rect(_ k: Int) -> _RectCells { k == 0 ? rects.0 : rects.1 }

  /// Rectangle `k`'s cells as an index that sums cells itself reads them
  /// (``CellWindow``), with the rectangle.
  @inlinable func window(_ k: Int) -> (rect: Rect, window: CellWindow) {
    let rc = rect(k)
    return (rc.rect, CellWindow(
      zoom: zoom, cellSize: cellSize, rowLo: rowLo, rowHi: rowHi, colLo: rc.colLo, colHi: rc.colHi,
      width: width, base: rc.dense &- rc.colLo, columnZero: rc.zero))
  }

  @inlinable var rangeCount: Int { ranges.count }

  @inlinable func range(_ k: Int) -> (lo: Int, hi: Int, dense: Int) { ranges[k] }

  /// Whether `column` is among the columns shown.
  @inlinable func shows(column: Int) -> Bool { ranges.dense(of: column) >= 0 }

  /// Whether a point of rectangle `rc` in cell (`col`, `row`) is summed:
  /// its cell is among the rectangle's, or it is at +180°, in column 0; a
  /// point elsewhere is never (see "Which points" on ``Clusterer``).
  @inlinable @inline(__always)
  func holds(col: Int, row: Int, _ rc: _RectCells) -> Bool {
    row >= rowLo && row <= rowHi
      && (col >= rc.colLo && col <= rc.colHi || col == 0 && rc.reachesAntimeridian)
  }

  /// The dense slot of cell (`col`, `row`) for a point of rectangle `rc`
  /// (in its columns, or in column 0 for a point at +180°), or -1 when it
  /// is not summed (``holds(col:row:_:)``). The hot loops write the same
  /// test inline.
  @inlinable @inline(__always)
  func slot(col: Int, row: Int, _ rc: _RectCells) -> Int {
    guard row >= rowLo && row <= rowHi else { return -1 }
    if col >= rc.colLo && col <= rc.colHi { return (row &- rowLo) &* width &+ rc.dense &+ (col &- rc.colLo) }
    return col == 0 && rc.zero >= 0 ? (row &- rowLo) &* width &+ rc.zero : -1
  }
}

extension Clusterer {
  /// Half the width of the band by which a per-cell query box is widened
  /// (degrees), so that rounding in the projection never leaves a point out
  /// of its own cell's query. It is far above the rounding error (≈1e-13°)
  /// and far below the smallest cell (≈4e-5° at zoom 19).
  @inlinable static var _queryPad: Double { 1e-9 }

  /// The markers of `viewport` into `markers` (its contents are replaced),
  /// adding the index's work to `counters`.
  ///
  /// - Complexity: see ``cluster(_:strategy:into:counters:)-(VisibleArea,_,_,_)``.
  @inlinable
  package mutating func cluster<C: QueryCounters>(
    _ viewport: Viewport, strategy: ClusterStrategy, into markers: inout [ClusterMarker],
    counters: inout C
  ) {
    cluster(viewport.visibleArea, strategy: strategy, into: &markers, counters: &counters)
  }

  /// The markers of `area` (its zoom's cells, its rectangles' points) into
  /// `markers` (its contents are replaced), adding the index's work to
  /// `counters`.
  ///
  /// - Complexity: single-pass: one or two range queries plus O(*k*) for *k*
  ///   points visible; per-cell: one range query per cell covering the
  ///   viewport plus O(*k*). Both add O(*cells*) to reset and emit.
  @inlinable
  package mutating func cluster<C: QueryCounters>(
    _ area: VisibleArea, strategy: ClusterStrategy, into markers: inout [ClusterMarker],
    counters: inout C
  ) {
    guard let layout = _layout(area) else {
      markers.removeAll(keepingCapacity: true)
      return
    }
    let n = layout.cellCount
    if n > Self.maximumDenseCells {
      _sparse(layout, into: &markers, counters: &counters)
      return
    }
    if _cells.count < n {
      _cells.append(contentsOf: repeatElement(CellTotals(), count: n - _cells.count))
    }
    var cells: [CellTotals] = []
    swap(&cells, &_cells)
    cells.withUnsafeMutableBufferPointer { all in
      let cells = UnsafeMutableBufferPointer(rebasing: all[0..<n])
      cells.update(repeating: CellTotals())
      switch strategy {
      case .singlePass: _singlePass(layout, cells, &counters)
      case .perCell: _perCell(layout, cells, &counters)
      case .aggregate:
        if _indexSumsCells {
          _sumCells(layout, cells, &counters)
        } else if !_indexFormsGroups || _moved {
          // without groups every id would come alone, read at random by id
          // (measured: 35 ms against 5.8 ms a step for a single pass, the
          // quadtree on 1M hotels at zooms 0-3): the clusterer's own totals
          _pyramidAggregate(layout, cells, &counters)
        } else {
          _aggregate(layout, cells, &counters)
        }
      }
      _emit(layout, UnsafeBufferPointer(cells), into: &markers)
    }
    swap(&cells, &_cells)
  }

  /// The cell ranges of `area` and where each cell's totals live; nil when
  /// it shows nothing. Its zoom is taken into ``WebMercator/zoomRange`` (a
  /// zoom-30 cell is already a fraction of a millimetre); an empty second
  /// rectangle is dropped. A rectangle that reaches +180° also shows column
  /// 0, where its points there go.
  @inlinable
  func _layout(_ area: VisibleArea) -> _StepLayout? {
    Self._layout(area, cellTable: cellTable)
  }

  /// The cells a step over `area` adds into, laid out as a step lays them
  /// out (0 when it shows nothing): above ``maximumDenseCells`` a step
  /// takes the sparse path. Package-visible so that the generators of
  /// hostile boxes count cells exactly as the clusterer does, with the
  /// columns two rectangles share counted once.
  package static func stepCellCount(_ area: VisibleArea, cellTable: ClusterCellTable) -> Int {
    _layout(area, cellTable: cellTable)?.cellCount ?? 0
  }

  @inlinable
  static func _layout(_ area: VisibleArea, cellTable: ClusterCellTable) -> _StepLayout? {
    guard !area.isEmpty else { return nil }
    let range = WebMercator.zoomRange
    let zoom = min(range.upperBound, max(range.lowerBound, area.zoom))
    let s = WebMercator.scale(zoom: zoom)
    let cs = cellTable.cellSize(zoom: zoom)
    let inv = 1 / cs
    var count = area.count, r0 = area.first, r1 = area.second
    if !r0.isValid { r0 = r1 }
    if !r0.isValid || !r1.isValid || r0 == r1 { count = 1 }
    func column(_ x: Double) -> Int { MapCells.index(x, scale: s, cellSize: cs, inverse: inv) }
    // the world's last column holds the points west of +180°; where the
    // cells divide the world, map x 256 starts no column (it is column 0's)
    let end = column(256)
    let last = Double(end) * cs == 256 * s ? end &- 1 : end
    func cells(_ r: Rect) -> _RectCells {
      _RectCells(rect: r, colLo: min(last, column(WebMercator.x(longitude: r.minX))),
                 colHi: min(last, column(WebMercator.x(longitude: r.maxX))),
                 reachesAntimeridian: MapCells.isAntimeridian(r.maxX))
    }
    var a = cells(r0), b = cells(r1)
    var ranges = _ColumnRanges()
    let width: Int
    if count == 1 && !(a.reachesAntimeridian && a.colLo > 0) {
      // most steps: one rectangle, its columns alone
      ranges.add(a.colLo, a.colHi)
      width = ranges.place()
    } else {
      ranges.add(a.colLo, a.colHi)
      if count == 2 { ranges.add(b.colLo, b.colHi) }
      if (a.reachesAntimeridian || (count == 2 && b.reachesAntimeridian)) && ranges.dense(of: 0) < 0 {
        ranges.add(0, 0)
      }
      width = ranges.place()
      for k in 0..<count {
        var rc = k == 0 ? a : b
        rc.dense = ranges.dense(of: rc.colLo)
        rc.zero = rc.reachesAntimeridian && rc.colLo > 0 ? ranges.dense(of: 0) : -1
        if k == 0 { a = rc } else { b = rc }
      }
    }
    return _StepLayout(
      zoom: zoom, scale: s, cellSize: cs,
      rowLo: MapCells.index(WebMercator.y(latitude: r0.maxY), scale: s, cellSize: cs, inverse: inv),
      rowHi: MapCells.index(WebMercator.y(latitude: r0.minY), scale: s, cellSize: cs, inverse: inv),
      width: width, rectCount: count, rects: (a, count == 2 ? b : a), ranges: ranges)
  }

  /// One query per viewport rectangle, then each point into its cell
  /// (each point that passes `query`'s filter, when there is one).
  @inlinable
  mutating func _singlePass<C: QueryCounters>(
    _ layout: _StepLayout, _ cells: UnsafeMutableBufferPointer<CellTotals>,
    _ counters: inout C, _ query: _StepQuery? = nil
  ) {
    for k in 0..<layout.rectCount {
      let rc = layout.rect(k)
      _ids.removeAll(keepingCapacity: true)
      index.query(in: rc.rect, into: &_ids, counters: &counters)
      if let query {
        _accumulate(layout, rc, cells, query, onlyColumn: nil, row: 0)
      } else {
        _accumulate(layout, rc, cells, onlyColumn: nil, row: 0)
      }
    }
  }

  /// One query per cell: the cell's box, widened by ``_queryPad`` and
  /// clipped to the viewport rectangle; only the points of that cell count
  /// (that pass `query`'s filter, when there is one).
  @inlinable
  mutating func _perCell<C: QueryCounters>(
    _ layout: _StepLayout, _ cells: UnsafeMutableBufferPointer<CellTotals>,
    _ counters: inout C, _ query: _StepQuery? = nil
  ) {
    let s = layout.scale, cs = layout.cellSize, pad = Self._queryPad
    let rowLo = layout.rowLo, rowHi = layout.rowHi
    // edge r - rowLo is the north edge of row r (the map's y grows southward)
    _latEdges.removeAll(keepingCapacity: true)
    for r in rowLo...(rowHi &+ 1) {
      _latEdges.append(WebMercator.latitude(y: Double(r) * cs / s))
    }
    for k in 0..<layout.rectCount {
      let rc = layout.rect(k), rect = rc.rect
      _lonEdges.removeAll(keepingCapacity: true)
      for c in rc.colLo...(rc.colHi &+ 1) {
        _lonEdges.append(WebMercator.longitude(x: Double(c) * cs / s))
      }
      // column 0 also holds the rectangle's points at +180°, which its own
      // box misses when the world has other columns: a sliver at +180°
      let antimeridian = rc.reachesAntimeridian && rc.colHi > 0
      for row in rowLo...rowHi {
        let maxY = min(rect.maxY, _latEdges[row &- rowLo] + pad)
        let minY = max(rect.minY, _latEdges[row &- rowLo &+ 1] - pad)
        for col in rc.colLo...rc.colHi {
          let box = Rect(
            minX: max(rect.minX, _lonEdges[col &- rc.colLo] - pad), minY: minY,
            maxX: min(rect.maxX, _lonEdges[col &- rc.colLo &+ 1] + pad), maxY: maxY)
          _ids.removeAll(keepingCapacity: true)
          index.query(in: box, into: &_ids, counters: &counters)
          if _ids.isEmpty { continue }
          if let query {
            _accumulate(layout, rc, cells, query, onlyColumn: col, row: row)
          } else {
            _accumulate(layout, rc, cells, onlyColumn: col, row: row)
          }
        }
        if antimeridian {
          let box = Rect(minX: max(rect.minX, 180 - pad), minY: minY, maxX: rect.maxX, maxY: maxY)
          _ids.removeAll(keepingCapacity: true)
          index.query(in: box, into: &_ids, counters: &counters)
          if let query, !_ids.isEmpty {
            _accumulate(layout, rc, cells, query, onlyColumn: 0, row: row)
          } else if !_ids.isEmpty {
            _accumulate(layout, rc, cells, onlyColumn: 0, row: row)
          }
        }
      }
    }
  }

  /// Adds the points of `_ids` (inside `rc.rect`) to their cells, or with
  /// `onlyColumn`, only those of cell (`onlyColumn`, `row`): a point on a
  /// shared edge is returned by both cells' queries.
  @inlinable
  mutating func _accumulate(
    _ layout: _StepLayout, _ rc: _RectCells, _ cells: UnsafeMutableBufferPointer<CellTotals>,
    onlyColumn: Int?, row onlyRow: Int
  ) {
    // without a table (see `_tablePointLimit`): family -2, from the points
    let table = _tableStorage != nil || _points.count <= _tablePointLimit ? _table() : nil
    let records = table?.records, points = _points
    let family = table.map { Int($0.family[layout.zoom]) } ?? -2
    let shift = table.map { UInt32($0.shift[layout.zoom]) } ?? 0
    let s = layout.scale, cs = layout.cellSize
    let rowLo = layout.rowLo, rowHi = layout.rowHi, width = layout.width
    let colLo = rc.colLo, colHi = rc.colHi, base = rc.dense &- rc.colLo, zero = rc.zero
    let only = onlyColumn ?? 0, filter = onlyColumn != nil
    // the one cell's slot: in the rectangle's columns, or column 0 kept apart
    let onlySlot = filter ? layout.slot(col: only, row: onlyRow, rc) : -1
    @inline(__always) func add(_ id: Int32, _ col: Int, _ row: Int, _ lonE7: Int32, _ latE7: Int32) {
      let slot: Int
      if filter {
        guard col == only && row == onlyRow && onlySlot >= 0 else { return }
        slot = onlySlot
      } else if col >= colLo && col <= colHi && row >= rowLo && row <= rowHi {
        // `layout.slot(col:row:rc)`, inline
        slot = (row &- rowLo) &* width &+ base &+ col
      } else {
        // a point at +180° in column 0, kept apart; else never in practice
        guard col == 0 && zero >= 0 && row >= rowLo && row <= rowHi else { return }
        slot = (row &- rowLo) &* width &+ zero
      }
      cells[slot].count &+= 1
      cells[slot].anyID = id
      cells[slot].sumLon &+= Int64(lonE7)
      cells[slot].sumLat &+= Int64(latE7)
    }
    _withIDsInReadOrder { ids in
      switch family {
      case 0:
        for id in ids {
          let r = records.unsafelyUnwrapped[Int(id)]
          add(id, Int(r.col0 &>> shift), Int(r.row0 &>> shift), r.lonE7, r.latE7)
        }
      case 1:
        for id in ids {
          let r = records.unsafelyUnwrapped[Int(id)]
          add(id, Int(r.col1 &>> shift), Int(r.row1 &>> shift), r.lonE7, r.latE7)
        }
      case -2:
        // the record's fields, worked out as `_PointTable.record` does
        for id in ids {
          let p = points[Int(id)], (col, row) = _PointTable.projectedCell(p, scale: s, cellSize: cs)
          add(id, col, row, MapCells.binUnits(longitude: p.x), MapCells.units(p.y))
        }
      default:
        for id in ids {
          let i = Int(id), (col, row) = _PointTable.projectedCell(points[i], scale: s, cellSize: cs)
          let r = records.unsafelyUnwrapped[i]
          add(id, col, row, r.lonE7, r.latE7)
        }
      }
    }
  }

  /// Calls `body` with `_ids`, put in increasing order first when they
  /// are many (``_sortIDsIfMany()``).
  @inlinable
  mutating func _withIDsInReadOrder(_ body: (UnsafeBufferPointer<Int32>) -> Void) {
    _sortIDsIfMany()
    _ids.withUnsafeBufferPointer(body)
  }

  /// Sorts `_ids` in place when they are at least 1/16 of the points. The
  /// records are read by id, and an index reports ids in its own order:
  /// read that way, nearly every record was a cache miss (measured on a
  /// loaded 2-core VM: a view of the whole world over 170k points took a
  /// median 15 ms a step read in the k-d tree's order, 6.7 ms sorted, before
  /// cells were stored). In increasing order the reads sweep the table (and
  /// a property column) forward and the prefetcher keeps up. The ids are
  /// sorted by setting bits in a bitmap of all ids and sweeping it,
  /// O(*k* + *n*/64), hence the 1/16 threshold. Sums do not depend on the
  /// order.
  @inlinable
  mutating func _sortIDsIfMany() {
    let k = _ids.count, n = points.count
    if k < 64 || k &* 16 < n { return }
    let words = (n &+ 63) &>> 6
    if _bitmap.count < words { _bitmap = [UInt64](repeating: 0, count: words) }
    let m = _ids.withUnsafeMutableBufferPointer { ids in
      _bitmap.withUnsafeMutableBufferPointer { bits in
        for id in ids {
          let i = Int(id)
          bits[i &>> 6] |= 1 &<< UInt64(i & 63)
        }
        // every id is in the bitmap: the sweep may write over them
        var m = 0
        for w in 0..<words {
          var x = bits[w]
          if x == 0 { continue }
          bits[w] = 0  // left all zero for the next call
          repeat {
            ids[m] = Int32(truncatingIfNeeded: w &<< 6 | x.trailingZeroBitCount)
            m &+= 1
            x &= x &- 1
          } while x != 0
        }
        return m
      }
    }
    // an index reports each id once; were one reported twice it would count once here
    if m < k { _ids.removeLast(k &- m) }
  }

  /// One marker per non-empty cell, by row, then column.
  @inlinable
  func _emit(
    _ layout: _StepLayout, _ cells: UnsafeBufferPointer<CellTotals>,
    into markers: inout [ClusterMarker]
  ) {
    markers.removeAll(keepingCapacity: true)
    _forEachMarkerCell(layout, cells) { slot, col, row in
      markers.append(_marker(cells[slot], zoom: layout.zoom, column: col, row: row))
    }
  }

  /// Calls `body` with the slot, column and row of each non-empty cell, by
  /// row, then column: the order of the markers.
  @inlinable @inline(__always)
  func _forEachMarkerCell(
    _ layout: _StepLayout, _ cells: UnsafeBufferPointer<CellTotals>, _ body: (Int, Int, Int) -> Void
  ) {
    for row in layout.rowLo...layout.rowHi {
      let rowBase = (row &- layout.rowLo) &* layout.width
      for k in 0..<layout.rangeCount {
        let range = layout.range(k)
        for col in range.lo...range.hi {
          let slot = rowBase &+ range.dense &+ (col &- range.lo)
          if cells[slot].count != 0 { body(slot, col, row) }
        }
      }
    }
  }

  /// The marker of a non-empty cell.
  @inlinable
  func _marker(_ a: CellTotals, zoom: Int, column: Int, row: Int) -> ClusterMarker {
    let key = MarkerKey(zoom: zoom, column: column, row: row, count: Int(a.count))
    if a.count == 1 {
      var point = points[Int(a.anyID)]
      if MapCells.isAntimeridian(point.x) { point.x = -180 }  // binned and summed at −180°
      return ClusterMarker(
        key: key, longitudeE7: Int32(truncatingIfNeeded: a.sumLon),
        latitudeE7: Int32(truncatingIfNeeded: a.sumLat), point: point, id: a.anyID)
    }
    return ClusterMarker(
      key: key, longitudeE7: FixedPoint.mean(a.sumLon, count: Int(a.count)),
      latitudeE7: FixedPoint.mean(a.sumLat, count: Int(a.count)))
  }

  /// Cells a step may hold in its dense buffer (24 bytes each: 100 MB). A
  /// view with more (a box of the world from a file at zoom 19, a screen
  /// thousands of cells wide) is clustered by ``_sparse(_:into:counters:)``.
  @usableFromInline package static var maximumDenseCells: Int { 1 << 22 }

  /// A step whose cells are too many for the dense buffer: one query per
  /// rectangle, each point's cell totalled in a hash table, the markers
  /// sorted by row and column. Slower (a hash and an allocation a step),
  /// the same markers, and memory in proportion to the cells that hold
  /// points, not to the cells in view.
  @inlinable
  mutating func _sparse<C: QueryCounters>(
    _ layout: _StepLayout, into markers: inout [ClusterMarker], counters: inout C
  ) {
    let table = _table(), records = table.records
    let family = Int(table.family[layout.zoom]), shift = UInt32(table.shift[layout.zoom])
    var totals: [SIMD2<Int>: CellTotals] = [:]
    for k in 0..<layout.rectCount {
      let rc = layout.rect(k)
      _ids.removeAll(keepingCapacity: true)
      index.query(in: rc.rect, into: &_ids, counters: &counters)
      for id in _ids {
        let i = Int(id), r = records[i]
        let (col, row) = Self._cell(i, r, family: family, shift: shift, layout, _points)
        guard layout.holds(col: col, row: row, rc) else { continue }
        totals[SIMD2(row, col), default: CellTotals()].add(
          id, lonE7: records[i].lonE7, latE7: records[i].latE7)
      }
    }
    _emitSparse(layout, &totals, into: &markers)
  }

  /// The cell of point `i` of `points`, whose record is `r`, at the
  /// step's zoom: its stored cell shifted (`family` and `shift` of
  /// ``_PointTable``), or at a zoom of no family, its projection's.
  @inlinable @inline(__always)
  static func _cell(
    _ i: Int, _ r: _PointRecord, family: Int, shift: UInt32, _ layout: _StepLayout, _ points: [Point]
  ) -> (col: Int, row: Int) {
    switch family {
    case 0: (Int(r.col0 &>> shift), Int(r.row0 &>> shift))
    case 1: (Int(r.col1 &>> shift), Int(r.row1 &>> shift))
    default: _PointTable.projectedCell(points[i], scale: layout.scale, cellSize: layout.cellSize)
    }
  }

  /// One marker per cell of `totals` (keyed by row, then column), in row,
  /// then column order, as ``_emit(_:_:into:)`` gives them.
  @inlinable
  func _emitSparse(
    _ layout: _StepLayout, _ totals: inout [SIMD2<Int>: CellTotals], into markers: inout [ClusterMarker]
  ) {
    markers.removeAll(keepingCapacity: true)
    for cell in totals.keys.sorted(by: { ($0.x, $0.y) < ($1.x, $1.y) }) {
      markers.append(_marker(totals[cell]!, zoom: layout.zoom, column: cell.y, row: cell.x))
    }
  }

  /// The markers of `area` from cell totals summed elsewhere (a database's
  /// `GROUP BY` over the same cells: ``MapCells`` of the points inside the
  /// area's rectangles, a point at +180° in column 0 and summed at −180°),
  /// made into markers as every strategy's are, so another engine's sums
  /// compare with this package's markers one for one. Totals of a cell the
  /// area does not show are left out, as a strategy leaves out such a
  /// point; totals given twice for one cell are added.
  ///
  /// - Complexity: O(*c* log *c*) for *c* cells.
  package func markers(
    of area: VisibleArea, totals: [(column: Int, row: Int, totals: CellTotals)]
  ) -> [ClusterMarker] {
    guard let layout = _layout(area) else { return [] }
    var cells: [SIMD2<Int>: CellTotals] = [:]
    for t in totals where t.totals.count > 0 && layout.shows(column: t.column)
      && t.row >= layout.rowLo && t.row <= layout.rowHi
    {
      var sum = cells[SIMD2(t.row, t.column), default: CellTotals()]
      sum.count &+= t.totals.count
      sum.anyID = t.totals.anyID
      sum.sumLon &+= t.totals.sumLon
      sum.sumLat &+= t.totals.sumLat
      cells[SIMD2(t.row, t.column)] = sum
    }
    var markers: [ClusterMarker] = []
    _emitSparse(layout, &cells, into: &markers)
    return markers
  }
}
