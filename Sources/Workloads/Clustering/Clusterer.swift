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

  public var description: String { rawValue }
}

/// Grid clustering of the points a viewport shows, as the map app does it.
///
/// **Cells.** At zoom `z` the cell side `c` comes from ``cellTable`` (screen
/// points). A point's cell is
/// `column = floor(mapX · 2^z / c)`, `row = floor(mapY · 2^z / c)`, with
/// `mapX = WebMercator.x(longitude:)` and `mapY = WebMercator.y(latitude:)`
/// at zoom 0 (in [0, 256]). `mapX · 2^z` is exact, so the one rounding is the
/// division. Cells are aligned to the world map and do not move while the
/// user pans. A point's cell comes from its own longitude in [−180, 180], so
/// the grid is the same whichever copy of the world the viewport shows; the
/// last column of the world is partial when `c` does not divide the world's
/// width, and a point at longitude +180 (map x = 256) lies in the column that
/// starts there, not in column 0 with the points at −180.
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
/// Mercator map are never shown. A point inside a rectangle whose cell falls
/// outside the rectangle's cell range (which rounding in the projection could
/// in principle cause; it has not been observed) is left out by both strategies.
///
/// **Markers.** One per non-empty cell: its count and the arithmetic mean of
/// its points' latitudes and longitudes. The sums are fixed-point integers:
/// each coordinate rounded to 1e-7 degree (about 1 cm) as an `Int32`,
/// summed in `Int64`. With 32-bit ids at most 2^31 points can be summed,
/// |sum| ≤ 2^31 · 1.8e9 < 2^63, so the sums cannot overflow, and integer sums
/// do not depend on the order in which points are visited: every index and
/// strategy gives the same markers, bit for bit. The mean is
/// `Double(sum) / (Double(count) · 1e7)`, one rounding for sums below 2^53.
/// A cell with one point gives that point's marker: its id and its exact
/// coordinates.
///
/// **Order.** Markers come out by row (north to south), then column (west to
/// east, by column number): by ``MarkerKey`` order, which ``MarkerDiff``
/// relies on.
///
/// **Cost.** A step allocates nothing once its buffers have grown to the
/// largest viewport seen (the id buffer, the per-cell accumulators, a dense
/// array over the viewport's cell range, and the caller's marker array).
///
/// ```swift
/// let index = try KDTreeIndex(points: places)
/// var clusterer = Clusterer(index: index, points: places)
/// var markers: [ClusterMarker] = []
/// clusterer.cluster(viewport, strategy: .singlePass, into: &markers)
/// ```
public struct Clusterer<Index: SpatialIndex> {
  /// The index over ``points``.
  public let index: Index
  /// The points, by id (the index was built from them).
  public let points: [Point]
  public let cellTable: ClusterCellTable

  /// Per-id coordinates for the hot loops (struct of arrays).
  @usableFromInline let _columns: _PointColumns

  @usableFromInline var _ids: [Int32] = []
  @usableFromInline var _cells: [_CellAccumulator] = []
  @usableFromInline var _lonEdges: [Double] = []
  @usableFromInline var _latEdges: [Double] = []

  /// Fixed-point units per degree in the sums behind a marker's mean.
  public static var fixedPointScale: Double { _PointColumns.scale }

  /// A clusterer over `points`, queried through `index`, which must have been
  /// built from the same `points` (ids are positions in it).
  ///
  /// - Complexity: O(*n*): the projection of every point is computed once here.
  public init(index: Index, points: [Point], cellTable: ClusterCellTable = .default) {
    precondition(index.count == points.count, "the index must be built from these points")
    self.index = index
    self.points = points
    self.cellTable = cellTable
    _columns = _PointColumns(points)
  }

  /// Builds the index over `points`, then the clusterer.
  public init(
    points: [Point], parameters: Index.Parameters = Index.Parameters(),
    cellTable: ClusterCellTable = .default
  ) throws(IndexError) {
    self.init(index: try Index(points: points, parameters: parameters), points: points,
              cellTable: cellTable)
  }

  /// The cell of `point` at `zoom` (half-open on each axis).
  @inlinable
  public func cell(of point: Point, zoom: Int) -> (column: Int, row: Int) {
    let s = WebMercator.scale(zoom: zoom), c = cellTable.cellSize(zoom: zoom)
    return (_cellIndex(WebMercator.x(longitude: point.x), s, c),
            _cellIndex(WebMercator.y(latitude: point.y), s, c))
  }

  /// The markers of `viewport`, in a new array (see ``cluster(_:strategy:into:counters:)``).
  public mutating func markers(
    for viewport: Viewport, strategy: ClusterStrategy = .singlePass
  ) -> [ClusterMarker] {
    var markers: [ClusterMarker] = []
    cluster(viewport, strategy: strategy, into: &markers)
    return markers
  }

  /// Replaces the contents of `markers` with the markers of `viewport`.
  @inlinable
  public mutating func cluster(
    _ viewport: Viewport, strategy: ClusterStrategy = .singlePass,
    into markers: inout [ClusterMarker]
  ) {
    var none = NoCounters()
    cluster(viewport, strategy: strategy, into: &markers, counters: &none)
  }
}

/// `floor(map · scale / cellSize)`: `map · scale` is exact (a power of two).
@inlinable @inline(__always)
func _cellIndex(_ map: Double, _ scale: Double, _ cellSize: Double) -> Int {
  Int((map * scale / cellSize).rounded(.down))
}

/// The per-id coordinates the hot loops read, in one allocation per array.
/// Immutable after init, so copies of a ``Clusterer`` share it.
@usableFromInline
final class _PointColumns: @unchecked Sendable {
  @usableFromInline static let scale = 1e7
  @usableFromInline let count: Int
  /// Map x and y at zoom 0, in [0, 256].
  @usableFromInline let mapX: UnsafeMutablePointer<Double>
  @usableFromInline let mapY: UnsafeMutablePointer<Double>
  /// Longitude and latitude in units of 1e-7 degree (clamped to ±180 and ±90:
  /// a point outside never lies in a viewport rectangle).
  @usableFromInline let lonE7: UnsafeMutablePointer<Int32>
  @usableFromInline let latE7: UnsafeMutablePointer<Int32>

  init(_ points: [Point]) {
    count = points.count
    mapX = .allocate(capacity: count)
    mapY = .allocate(capacity: count)
    lonE7 = .allocate(capacity: count)
    latE7 = .allocate(capacity: count)
    for (i, p) in points.enumerated() {
      mapX[i] = WebMercator.x(longitude: p.x)
      mapY[i] = WebMercator.y(latitude: p.y)
      lonE7[i] = Int32((min(180, max(-180, p.x)) * Self.scale).rounded())
      latE7[i] = Int32((min(90, max(-90, p.y)) * Self.scale).rounded())
    }
  }

  deinit {
    mapX.deallocate()
    mapY.deallocate()
    lonE7.deallocate()
    latE7.deallocate()
  }
}

/// One cell's running totals.
@usableFromInline
struct _CellAccumulator {
  @usableFromInline var count: Int32 = 0
  /// Some id in the cell: the only one when `count == 1`.
  @usableFromInline var anyID: Int32 = 0
  @usableFromInline var sumLon: Int64 = 0
  @usableFromInline var sumLat: Int64 = 0

  @inlinable init() {}
}
