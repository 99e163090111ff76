import SpatialIndexes

/// One cell's totals in a ``_CellPyramid`` (24 bytes): kept under moves,
/// so points leave as well as join, and the id of a lone point is the
/// exclusive or of the ids.
@usableFromInline
struct _PyramidCell {
  @usableFromInline var count: Int32 = 0
  @usableFromInline var xorID: Int32 = 0
  @usableFromInline var sumLon: Int64 = 0
  @usableFromInline var sumLat: Int64 = 0
}

/// The clusterer's own totals of the points by cell, at zooms 4 and 7 of
/// the 88-point family, kept as points move: what `aggregate` adds whole
/// cells from when the index forms no groups (the linear scan; a dynamic
/// index after a move).
///
/// **Why.** Without groups, a view of the world reads every point in it
/// each frame (about 5 ms at 1M points). The cells of zooms 0–7 nest
/// (``_PointTable``), so dense grids of totals answer the part of a view
/// made of whole zoom-7 cells in time proportional to its cells and its
/// edges; only the points in the zoom-7 cells that a view edge cuts are
/// read, through four thin range queries on the index.
///
/// **Two zooms of eight.** Every move writes each grid kept, and the
/// zoom-7 grid (3.3 MB) is a cache miss a move: a grid for each of zooms
/// 0–7 cost about 1.2 ms a frame of 10,000 moves at 1M points, against
/// the frame's 2.5 ms without totals. A zoom not kept adds up the next kept
/// one's cells instead (a zoom-0 cell is 256 zoom-4 cells, the 47 × 47
/// zoom-4 grid is 53 kB and stays in cache).
///
/// **Size.** Fixed, whatever the number of points: 373 × 373 and 47 × 47
/// cells, 24 bytes a cell, 3.4 MB.
///
/// **Exactness.** A point is in the cell its record's code says, so the
/// totals are those a pass over the points would add; counts and sums are
/// integers, so removing a point undoes adding it exactly. Only points the
/// map shows are counted (others never lie in a view); their records say
/// so (``_PointRecord/isShown``).
@usableFromInline
final class _CellPyramid: @unchecked Sendable {
  /// The finest zoom kept: its cells are 88/32768 of the world's width.
  /// Finer means thinner edge strips to read and four times the memory
  /// each zoom; see the README's live section for the measurement.
  @usableFromInline static let finestZoom = 7
  /// The zooms whose grids are kept, ascending, ``finestZoom`` last.
  @usableFromInline static let keptZooms = [4, 7]

  /// The shift from a record's family-0 code to its zoom-``finestZoom`` cell.
  @usableFromInline let shift: UInt32
  /// Columns (and rows) of each zoom's grid, 0…``finestZoom``, and where a
  /// kept one starts in ``cells`` (-1: not kept).
  @usableFromInline let columns: [Int]
  @usableFromInline let offsets: [Int]
  @usableFromInline let cells: UnsafeMutablePointer<_PyramidCell>
  let cellCount: Int
  /// The largest zoom-7 column or row (map x or y 256).
  @usableFromInline let last: Int

  /// Whether zooms 0…``finestZoom`` of `table` are one family whose codes
  /// nest zoom by zoom (true of the default cell table).
  @inlinable
  static func fits(_ table: _PointTable) -> Bool {
    let f = finestZoom
    guard f < table.family.count, table.family[f] == 0 else { return false }
    for z in 0...f where table.family[z] != 0 || Int(table.shift[z]) != Int(table.shift[f]) + f - z {
      return false
    }
    return true
  }

  /// Whether zooms 0…``finestZoom`` of `table` have one cell size (in
  /// screen points, so a cell is four of the next zoom's): what ``fits(_:)``
  /// finds in the records' families, without making them.
  static func nests(_ table: ClusterCellTable) -> Bool {
    let c = table.cellSize(zoom: finestZoom)
    return (0...finestZoom).allSatisfy { table.cellSize(zoom: $0) == c }
  }

  /// The columns (and rows) of each zoom's grid, 0…``finestZoom``: up to
  /// the cell of map x 256 (the partial last column; where the cells divide
  /// the world, one past the last, which stays empty: a point at +180° is in
  /// column 0).
  static func columns(_ table: ClusterCellTable) -> [Int] {
    let f = finestZoom, c = table.cellSize(zoom: f)
    let last = MapCells.index(256, scale: WebMercator.scale(zoom: f), cellSize: c, inverse: 1 / c)
    return (0...f).map { z in (last >> (f - z)) + 1 }
  }

  /// The pyramid of `points` (whose records `table` holds), or nil when the
  /// cell table's zooms 0…``finestZoom`` are not one nested family.
  init?(points: [Point], table: _PointTable, cellTable: ClusterCellTable) {
    guard Self.fits(table) else { return nil }
    let f = Self.finestZoom
    shift = UInt32(table.shift[f])
    let columns = Self.columns(cellTable)
    last = columns[f] - 1
    var offsets = [Int](repeating: -1, count: f + 1), total = 0
    for z in Self.keptZooms {
      offsets[z] = total
      total += columns[z] * columns[z]
    }
    self.columns = columns
    self.offsets = offsets
    cellCount = total
    cells = .allocate(capacity: total)
    cells.initialize(repeating: _PyramidCell(), count: total)
    for i in 0..<points.count where table.records[i].isShown {
      add(table.records[i], id: Int32(truncatingIfNeeded: i), sign: 1)
    }
  }

  /// A copy, for a clusterer that moves points while another shares this one.
  @usableFromInline
  init(copying other: _CellPyramid) {
    shift = other.shift
    columns = other.columns
    offsets = other.offsets
    cellCount = other.cellCount
    last = other.last
    cells = .allocate(capacity: cellCount)
    cells.initialize(from: other.cells, count: cellCount)
  }

  deinit { cells.deallocate() }

  /// Bytes held: the cells, fixed for a cell table.
  static func bytes(table: ClusterCellTable) -> Int {
    let columns = columns(table)
    return keptZooms.reduce(0) { $0 + columns[$1] * columns[$1] } * MemoryLayout<_PyramidCell>.stride
  }

  /// The cell at a kept `zoom` that holds zoom-7 cell (`col`, `row`).
  @inlinable @inline(__always)
  func slot(zoom: Int, finestColumn col: Int, finestRow row: Int) -> UnsafeMutablePointer<_PyramidCell> {
    let k = Self.finestZoom &- zoom
    let rowStart: Int = offsets[zoom] &+ (row &>> k) &* columns[zoom]
    return cells + (rowStart &+ (col &>> k))
  }

  /// Starts loading the zoom-7 cell (the zoom-4 grid stays in cache) that
  /// the point of record `r` is in.
  @inlinable
  func prefetchCells(of r: _PointRecord) {
    let col = min(last, Int(r.col0 &>> shift)), row = min(last, Int(r.row0 &>> shift))
    _prefetchLine(slot(zoom: Self.finestZoom, finestColumn: col, finestRow: row))
  }

  /// Adds (`sign` 1) or removes (−1) the point of record `r` at every zoom.
  @inlinable
  func add(_ r: _PointRecord, id: Int32, sign: Int64) {
    let col = min(last, Int(r.col0 &>> shift)), row = min(last, Int(r.row0 &>> shift))
    let lon = sign &* Int64(r.lonE7), lat = sign &* Int64(r.latE7)
    for z in Self.keptZooms {
      let c = slot(zoom: z, finestColumn: col, finestRow: row)
      c.pointee.count &+= Int32(truncatingIfNeeded: sign)
      c.pointee.xorID ^= id
      c.pointee.sumLon &+= lon
      c.pointee.sumLat &+= lat
    }
  }

  /// Follows point `id` from record `old` to `new`. Most moves of a fleet
  /// stay in their zoom-7 cell (tens of kilometres wide): only the sums
  /// change then.
  @inlinable
  func move(id: Int32, from old: _PointRecord, to new: _PointRecord) {
    let col = min(last, Int(new.col0 &>> shift)), row = min(last, Int(new.row0 &>> shift))
    guard old.isShown && new.isShown && col == min(last, Int(old.col0 &>> shift))
      && row == min(last, Int(old.row0 &>> shift)) else {
      if old.isShown { add(old, id: id, sign: -1) }
      if new.isShown { add(new, id: id, sign: 1) }
      return
    }
    let dLon = Int64(new.lonE7) &- Int64(old.lonE7), dLat = Int64(new.latE7) &- Int64(old.latE7)
    for z in Self.keptZooms {
      let c = slot(zoom: z, finestColumn: col, finestRow: row)
      c.pointee.sumLon &+= dLon
      c.pointee.sumLat &+= dLat
    }
  }

  /// Adds to `total` the points of zoom-`zoom` cell (`col`, `row`) whose
  /// zoom-7 cells lie in columns `box.c0…box.c1` and rows `box.r0…box.r1`:
  /// a kept cell inside the box whole, one cut by its edge (or of a zoom
  /// not kept) through its four children. Returns the cells read.
  @inlinable
  func addCell(
    zoom: Int, col: Int, row: Int, box: (c0: Int, c1: Int, r0: Int, r1: Int),
    into total: inout CellTotals
  ) -> Int {
    let k = Self.finestZoom &- zoom
    var read = 0
    if offsets[zoom] >= 0 {
      let at: Int = offsets[zoom] &+ row &* columns[zoom] &+ col
      let cell = cells[at]
      read = 1
      if cell.count == 0 { return read }
      let c0 = col &<< k, c1 = ((col &+ 1) &<< k) &- 1, r0 = row &<< k, r1 = ((row &+ 1) &<< k) &- 1
      if c0 >= box.c0 && c1 <= box.c1 && r0 >= box.r0 && r1 <= box.r1 {
        // with one point in the cell, the exclusive or of the ids is its id
        total.anyID = cell.xorID
        total.count &+= cell.count
        total.sumLon &+= cell.sumLon
        total.sumLat &+= cell.sumLat
        return read
      }
    }
    // never at zoom 7, kept, where a cell is in the box or out
    let h = k &- 1
    for r in (row &<< 1)...((row &<< 1) &+ 1) where (r &<< h) <= box.r1 && (((r &+ 1) &<< h) &- 1) >= box.r0 {
      for c in (col &<< 1)...((col &<< 1) &+ 1) where (c &<< h) <= box.c1 && (((c &+ 1) &<< h) &- 1) >= box.c0 {
        read &+= addCell(zoom: zoom &+ 1, col: c, row: r, box: box, into: &total)
      }
    }
    return read
  }
}
