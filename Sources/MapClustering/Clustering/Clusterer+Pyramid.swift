import SpatialIndexes

// `aggregate` over an index that forms no groups: whole zoom-7 cells from
// the clusterer's own totals (`_CellPyramid`), the rest of the view through
// four thin range queries along its edges.

extension Clusterer {
  /// One viewport rectangle at a zoom of the pyramid: returns `false`,
  /// touching nothing, when no zoom-7 cell lies wholly inside it (a view
  /// too small to gain; the caller takes a single pass).
  ///
  /// **The whole cells.** A zoom-7 column `c` holds points whose map x is
  /// at least `c·w` (`w` the cell's width), so the columns after the one
  /// holding the west edge pushed east by ``_CellSummer/pad`` hold only
  /// points east of the edge; likewise for the other three edges. Those
  /// cells (`box`) are added from the pyramid, coarse where a view cell
  /// lies wholly inside the box.
  ///
  /// **The edges.** A point of the rectangle outside `box` is in a column
  /// before `box.c0`, after `box.c1`, or (between them) a row before
  /// `box.r0` or after `box.r1`; four range queries, each the rectangle
  /// clipped to that strip widened by ``_queryPad``, find them, and each
  /// point is taken by the one strip its cell says, so none counts twice.
  /// A point at +180° is in column 0, before `box.c0`, yet only the east
  /// strip holds it: the east strip takes it.
  @inlinable
  mutating func _pyramidRect<C: QueryCounters>(
    _ layout: _StepLayout, _ rc: _RectCells, _ cells: UnsafeMutableBufferPointer<CellTotals>,
    _ pyramid: _CellPyramid, _ counters: inout C
  ) -> Bool {
    let f = _CellPyramid.finestZoom
    let s = WebMercator.scale(zoom: f), cs = cellTable.cellSize(zoom: f), inv = 1 / cs
    let rect = rc.rect, pad = _CellSummer.pad, last = pyramid.last
    @inline(__always) func cell(_ map: Double) -> Int { MapCells.index(map, scale: s, cellSize: cs, inverse: inv) }
    let box = (c0: max(0, cell(WebMercator.x(longitude: rect.minX) + pad) &+ 1),
               c1: min(last, cell(WebMercator.x(longitude: rect.maxX) - pad) &- 1),
               r0: max(0, cell(WebMercator.y(latitude: rect.maxY) + pad) &+ 1),
               r1: min(last, cell(WebMercator.y(latitude: rect.minY) - pad) &- 1))
    guard box.c0 <= box.c1 && box.r0 <= box.r1 else { return false }

    // the whole cells, by view cell
    let zoom = layout.zoom, k = f &- zoom
    let rowLo = layout.rowLo, rowHi = layout.rowHi, width = layout.width
    let colLo = rc.colLo, colHi = rc.colHi, base = rc.dense &- rc.colLo
    var read = 0
    for row in (box.r0 &>> k)...(box.r1 &>> k) where row >= rowLo && row <= rowHi {
      for col in (box.c0 &>> k)...(box.c1 &>> k) where col >= colLo && col <= colHi {
        read &+= pyramid.addCell(zoom: zoom, col: col, row: row, box: box,
                                 into: &cells[(row &- rowLo) &* width &+ base &+ col])
      }
    }
    counters.visitNodes(read)

    // the edges
    let qpad = Self._queryPad
    let west = WebMercator.longitude(x: Double(box.c0) * cs / s)
    let east = WebMercator.longitude(x: Double(box.c1 &+ 1) * cs / s)
    let north = WebMercator.latitude(y: Double(box.r0) * cs / s)
    let south = WebMercator.latitude(y: Double(box.r1 &+ 1) * cs / s)
    let inner = (minX: max(rect.minX, west - qpad), maxX: min(rect.maxX, east + qpad))
    @inline(__always) func strip(_ i: Int) -> Rect {
      switch i {
      case 0: Rect(minX: rect.minX, minY: rect.minY, maxX: min(rect.maxX, west + qpad), maxY: rect.maxY)
      case 1: Rect(minX: max(rect.minX, east - qpad), minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY)
      case 2: Rect(minX: inner.minX, minY: max(rect.minY, north - qpad), maxX: inner.maxX, maxY: rect.maxY)
      default: Rect(minX: inner.minX, minY: rect.minY, maxX: inner.maxX, maxY: min(rect.maxY, south + qpad))
      }
    }
    let table = _table(), records = table.records
    let shift = UInt32(table.shift[zoom]), toFinest = pyramid.shift
    for side in 0..<4 {
      _ids.removeAll(keepingCapacity: true)
      index.query(in: strip(side), into: &_ids, counters: &counters)
      for id in _ids {
        let r = records[Int(id)]
        let fc = min(last, Int(r.col0 &>> toFinest)), fr = min(last, Int(r.row0 &>> toFinest))
        let mine: Bool
        switch side {
        case 0: mine = fc < box.c0
        case 1: mine = fc > box.c1 || fc < box.c0  // before box.c0 here: at +180°, in column 0
        case 2: mine = fc >= box.c0 && fc <= box.c1 && fr < box.r0
        default: mine = fc >= box.c0 && fc <= box.c1 && fr > box.r1
        }
        guard mine else { continue }
        let slot = layout.slot(col: Int(r.col0 &>> shift), row: Int(r.row0 &>> shift), rc)
        guard slot >= 0 else { continue }
        cells[slot].add(id, lonE7: r.lonE7, latE7: r.latE7)
      }
    }
    return true
  }

  /// `aggregate` for an index that forms no groups: each rectangle from
  /// the pyramid where its zoom has one (zooms 0–7) and it holds a whole
  /// zoom-7 cell, else in a single pass.
  @inlinable
  mutating func _pyramidAggregate<C: QueryCounters>(
    _ layout: _StepLayout, _ cells: UnsafeMutableBufferPointer<CellTotals>, _ counters: inout C
  ) {
    let pyramid = layout.zoom <= _CellPyramid.finestZoom ? _pyramid() : nil
    for k in 0..<layout.rectCount {
      let rc = layout.rect(k)
      if let pyramid, _pyramidRect(layout, rc, cells, pyramid, &counters) { continue }
      _ids.removeAll(keepingCapacity: true)
      index.query(in: rc.rect, into: &_ids, counters: &counters)
      _accumulate(layout, rc, cells, onlyColumn: nil, row: 0)
    }
  }
}
