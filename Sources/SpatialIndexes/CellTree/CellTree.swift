/// A static quadtree in the map's own grid: its nodes are the clustering
/// cells of a Web Mercator map, each with its count and coordinate sums, so
/// clustering a view costs time in proportion to the cells on screen, not
/// to the points in view.
///
/// **The grid.** At zooms 0–12 a map's clustering cell is 88 screen points
/// and the world is 256 · 2^z points wide: 11 · 2^(3−z) map units (zoom-0
/// points), aligned at the world's origin. Each point gets the code of its
/// cell at zoom 26, `⌊x · 2^23 / 11⌋` and `⌊y · 2^23 / 11⌋` of its map
/// position (``MapCells/index(_:scale:cellSize:inverse:)``: the same exact
/// floor the clusterer uses), 28 bits an axis. The points are sorted by the
/// Morton code of that pair, so the cell of any zoom 0–26 is one contiguous
/// run, and a node at depth `k` of the tree is exactly a cell of zoom
/// `k − 2`: the root covers the world (zoom −2, one 352-unit cell), each
/// level halves the side.
///
/// **The nodes** hold the points' count and their fixed-point coordinate
/// sums (``MapCells/units(_:)``), in flat arrays in depth-first order, the
/// children of a node side by side. A node is split while it holds more than
/// ``Parameters/leafSize`` points, down to depth 28 (duplicates share a
/// deepest cell and stay in one leaf).
///
/// **Clustering** (``sumCells(in:window:into:counters:)``) walks the nodes
/// the view rectangle reaches: a node inside the rectangle and inside one
/// cell of the view's grid adds its totals at once; a node cut by the
/// rectangle's edge is split; a leaf cut by it has its points tested one by
/// one, and a leaf wider than a cell (in sparse places) has its points binned
/// one by one. Any cell size works: a node lies in one cell of side
/// `c = odd · 2^e` at zoom `z` exactly when its code range, times 11, falls in
/// one multiple of `odd · 2^(e + 23 − z)` (integer arithmetic, no rounding),
/// so the 64/32/16-point cells of zooms 13–19 are served by the same nodes,
/// whole where they fit and point by point along those cells' edges.
///
/// **Exactness.** Node and cell come from the same floors of the same map
/// coordinates, so a node's points are in its cell by construction (integer
/// arithmetic decides which view cells a node lies in). Each node also keeps
/// its points' bounding box, rounded outward: a node is inside or outside a
/// rectangle when its box is, compared on latitude and longitude as the
/// linear scan compares points, and anything cut is decided point by point.
/// The markers are the linear scan's, bit for bit.
///
/// **+180°** is −180° to the clusterer, in column 0
/// (``MapCells/isAntimeridian(_:)``), but a point there is coded, and
/// sorted, in the world's last column: a node whose box reaches +180° is
/// never summed whole, and its points are binned one by one.
///
/// **Points off the map** (latitude beyond ``WebMercator/latitudeRange``,
/// longitude beyond ±180) are never in a view; they live in a small k-d tree
/// of their own so rectangle queries still find them, and cell sums leave
/// them out.
///
/// Memory: 24 bytes a point (longitude and latitude, the zoom-26 row, the
/// id) plus 48 a node.
public struct CellTree: CellSummingIndex, DescribedIndex {
  /// The build parameters of ``CellTree``: its leaf size and build threads.
  public struct Parameters: IndexParameters, TextParameters {
    /// Points a node holds before it is split.
    public var leafSize: Int

    /// From a sweep of 4…128 on hotels (see the README).
    package static let defaultLeafSize = 16

    /// Threads the build's parallel passes use; `nil`, the default, for
    /// every core. The tree is the same whatever the count.
    public var threads: Int?

    /// The defaults (``defaultLeafSize``, every core for the build).
    public init() { leafSize = Self.defaultLeafSize }
    /// `leafSize` points a node before it is split, built on `threads`
    /// threads (`nil`: every core); a size out of range throws at build time.
    public init(leafSize: Int, threads: Int? = nil) {
      self.leafSize = leafSize
      self.threads = threads
    }

    @usableFromInline package static var descriptions: [ParameterDescription] {
      [ParameterDescription(
        name: "leafSize", defaultValue: "\(defaultLeafSize)", summary: "points a node holds before it is split (1...65536)"),
       BuildThreads.description("the build", same: "tree"),
      ]
    }

    @usableFromInline package mutating func set(_ name: String, to value: String) throws(IndexError) {
      switch name {
      case "leafSize": leafSize = try Self.positiveInteger(name, value, limit: 65536)
      case "threads": threads = try BuildThreads.parse(name, value)
      default: throw .unknownParameter(name: name, known: ["leafSize", "threads"])
      }
    }

    /// The threads a build runs on: `threads`, or the cores online.
    var resolvedThreads: Int { BuildThreads.resolved(threads) }
  }


  /// The name on the command line and in reports.
  @usableFromInline package static var name: String { "celltree" }
  /// One line saying what the index is.
  @usableFromInline package static var summary: String {
    "static quadtree in Web Mercator whose nodes are the map's clustering cells, with counts and sums"
  }

  @usableFromInline package let parameters: Parameters
  /// On-map points in code order: longitude and latitude interleaved.
  /// This and ``rows`` are mapped from a saved file when the tree was
  /// opened from one (``SavedMapping``): their values decide answers,
  /// never which memory a walk reads.
  @usableFromInline var coords: _FlatArray<Double>
  /// Their rows at zoom 26 (the y half of their codes: `⌊y · 2^23 / 11⌋`
  /// of ``WebMercator/y(latitude:)``), which give their rows in any view's
  /// grid without the projection (see ``sumCells(in:window:into:counters:)``).
  @usableFromInline var rows: _FlatArray<UInt32>
  /// Their ids. Always the tree's own array, never mapped: walks index
  /// memory with them, and the clusterer's node summaries are keyed by
  /// this array's storage (MapClustering's `_NodeSummaries`).
  @usableFromInline var ids: [Int32]
  /// The tree, depth first, node 0 the root (none without on-map points).
  @usableFromInline var nodes: [_CellNode]
  /// Points off the map, in a k-d tree of their own, their ids, and their
  /// coordinates by position in the tree's input (where k-nearest reads a
  /// point the tree's range query finds).
  @usableFromInline var offMap: KDTreeIndex
  @usableFromInline var offMapIDs: [Int32]
  @usableFromInline var offMapPoints: [Point]

  /// - Complexity: O(*n*): a radix sort of the codes and one pass a level.
  public init(points: [Point], parameters: Parameters = Parameters()) throws(IndexError) {
    guard parameters.leafSize >= 1, parameters.leafSize <= 65536 else {
      throw .invalidParameter(
        name: "leafSize", value: "\(parameters.leafSize)", reason: "must be in 1...65536")
    }
    try BuildThreads.validate(parameters.threads)
    try validate(points)
    self.parameters = parameters
    coords = _FlatArray()
    rows = _FlatArray()
    ids = []
    nodes = []
    offMap = try KDTreeIndex(points: [])
    offMapIDs = []
    offMapPoints = []
    try build(points)
  }

  /// The number of points held, those off the map included.
  public var count: Int { ids.count + offMapIDs.count }

  @usableFromInline package var parameterValues: [ParameterValue] {
    [ParameterValue("leafSize", "\(parameters.leafSize)"),
     BuildThreads.value(parameters.threads)]
  }

  @usableFromInline package var memoryBytes: Int {
    coords.heapBytes + rows.heapBytes + ids.capacity * 4
      + nodes.capacity * MemoryLayout<_CellNode>.stride + offMap.memoryBytes + offMapIDs.capacity * 4
      + offMapPoints.capacity * MemoryLayout<Point>.stride
  }

  /// The mapping that ``coords`` and ``rows`` view, when opened mapped.
  @usableFromInline package var mappedMemory: (mapped: Int, resident: Int?)? { (coords._mapping ?? rows._mapping)?.memory }

  /// A point lies on the map: a view can show it.
  @inlinable @inline(__always)
  static func isOnMap(_ p: Point) -> Bool {
    p.x >= -180 && p.x <= 180 && WebMercator.latitudeRange.contains(p.y)
  }

  /// Depth of the deepest cells: 28 bits a code axis.
  @usableFromInline static var maxDepth: Int { 28 }
  /// Map units of one code step: a zoom-26 cell, 11 · 2^-23.
  @usableFromInline static var codeUnit: Double { 11.0 / 8_388_608 }
}

/// One node: a cell holding `count` points from `start` in code order, its
/// children (a bit per quadrant present, in Morton order: x low bit, then
/// y) from `firstChild`, its points' coordinate sums in 1e-7° units, and
/// the bounding box of its points (longitude and latitude, `Float`s rounded
/// outward, so the box holds them all).
///
/// A leaf keeps its first point's id where an inner node keeps its first
/// child: a marker of one point names its point, and on 960 views of 10M
/// hotels at zooms 0–3 the load of that id from `ids` (a cache miss for
/// each node of one point summed whole) was 8% of the walk.
///
/// The box, not the cell, decides whether a node lies inside or outside a
/// rectangle: around a city a node's points fill a small part of its cell,
/// and a viewport edge crossing the cell mostly misses them (on 1M hotels at
/// zooms 0–3 it halved the nodes an edge walks down; 16 bytes a node more).
@frozen @usableFromInline
struct _CellNode: Sendable {
  @usableFromInline var sumLon: Int64
  @usableFromInline var sumLat: Int64
  @usableFromInline var start: Int32
  @usableFromInline var count: Int32
  /// An inner node's first child; a leaf's first point's id.
  @usableFromInline var link: Int32
  @usableFromInline var minLon: Float
  @usableFromInline var minLat: Float
  @usableFromInline var maxLon: Float
  @usableFromInline var maxLat: Float
  @usableFromInline var childMask: UInt8

  @inlinable
  init(start: Int32, count: Int32) {
    self.start = start
    self.count = count
    link = 0
    childMask = 0
    sumLon = 0
    sumLat = 0
    minLon = .infinity
    minLat = .infinity
    maxLon = -.infinity
    maxLat = -.infinity
  }

  @inlinable var isLeaf: Bool { childMask == 0 }

  /// An inner node's first child (its children are side by side).
  @inlinable var firstChild: Int32 {
    get { link }
    set { link = newValue }
  }

  /// A leaf's first point's id.
  @inlinable var firstID: Int32 { link }

  /// How the node's points lie against `rect`: all inside, all outside, or
  /// cut (some maybe either side). Exact: the box holds every point.
  @inlinable @inline(__always)
  func relation(to rect: Rect) -> _Relation {
    let x0 = Double(minLon), x1 = Double(maxLon), y0 = Double(minLat), y1 = Double(maxLat)
    if x1 < rect.minX || x0 > rect.maxX || y1 < rect.minY || y0 > rect.maxY { return .outside }
    if x0 >= rect.minX && x1 <= rect.maxX && y0 >= rect.minY && y1 <= rect.maxY { return .inside }
    return .cut
  }
}

@usableFromInline
enum _Relation { case outside, inside, cut }

extension Float {
  /// The largest `Float` at most `x`.
  @inlinable static func below(_ x: Double) -> Float {
    let f = Float(x)
    return Double(f) > x ? f.nextDown : f
  }

  /// The smallest `Float` at least `x`.
  @inlinable static func above(_ x: Double) -> Float {
    let f = Float(x)
    return Double(f) < x ? f.nextUp : f
  }
}
