/// A uniform grid of square cells whose points sit together in one flat pool.
///
/// The cell of a point is `(column, row)` with
/// `column = clamp(floor((x - originX) / cellSize), 0, cellsX - 1)` and
/// likewise for the row; the origin and the number of columns and rows come
/// from the bounds of the points at the last build. Clamping keeps the map
/// from coordinate to cell monotone, so points inserted outside the build
/// bounds land in a border cell and are still found, and a query can trust it:
/// a cell whose column lies strictly between the columns of `rect.minX` and
/// `rect.maxX` (and whose row lies strictly between those of `rect.minY` and
/// `rect.maxY`) holds only points inside the rectangle, so its ids are
/// reported without testing a coordinate. Only the ring of border cells is
/// tested point by point.
///
/// **Layout.** Every cell owns a run `start ..< start + capacity` of a pool of
/// interleaved coordinates (`coords[2 * i]`, `coords[2 * i + 1]`) and ids
/// (`ids[i]`), of which the first `count` slots are used. A build lays the
/// runs out contiguously in cell order with a counting sort (CSR layout,
/// capacity == count). An insert into a full cell moves its run to the end of
/// the pool with twice the capacity; the old run becomes a hole, and the pool
/// is compacted when holes exceed half of it or live points fill less than a
/// quarter. After as many inserts as the index held at its last build, it is
/// rebuilt: the bounds and the automatic cell size follow the data again.
///
/// **Dense or sparse.** A grid of at most
/// `max(denseCellsPerPoint · n, denseMinimumCells)` cells (`n` points at build)
/// is dense: one `(start, count)` entry per cell, addressed by
/// `row · cellsX + column`. A larger grid (a fine cell size over the world)
/// is sparse: only occupied cells are stored, in an open-addressing hash
/// table (linear probing, load ≤ 1/2) keyed by `row << 31 | column`. Columns
/// and rows are limited to 2³¹ each, so a key never overflows; an explicit
/// cell size whose grid over the data would need more throws
/// ``IndexError/invalidParameter(name:value:reason:)``. A sparse query whose
/// range has more than 1/8 as many cells as the table has slots scans the
/// table instead of looking each cell up.
///
/// **Automatic cell size.** With `T = n / pointsPerCell` target cells, the
/// cell side `s` solves `(w/s + 1)(h/s + 1) = T` for the data's width `w` and
/// height `h`, which stays finite for zero-width or zero-height data (all
/// points on a meridian gives a one-column grid of `T` rows) and gives one
/// cell for identical points.
///
/// **Copies.** A cell holding more than ``crowdedCell`` points is sorted by
/// position, then id, when the grid is built, so the copies of a place
/// lie together in input order and a k-nearest search takes the first `k`
/// of them instead of reading every one (see GridHashIndex+Runs.swift).
///
/// Work counters: one node per cell of the query's range examined (dense,
/// or sparse lookups) or per stored cell examined (sparse scan), one test per
/// point compared with the rectangle, one report per id reported.
///
/// Sparse storage is the "spatial hashing" of Teschner et al., "Optimized
/// Spatial Hashing for Collision Detection of Deformable Objects" (VMV 2003);
/// the build's layout is the compressed sparse row (CSR) form that a counting
/// sort produces.
///
/// - Complexity: build O(*n*); a query O(cells in range + points in border
///   cells + ids reported); insert and remove O(points in the cell) amortised.
public struct GridHashIndex: DynamicSpatialIndex, GroupingIndex, DescribedIndex {
  /// The name on the command line and in reports.
  @usableFromInline package static var name: String { "grid" }
  /// One line saying what the index is.
  @usableFromInline package static var summary: String {
    "uniform grid hash: flat CSR cells, dense array or hash of occupied cells"
  }

  /// Dense storage is chosen while the grid has at most this many cells per point…
  package static let denseCellsPerPoint = 4
  /// …or at most this many cells in all.
  package static let denseMinimumCells = 4096
  /// The most cells a grid with `storage=dense` may have.
  package static let denseMaximumCells = 1 << 26

  /// The parameters the index was built with (`cellSize` may be `nil`: auto).
  @usableFromInline package let parameters: Parameters

  /// Origin, cell size and grid dimensions.
  @usableFromInline var geometry: _GridGeometry
  /// A box holding every point held (the build's bounds, grown by inserts
  /// and moves; never shrunk before a rebuild). Cells clamp points outside
  /// the grid into its border cells, so without it a rectangle far from the
  /// data still tested a border cell's points: every query tested all of
  /// a million copies of one place, which make a grid of one cell.
  @usableFromInline var box: Rect
  /// True when cells live in the hash table ``keys``; false for a direct array.
  @usableFromInline var isSparse: Bool

  /// The pool: two coordinates per slot, interleaved.
  @usableFromInline var coords: [Double]
  /// The pool: one id per slot.
  @usableFromInline var ids: [Int32]
  /// Per cell (dense: by cell index; sparse: by table slot): start, count.
  @usableFromInline var runs: [Int32]
  /// Per cell, the capacity of its run; empty while every capacity equals
  /// its count (after a build or a compaction), which saves the array.
  @usableFromInline var capacities: [Int32]
  /// The pool slot of each id (-1: none), made at the first move or
  /// removal and kept by every change after, so finding a point to move
  /// does not scan its cell (a city's cell holds thousands of hotels);
  /// empty in an index that never changed.
  @usableFromInline var positions: [Int32] = []
  /// One bit per cell (dense: by cell index; sparse: by table slot): set
  /// when the cell is crowded and its points are sorted by position, then
  /// id (``sortCrowdedCells()``); empty when no cell is. See GridHashIndex+Runs.swift.
  @usableFromInline var sortedCells: [UInt64] = []
  /// Sparse only: the cell key per table slot, `-1` when the slot is empty.
  @usableFromInline var keys: [Int64]
  /// Sparse only: `64 - log2(keys.count)`, for multiplicative hashing.
  @usableFromInline var hashShift: Int
  /// Sparse only: the number of occupied table slots.
  var occupiedSlots: Int

  /// Pool slots that belong to no cell (runs left behind by relocations).
  var holes: Int
  @usableFromInline var liveCount: Int
  var nextIDValue: Int32
  /// Live points at the last build, and inserts since: triggers the rebuild.
  var builtCount: Int
  var insertsSinceBuild: Int

  /// Builds the grid with a counting sort of the points by cell.
  ///
  /// - Complexity: O(*n*) (expected, for the sparse hash table).
  public init(points: [Point], parameters: Parameters = Parameters()) throws(IndexError) {
    try validate(points)
    try parameters.validate()
    self = try Self.built(points, ids: nil, parameters: parameters,
                    nextID: Int32(truncatingIfNeeded: points.count))
  }

  /// The number of points held (removed ones not counted).
  public var count: Int { liveCount }
  /// The id the next insert gets.
  public var nextID: Int32 { nextIDValue }

  /// The cell size in effect, the target, the storage mode and the grid's size.
  @usableFromInline package var parameterValues: [ParameterValue] {
    [
      ParameterValue("cellSize", "\(geometry.cellSize)"),
      ParameterValue("pointsPerCell", "\(parameters.pointsPerCell)"),
      ParameterValue("storage", isSparse ? "sparse" : "dense"),
      ParameterValue("cells", "\(geometry.cellsX)x\(geometry.cellsY)"),
      BuildThreads.value(parameters.threads),
    ]
  }

  @usableFromInline package var memoryBytes: Int {
    coords.capacity * MemoryLayout<Double>.stride
      + ids.capacity * MemoryLayout<Int32>.stride
      + runs.capacity * MemoryLayout<Int32>.stride
      + capacities.capacity * MemoryLayout<Int32>.stride
      + keys.capacity * MemoryLayout<Int64>.stride
      + positions.capacity * MemoryLayout<Int32>.stride
      + sortedCells.capacity * MemoryLayout<UInt64>.stride
  }

  /// The number of cell entries stored: every cell when dense, the occupied
  /// table slots when sparse.
  package var _storedCellCount: Int { isSparse ? occupiedSlots : runs.count / 2 }
  /// True when the cells are in the sparse hash table.
  package var _isSparse: Bool { isSparse }
  /// Slots in the pool, used or not.
  package var _poolSlots: Int { ids.count }
}

/// Where the grid lies and how fine it is.
@usableFromInline @frozen
struct _GridGeometry: Sendable, Equatable {
  @usableFromInline var originX: Double
  @usableFromInline var originY: Double
  @usableFromInline var cellSize: Double
  @usableFromInline var inverseCellSize: Double
  @usableFromInline var cellsX: Int
  @usableFromInline var cellsY: Int
  @usableFromInline var lastColumn: Double
  @usableFromInline var lastRow: Double

  /// The most columns (or rows) a grid has: keys `row << 31 | column` fit 62 bits.
  static let axisLimit = 1 << 31

  /// The column of `x`: `floor((x - originX) / cellSize)` clamped to the grid.
  ///
  /// Clamping before the conversion keeps ±infinity and ±1e300 finite, and
  /// truncation equals `floor` on the clamped, non-negative value. The
  /// comparisons send NaN to 0 rather than trapping (no caller passes one).
  @inlinable @inline(__always)
  func column(_ x: Double) -> Int {
    let t = (x - originX) * inverseCellSize
    return Int(t >= 0 ? (t <= lastColumn ? t : lastColumn) : 0)
  }

  /// The row of `y`, as ``column(_:)``.
  @inlinable @inline(__always)
  func row(_ y: Double) -> Int {
    let t = (y - originY) * inverseCellSize
    return Int(t >= 0 ? (t <= lastRow ? t : lastRow) : 0)
  }

  /// The hash key of a cell, for sparse storage.
  @inlinable @inline(__always)
  static func key(column: Int, row: Int) -> Int64 {
    Int64(truncatingIfNeeded: row &<< 31 | column)
  }

  /// The column of a cell key.
  @inlinable @inline(__always)
  static func column(ofKey key: Int64) -> Int {
    Int(truncatingIfNeeded: key & 0x7FFF_FFFF)
  }

  /// The row of a cell key.
  @inlinable @inline(__always)
  static func row(ofKey key: Int64) -> Int {
    Int(truncatingIfNeeded: key &>> 31)
  }
}
