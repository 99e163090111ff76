/// Where a node lies in the view's grid.
@usableFromInline
enum _NodeCell {
  /// The node may span several cells (or the grid has no whole nodes).
  case several
  /// The node lies in one cell outside the window: none of its points
  /// inside the rectangle can be (see "Which points" on Clusterer).
  case outsideWindow
  /// The node lies in the window's cell at this slot.
  case slot(Int32)
}

/// The view's grid of cells (``CellWindow``) in the tree's integer codes:
/// which cell holds a node, or a point, without projecting when it can.
///
/// A node's code range [q0, q1) lies in the cells (11·q0) / D ... (11·q1 − 1) / D
/// of a grid of side odd · 2^e at zoom z, D = odd · 2^(e + 23 − z). When
/// e + 23 − z < 0 a cell is finer than a code and no node lies in one.
@usableFromInline
struct _CellGrid {
  @usableFromInline let window: CellWindow
  /// For projecting a point: `2^zoom`, the cell side and its inverse.
  @usableFromInline let scale: Double, size: Double, inverse: Double
  /// Whether a node can lie in one cell (the side is whole, m in 0...40).
  @usableFromInline let fits: Bool
  /// The cell side is odd · 2^e; m = e + 23 − z; divisor = D = odd · 2^m.
  @usableFromInline let odd: Int, m: Int, divisor: Int

  @inlinable @inline(__always)
  init(_ window: CellWindow) {
    self.window = window
    scale = window.scale
    size = window.cellSize
    inverse = 1 / size
    let whole = Int(size)
    let e = whole.trailingZeroBitCount
    odd = whole >> e
    m = e &+ 23 &- window.zoom
    fits = m >= 0 && m <= 40 && Double(whole) == size
    divisor = fits ? odd << m : 1
  }

  /// The cell of the node at code (`cx`, `cy`) of `depth`: integer
  /// arithmetic on its code range. Transparent for the reason given on
  /// ``_CellSumming``.
  @usableFromInline @_transparent
  func cell(ofNodeAt cx: Int32, _ cy: Int32, depth: Int) -> _NodeCell {
    guard fits else { return .several }
    let s = CellTree.maxDepth &- depth
    var col = 0, row = 0, one = false
    if odd == 11 {
      // the map's own 88-point grid: a node of depth ≥ z + 2 is in one
      // cell, found by a shift (no division on this path)
      if s <= m {
        col = Int(cx) &>> (m &- s)
        row = Int(cy) &>> (m &- s)
        one = true
      }
    } else {
      let x0 = Int(cx) << s, x1 = Int(cx &+ 1) << s
      let y0 = Int(cy) << s, y1 = Int(cy &+ 1) << s
      if odd == 1 {
        col = 11 &* x0 &>> m
        row = 11 &* y0 &>> m
        one = col == (11 &* x1 &- 1) &>> m && row == (11 &* y1 &- 1) &>> m
      } else {
        col = 11 &* x0 / divisor
        row = 11 &* y0 / divisor
        one = col == (11 &* x1 &- 1) / divisor && row == (11 &* y1 &- 1) / divisor
      }
    }
    guard one else { return .several }
    guard window.contains(col: col, row: row) else { return .outsideWindow }
    return .slot(Int32(truncatingIfNeeded: window.slot(col: col, row: row)))
  }

  /// The slot of the point at `lon`, `lat` whose zoom-26 row is `r`, or
  /// nil when its cell is outside the window (never in practice: see
  /// "Which points" on Clusterer). A point at +180° is in column 0
  /// (``MapCells/binX(longitude:)``), at ``CellWindow/columnZero`` when
  /// column 0 lies outside the window's columns.
  ///
  /// The point's map y lies in [11·r, 11·(r + 1)) / 2^23, so its row in the
  /// view's grid is between 11·r / D and (11·r + 10) / D; in the map's own
  /// 88-point grid (odd 11) both are r >> m. Only when they differ (a row's
  /// edge inside the point's zoom-26 row) is the point projected.
  @inlinable @inline(__always)
  func slot(lon: Double, lat: Double, row26 r: Int) -> Int? {
    let col = MapCells.index(MapCells.binX(longitude: lon), scale: scale, cellSize: size, inverse: inverse)
    var row = 0
    if fits && odd == 11 {
      row = r &>> m
    } else if fits && (11 &* r) / divisor == (11 &* r &+ 10) / divisor {
      row = (11 &* r) / divisor
    } else {
      row = MapCells.index(WebMercator.y(latitude: lat), scale: scale, cellSize: size, inverse: inverse)
    }
    if window.contains(col: col, row: row) { return window.slot(col: col, row: row) }
    let zero = col == 0 ? window.columnZeroSlot(row: row) : -1
    return zero >= 0 ? zero : nil
  }
}
