import SpatialIndexes

/// How ``Clusterer`` asks the index for the points of a viewport.
public enum ClusterStrategy: String, CaseIterable, Sendable, CustomStringConvertible {
  /// One range query per grid cell covering the viewport, as the original
  /// did. Each query is the cell's box (widened by a hair) clipped to the
  /// viewport rectangle; a point that two cells' inclusive queries both
  /// return is kept only by the cell it belongs to.
  case perCell = "per-cell"
  /// One range query per viewport rectangle; the points are then binned
  /// into their cells.
  case singlePass = "single-pass"
  /// One grouped query per viewport rectangle (the package's
  /// `GroupingIndex`): a subtree whose box lies inside one cell is added
  /// from prefix sums of its points' coordinates, kept by the clusterer over
  /// the index's storage order, without visiting its points. Other points
  /// are binned one by one. An index that sums cells itself (the cell tree,
  /// through the package's `CellSummingIndex`) is asked for the cells'
  /// totals instead. Over one that forms no groups (the linear scan, a
  /// quadtree or grid changed since its build), or once points moved, the
  /// clusterer keeps its own totals by cell at zooms 4 and 7 and adds whole
  /// zoom-7 cells from them, reading only the points along the view's
  /// edges (`_CellPyramid`); at zooms past 7 this is ``singlePass``.
  case aggregate = "aggregate"

  /// The name reports and the command line use: `per-cell`, `single-pass`, `aggregate`.
  public var description: String { rawValue }
}

/// Grid clustering of the points a viewport shows, as the map app does it.
///
/// **Cells.** At zoom `z` the cell side `c` comes from ``cellTable`` (screen
/// points). A point's cell is
/// `column = ⌊mapX · 2^z / c⌋`, `row = ⌊mapY · 2^z / c⌋` (of the exact
/// quotient, not of a rounded division), with
/// `mapX = WebMercator.x(longitude:)` and `mapY = WebMercator.y(latitude:)`
/// at zoom 0 (in [0, 256]). Cell sides are whole numbers, so the floor is
/// computed exactly (no rounded division can carry a quotient just below an
/// edge onto it), and points stored with cell numbers of nested grids get
/// the same cell by a shift (see `_PointTable`). Cells are aligned to the
/// world map and do not move while the user pans. A point's cell comes from
/// its own longitude in [−180, 180], so the grid is the same whichever copy
/// of the world the viewport shows; the last column of the world is partial
/// when `c` does not divide the world's width (zooms 0–12).
///
/// **+180° is −180°.** Map x 256 (longitude +180°) is the meridian of map x
/// 0 (−180°), and east of it lies column 0. So a point at +180° is in column
/// 0 at every zoom, with the points at −180°, and its longitude is counted
/// as −180° in the mean (a one-point marker stands at −180°), whichever box
/// shows it (`MapCells.isAntimeridian(_:)`). Which points are in view is
/// still decided on their own coordinates: a box whose east edge is +180°
/// shows the points stored at +180° (in column 0, though the box need not
/// reach it), and one whose west edge is −180° does not.
///
/// **Half-open cells.** A point belongs to exactly one cell: the cell
/// `[k·c, (k+1)·c)` on each axis. A point on an edge shared by two cells
/// belongs to the cell to its east (or south). The original counted such a
/// point in both cells; this one does not.
///
/// **Which points.** Exactly the points inside one of the viewport's
/// rectangles (``Viewport/rects``: inclusive bounds, latitudes clamped to
/// ±``WebMercator/maxLatitude``, two rectangles across the antimeridian,
/// one rectangle covering every longitude when the viewport is as wide as
/// the world). The original clustered whole cells, so an edge cell's marker
/// counted points off screen; here an edge cell's marker counts, and
/// averages, only its visible points. Points north or south of the Web
/// Mercator map are never shown. A rectangle that reaches +180° also shows
/// column 0, where its points at +180° go. Any other point inside a
/// rectangle whose cell falls outside the rectangle's cell range (which
/// rounding in the projection could in principle cause; it has not been
/// observed) is left out by every strategy.
///
/// **Markers.** One per non-empty cell: its count and the mean of its
/// points' latitudes and longitudes, in fixed point (`FixedPoint`): each coordinate
/// rounded to 1e-7 degree (about 1 cm) as an `Int32`, summed in `Int64`
/// (with 32-bit ids at most 2^31 points are summed, |sum| ≤ 2^31 · 1.8e9 <
/// 2^63, so the sums cannot overflow), the mean the sum over the count
/// rounded to the nearest unit. Integer sums do not depend on the order in
/// which points are visited: every index and strategy gives the same
/// markers, bit for bit. A cell with one point gives that point's marker:
/// its id and its exact coordinates.
///
/// **Order.** Markers come out by row (north to south), then column (west to
/// east, by column number): by ``MarkerKey`` order, which ``MarkerDiff``
/// relies on.
///
/// **Strategies** (``ClusterStrategy``) differ only in how they ask the index
/// for the points; all give the same markers, bit for bit. `aggregate` adds a
/// group whose box lies inside one cell from prefix sums (see
/// `_CellSummer` for why that is exact).
///
/// **Cost.** A step allocates nothing once its buffers have grown to the
/// largest viewport seen (the id buffer, the per-cell accumulators, a dense
/// array over the viewport's cell range, and the caller's marker array).
/// When an index returns many ids (≥ 1/16 of the points) they are read in
/// increasing order through a bitmap, so the per-id records are swept rather
/// than read at random. Per point a step then costs a record read, two
/// shifts and four adds; on 170k points a view of the whole world (all of
/// them) is about 1 ms on the development VM.
///
/// ```swift
/// let index = try KDTreeIndex(points: places)
/// var clusterer = try Clusterer(index: index, points: places)
/// var markers: [ClusterMarker] = []
/// clusterer.cluster(viewport, strategy: .singlePass, into: &markers)
/// ```
public struct Clusterer<Index: SpatialIndex> {
  /// The index over ``points``.
  @inlinable public var index: Index { _index }
  /// The points, by id (the index was built from them; moves change them).
  @inlinable public var points: [Point] { _points }
  @usableFromInline var _index: Index
  @usableFromInline var _points: [Point]
  @usableFromInline package let cellTable: ClusterCellTable
  /// The cell table's zooms in families whose grids nest.
  @usableFromInline let _families: _CellFamilies

  /// Per-id records for the hot loops, built on first use: an index that
  /// sums cells itself never needs them for `aggregate`.
  @usableFromInline var _tableStorage: _PointTable? = nil
  /// Above this many points the unfiltered per-cell and single-pass steps
  /// take each point's cell and coordinates from the point itself
  /// (``_PointTable/projectedCell(_:scale:cellSize:)``, the same cells)
  /// and build no table: at 24 bytes a point it was the largest thing a
  /// run over 100M points held after the points and the index (61.8 bytes
  /// a point at its peak, 37 of them the points and the k-d tree). A table
  /// already made (for a filter, the pyramid or moves) is still used.
  /// Package-visible so that tests can take the path on small data.
  @usableFromInline package var _tablePointLimit = 1 << 25
  /// Prefix sums over the index's group order, for `aggregate` over an
  /// index that forms groups; built on first use.
  @usableFromInline var _groupsStorage: _GroupSums? = nil
  /// Totals by cell at zooms 0–7, kept under moves, for `aggregate` over an
  /// index that forms no groups; built on first use.
  @usableFromInline var _pyramidStorage: _CellPyramid? = nil
  /// Summaries of property columns by node of an index that sums cells,
  /// for filtered `aggregate`; built a column at a time on first use.
  @usableFromInline var _summaryStorage: _NodeSummaries? = nil
  /// Filtered `aggregate` on the cell tree walks the summaries unless more
  /// than 1/this of a sample of leaves' points are in mixed leaves (see
  /// `_summaryFilter(_:)`); 0: it always walks them (for tests).
  package var _walkMixedLimit = 16
  /// Whether points have moved: prefix sums over the index's order would
  /// then be made again after every change (an O(n) gather, 25–33 ms a
  /// frame at 1M points), so `aggregate` keeps totals by cell instead.
  @usableFromInline var _moved = false
  /// Whether the index sums cells itself (``CellSummingIndex``), and
  /// whether it formed groups (``GroupingIndex``) when the clusterer got it:
  /// tested once here, not on every step (a type's conformance that does
  /// not hold is looked up at run time). The groups are read only until
  /// points move (``_moved``), and only a move changes the index.
  @usableFromInline let _indexSumsCells: Bool
  @usableFromInline let _indexFormsGroups: Bool

  @usableFromInline var _ids: [Int32] = []
  /// The bitmap that sorts `_ids` when they are many.
  @usableFromInline var _bitmap: [UInt64] = []
  @usableFromInline var _cells: [CellTotals] = []
  @usableFromInline var _lonEdges: [Double] = []
  @usableFromInline var _latEdges: [Double] = []
  /// For a step with aggregates: each cell's ``_FieldTotals``, one for each
  /// column aggregated, and the cell slot of each id of `_ids`.
  @usableFromInline var _fieldTotals: [_FieldTotals] = []
  @usableFromInline var _slots: [Int32] = []

  /// A clusterer over `points`, queried through `index`, which must have been
  /// built from the same `points` (ids are positions in it).
  ///
  /// - Throws: ``ClusteringError/indexDoesNotMatchPoints(indexCount:pointCount:)``
  ///   when the index holds another number of points.
  /// - Complexity: O(1); the points' projections are computed on first use.
  public init(index: Index, points: [Point], cellTable: ClusterCellTable = .default) throws(ClusteringError) {
    guard index.count == points.count else {
      throw .indexDoesNotMatchPoints(indexCount: index.count, pointCount: points.count)
    }
    self.init(unchecked: index, points: points, cellTable: cellTable)
  }

  /// The clusterer of an index known to be built from `points`.
  init(unchecked index: Index, points: [Point], cellTable: ClusterCellTable) {
    _index = index
    _points = points
    _indexSumsCells = _sumsCells(Index.self)
    _indexFormsGroups = !_indexSumsCells && !_groupOrder(index).isEmpty
    self.cellTable = cellTable
    _families = _CellFamilies(cellTable)
  }

  /// The per-id records, made on first use (called once a step, not a point).
  @usableFromInline
  mutating func _table() -> _PointTable {
    if let t = _tableStorage { return t }
    let t = _PointTable(points, table: cellTable)
    _tableStorage = t
    return t
  }

  /// The prefix sums over the index's group order, made on first use.
  @usableFromInline
  mutating func _groups() -> _GroupSums {
    if let g = _groupsStorage { return g }
    let g = _GroupSums(index: index, points: points)
    _groupsStorage = g
    return g
  }

  /// The totals by cell, made on first use; nil when the cell table's
  /// coarse zooms do not nest (a custom table).
  @usableFromInline
  mutating func _pyramid() -> _CellPyramid? {
    if let p = _pyramidStorage { return p }
    let table = _table()
    guard _CellPyramid.fits(table) else { return nil }
    let p = _CellPyramid(points: points, table: table, cellTable: cellTable)
    _pyramidStorage = p
    return p
  }

  /// Builds the index over `points`, then the clusterer.
  public init(
    points: [Point], parameters: Index.Parameters = Index.Parameters(),
    cellTable: ClusterCellTable = .default
  ) throws(IndexError) {
    self.init(unchecked: try Index(points: points, parameters: parameters), points: points,
              cellTable: cellTable)
  }

  /// The cell of `point` at `zoom` (half-open on each axis; +180° is in
  /// column 0 with −180°).
  @inlinable
  package func cell(of point: Point, zoom: Int) -> (column: Int, row: Int) {
    let s = WebMercator.scale(zoom: zoom), c = cellTable.cellSize(zoom: zoom)
    return (MapCells.index(MapCells.binX(longitude: point.x), scale: s, cellSize: c, inverse: 1 / c),
            MapCells.index(WebMercator.y(latitude: point.y), scale: s, cellSize: c, inverse: 1 / c))
  }

  /// The markers of `viewport`, in a new array (see ``cluster(_:strategy:into:)``).
  public mutating func markers(
    for viewport: Viewport, strategy: ClusterStrategy = .singlePass
  ) -> [ClusterMarker] {
    markers(for: viewport.visibleArea, strategy: strategy)
  }

  /// The markers of `area`, in a new array.
  package mutating func markers(
    for area: VisibleArea, strategy: ClusterStrategy = .singlePass
  ) -> [ClusterMarker] {
    var markers: [ClusterMarker] = []
    cluster(area, strategy: strategy, into: &markers)
    return markers
  }

  /// Replaces the contents of `markers` with the markers of `viewport`:
  /// its zoom's cells, the points inside its rectangles (``Viewport/rects``).
  ///
  /// - Complexity: single-pass: one or two range queries plus O(*k*) for *k*
  ///   points visible; per-cell: one range query per cell covering the
  ///   viewport plus O(*k*); aggregate: see ``ClusterStrategy/aggregate``.
  ///   Each adds O(*cells*) to reset and emit; once its buffers have grown,
  ///   a step allocates nothing.
  @inlinable
  public mutating func cluster(
    _ viewport: Viewport, strategy: ClusterStrategy = .singlePass,
    into markers: inout [ClusterMarker]
  ) {
    cluster(viewport.visibleArea, strategy: strategy, into: &markers)
  }

  /// Replaces the contents of `markers` with the markers of `area`.
  @inlinable
  package mutating func cluster(
    _ area: VisibleArea, strategy: ClusterStrategy = .singlePass,
    into markers: inout [ClusterMarker]
  ) {
    var none = NoCounters()
    cluster(area, strategy: strategy, into: &markers, counters: &none)
  }
}

/// What the hot loops read about each point, by id: its cell in the
/// finest grid of each of two families of zooms (see ``_PointTable``) and
/// its fixed-point coordinates.
@usableFromInline
struct _PointRecord: Equatable {
  @usableFromInline var col0: UInt32
  @usableFromInline var row0: UInt32
  @usableFromInline var col1: UInt32
  @usableFromInline var row1: UInt32
  /// Longitude and latitude in units of 1e-7 degree (clamped to ±180 and ±90:
  /// a point outside never lies in a viewport rectangle), as they are summed:
  /// +180° as −180° (``MapCells/binUnits(longitude:)``).
  @usableFromInline var lonE7: Int32
  @usableFromInline var latE7: Int32

  /// The cell numbers of a point the map does not show (beyond ±180° or
  /// ``WebMercator/latitudeRange``): no cell has them, and no view holds it.
  @usableFromInline static var offTheMap: UInt32 { .max }

  /// Whether the map shows the point (see ``offTheMap``).
  @inlinable var isShown: Bool { col0 != Self.offTheMap }
}

/// The points' records in one allocation, by id, and their map coordinates.
/// Shared by copies of a ``Clusterer``; one that moves a point copies the
/// table first unless it holds the only reference (see `Clusterer+Moves`).
///
/// **Cells without arithmetic.** Computing a cell costs a few multiplies,
/// conversions and comparisons an axis: most of a step over the whole world.
/// Write a cell side `c = odd · 2^e`; at zoom `z` a cell is `odd · 2^(e−z)`
/// map units wide. Zooms with the same `odd` form a family whose grids nest:
/// with `L = z − e` and the family's finest level `Lb`,
/// `⌊x · 2^z / c⌋ = ⌊x · 2^Lb / odd⌋ >> (Lb − L)`, since `⌊⌊a⌋ / 2^k⌋ = ⌊a / 2^k⌋`.
/// So each point stores its cell at the finest level of up to two families
/// (levels up to 23, so a cell number fits in 32 bits) and a step at a zoom
/// of a family only shifts. The default table has two families: 88-point
/// cells (odd 11, zooms 0–12 and 20 on) and 64, 32 and 16-point cells (odd 1,
/// zooms 13–19). Other zooms (27–30 with the default table) and views too
/// wide for the dense buffer compute the cell from the point's projection
/// (``projectedCell(_:scale:cellSize:)``): storing map x and y
/// for them cost 16 bytes a point and two cache lines a move. Both ways
/// give exactly the cell of the definition.
@usableFromInline
final class _PointTable: @unchecked Sendable {
  @usableFromInline let count: Int
  @usableFromInline let records: UnsafeMutablePointer<_PointRecord>
  /// Which zooms a record's cells serve, and how.
  @usableFromInline let families: _CellFamilies
  /// For zooms 0...``ClusterCellTable/maximumBandZoom``: the family (0 or 1,
  /// or -1 to compute) and the shift from its stored cells.
  @usableFromInline var family: [Int8] { families.family }
  @usableFromInline var shift: [Int8] { families.shift }

  init(_ points: [Point], table: ClusterCellTable) {
    count = points.count
    families = _CellFamilies(table)
    records = .allocate(capacity: count)
    for (i, p) in points.enumerated() { set(i, p) }
  }

  /// A copy of `other`, for a clusterer that moves points while another
  /// shares the records.
  @usableFromInline
  init(copying other: _PointTable) {
    count = other.count
    families = other.families
    records = .allocate(capacity: count)
    records.initialize(from: other.records, count: count)
  }

  /// Starts loading point `i`'s record.
  @usableFromInline
  func prefetch(_ i: Int) { _prefetchLine(records + i) }

  /// Writes the records of point `i` at `p`.
  @usableFromInline
  func set(_ i: Int, _ p: Point) { records[i] = Self.record(p, families) }

  /// The record of a point at `p`. It reads no table, so a batch of moves
  /// can work its records out beside the index's moves.
  @usableFromInline
  static func record(_ p: Point, _ families: _CellFamilies) -> _PointRecord {
    let x = MapCells.binX(longitude: p.x), y = WebMercator.y(latitude: p.y)
    let off = _PointRecord.offTheMap
    let shown = p.x >= -180 && p.x <= 180 && WebMercator.latitudeRange.contains(p.y)
    return _PointRecord(
      col0: shown ? code(x, 0, families) : off, row0: shown ? code(y, 0, families) : off,
      col1: shown ? code(x, 1, families) : off, row1: shown ? code(y, 1, families) : off,
      lonE7: MapCells.binUnits(longitude: p.x), latE7: MapCells.units(p.y))
  }

  /// The cell of `p` at a zoom outside both families, from its projection
  /// (the definition's exact floor).
  @inlinable @inline(__always)
  static func projectedCell(_ p: Point, scale s: Double, cellSize cs: Double) -> (Int, Int) {
    (MapCells.index(MapCells.binX(longitude: p.x), scale: s, cellSize: cs, inverse: 1 / cs),
     MapCells.index(WebMercator.y(latitude: p.y), scale: s, cellSize: cs, inverse: 1 / cs))
  }

  /// The cell number of map coordinate `map` at family `f`'s finest level.
  private static func code(_ map: Double, _ f: Int, _ families: _CellFamilies) -> UInt32 {
    guard f < families.odd.count else { return 0 }
    let c = Double(families.odd[f])
    let k = MapCells.index(map, scale: families.scale(f), cellSize: c, inverse: 1 / c)
    return UInt32(clamping: k)  // a rounding away from the map's edge: clamped to it
  }

  /// Bytes held for `count` points: the records.
  static func bytes(count: Int) -> Int { count * MemoryLayout<_PointRecord>.stride }

  deinit {
    records.deallocate()
  }
}
