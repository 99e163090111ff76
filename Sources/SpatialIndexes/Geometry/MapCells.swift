/// The clustering grid of a map, as an index needs it to sum points by cell:
/// the exact cell of a map coordinate, one cell's running totals, and the
/// window of cells one query rectangle fills.
///
/// A grid at zoom `z` has square cells of `cellSize` screen points (a whole
/// number), aligned to the world map: the cell of map coordinate `m` (zoom
/// 0, in [0, 256], from ``WebMercator/x(longitude:)`` or
/// ``WebMercator/y(latitude:)``) is `⌊m · 2^z / cellSize⌋`, of the exact
/// quotient, except that map x 256 (+180°) is map x 0 (−180°, see
/// ``isAntimeridian(_:)``). `MapClustering` defines which cell size each
/// zoom has; an index that sums cells itself
/// (``CellSummingIndex/sumCells(in:window:into:counters:)``) computes the same
/// cells with ``MapCells/index(_:scale:cellSize:inverse:)``.
@usableFromInline package enum MapCells {
  /// `⌊map · scale / cellSize⌋` of the exact quotient: `map · scale` is exact
  /// (a power of two), so is `t · cellSize` (whole numbers below 2^53), and
  /// the estimate from the reciprocal, off by at most one, is corrected by
  /// exact comparisons. Cheaper than a division and `floor` (a libm call on
  /// baseline x86-64), and free of the division's rounding, which can carry a
  /// quotient just below a whole number up onto it.
  @inlinable @inline(__always)
  package static func index(_ map: Double, scale: Double, cellSize: Double, inverse: Double) -> Int {
    let d = map * scale
    // clamped so the conversion never traps: NaN gives the low end (a cell
    // no view has), and no finite view reaches ±2^62 cells
    var t = Int(min(0x1p62, max(-0x1p62, d * inverse)))
    if Double(t) * cellSize > d { t &-= 1 } else if Double(t &+ 1) * cellSize <= d { t &+= 1 }
    return t
  }

  /// `degrees` in units of 1e-7° (about 1 cm), rounded to the nearest,
  /// halves away from zero, clamped to ±180° first: the fixed point cell
  /// totals are summed in (a point beyond is never in a viewport).
  @inlinable @inline(__always)
  package static func units(_ degrees: Double) -> Int32 {
    // `rounded()` is a libm call on baseline x86-64 (10% of a clustering
    // step in `perf`); truncate, then step away from zero when the exact
    // remainder is a half or more (|v| < 2^31, so both are exact).
    // Without branches: the remainder's sign is random, and a branch on it
    // mispredicted on every other point (the leaf sums of a build).
    let v = min(180, max(-180, degrees)) * 1e7
    let t = Int64(v)
    let r = v - Double(t)
    let up: Int64 = r >= 0.5 ? 1 : 0
    let down: Int64 = r <= -0.5 ? 1 : 0
    return Int32(truncatingIfNeeded: t &+ up &- down)
  }

  /// Whether a point at `longitude` lies on the antimeridian as the map
  /// sees it: at map x 256 (``WebMercator/x(longitude:)``), the world's east
  /// end, which is its west end, map x 0 (−180°). True of +180° and of the
  /// double just below it, whose sum with 180 rounds to 360.
  ///
  /// A cell is half-open, so a point on its west edge belongs to it, and
  /// east of +180° lies −180°: a point on the antimeridian is binned in
  /// column 0 and summed at −180° (``binX(longitude:)``,
  /// ``binUnits(longitude:)``), at every zoom, beside the points at −180°.
  /// Whether a rectangle holds it is still decided on its own longitude.
  @inlinable @inline(__always)
  package static func isAntimeridian(_ longitude: Double) -> Bool {
    longitude >= 180.0.nextDown && longitude <= 180
  }

  /// The map x at zoom 0 a point at `longitude` is binned at: its own, but
  /// 0 on the antimeridian (``isAntimeridian(_:)``).
  @inlinable @inline(__always)
  package static func binX(longitude: Double) -> Double {
    isAntimeridian(longitude) ? 0 : WebMercator.x(longitude: longitude)
  }

  /// The longitude in 1e-7° units (``units(_:)``) a point at `longitude`
  /// is summed at: its own, but −180° on the antimeridian
  /// (``isAntimeridian(_:)``).
  @inlinable @inline(__always)
  package static func binUnits(longitude: Double) -> Int32 {
    isAntimeridian(longitude) ? -1_800_000_000 : units(longitude)
  }
}

/// One cell's running totals: how many points, one of their ids (the only
/// one when `count` is 1), and their coordinates summed in 1e-7° units.
@frozen @usableFromInline
package struct CellTotals: Sendable, Equatable {
  @usableFromInline package var count: Int32 = 0
  @usableFromInline package var anyID: Int32 = 0
  @usableFromInline package var sumLon: Int64 = 0
  @usableFromInline package var sumLat: Int64 = 0

  @inlinable package init() {}

  /// Adds one point (`id`, its coordinates in 1e-7° units).
  @inlinable @inline(__always)
  package mutating func add(_ id: Int32, lonE7: Int32, latE7: Int32) {
    count &+= 1
    anyID = id
    sumLon &+= Int64(lonE7)
    sumLat &+= Int64(latE7)
  }
}

/// The cells of one grid that one query rectangle covers, and where each
/// cell's totals live: row-major in a dense buffer, `width` columns a row
/// from `rowLo`, column `c` of this rectangle at dense column `base + c`.
/// (Across the antimeridian two rectangles share one buffer, each with its
/// own columns and `base`.)
///
/// A rectangle that reaches +180° holds points that belong to column 0 (map
/// x 256 is map x 0, ``MapCells/isAntimeridian(_:)``): when column 0 is not
/// among `colLo...colHi`, `columnZero` says where the buffer keeps it.
@frozen @usableFromInline
package struct CellWindow: Sendable, Equatable {
  @usableFromInline package var zoom: Int
  /// The cell side in screen points at `zoom`: a whole number.
  @usableFromInline package var cellSize: Double
  @usableFromInline package var rowLo: Int
  @usableFromInline package var rowHi: Int
  @usableFromInline package var colLo: Int
  @usableFromInline package var colHi: Int
  @usableFromInline package var width: Int
  @usableFromInline package var base: Int
  /// The dense column of column 0, for the rectangle's points at +180°,
  /// when column 0 lies outside `colLo...colHi`; −1 when it lies inside or
  /// the rectangle does not reach +180°.
  @usableFromInline package var columnZero: Int

  @inlinable
  package init(
    zoom: Int, cellSize: Double, rowLo: Int, rowHi: Int, colLo: Int, colHi: Int, width: Int, base: Int,
    columnZero: Int = -1
  ) {
    self.zoom = zoom
    self.cellSize = cellSize
    self.rowLo = rowLo
    self.rowHi = rowHi
    self.colLo = colLo
    self.colHi = colHi
    self.width = width
    self.base = base
    self.columnZero = columnZero
  }

  /// `2^zoom`.
  @inlinable package var scale: Double { WebMercator.scale(zoom: zoom) }

  /// Whether cell (`col`, `row`) lies in the window.
  @inlinable @inline(__always)
  package func contains(col: Int, row: Int) -> Bool {
    col >= colLo && col <= colHi && row >= rowLo && row <= rowHi
  }

  /// The dense slot of cell (`col`, `row`), which lies in the window.
  @inlinable @inline(__always)
  package func slot(col: Int, row: Int) -> Int {
    (row &- rowLo) &* width &+ base &+ col
  }

  /// The dense slot of cell (0, `row`) kept at ``columnZero``, or -1 when
  /// there is none there (or the row lies outside the window).
  @inlinable @inline(__always)
  package func columnZeroSlot(row: Int) -> Int {
    columnZero >= 0 && row >= rowLo && row <= rowHi ? (row &- rowLo) &* width &+ columnZero : -1
  }
}
