/// A bucketed point quadtree (Finkel & Bentley, "Quad trees: a data structure
/// for retrieval on composite keys", Acta Informatica 4, 1974; the bucket
/// variant of Samet, "The Design and Analysis of Spatial Data Structures",
/// 1990), as in the C quadtree of the original map-clustering design.
///
/// Every node covers a box and holds a bucket of up to `capacity` points.
/// When a point arrives at a full leaf, the leaf splits into four equal
/// quadrants and the point, and every later one, goes down to a child; the
/// node keeps the points it already holds (they are not pushed down). A point
/// goes west when `x < midX` and east otherwise, south when `y < midY` and
/// north otherwise, so a point on a split line belongs to the east or north
/// side. Queries compute each node's box with the same arithmetic as inserts
/// (``center(of:)``, ``quadrantBox(_:_:_:)``), which makes "the node's box lies
/// inside the query rectangle, so report its whole subtree untested" exact.
///
/// The depth is capped at `maxDepth` levels (the root is level 1): a leaf at
/// the cap never splits and holds any number of points. The original had no
/// cap, and every `capacity` identical points added a level until its
/// recursion overflowed the stack; here inserts, removals and queries are
/// loops, and queries use a fixed-size stack bounded by the depth cap.
///
/// Storage is flat (no object per node or point):
/// - `nodes`: four `Int32` per node (first child, bucket start, bucket count,
///   bucket slots); the four children of a node are contiguous records.
/// - `coords` (`x, y` interleaved) and `ids`: a pool of bucket slots. A node
///   gets its slots on its first point.
///
/// After a build (and after ``compact()``), nodes and buckets are repacked in
/// depth-first order with no spare slots: the points of every subtree then
/// fill one run of slots, so a query reports a subtree whose box lies inside
/// its rectangle as one run of ids, without visiting the nodes below. An
/// insert or removal ends that state until the next ``compact()``: inside
/// subtrees are then walked node by node (the same ids, more nodes visited).
/// An insert into a repacked bucket (no spare slot) moves it to the end of
/// the pool, leaving a hole; the pool compacts itself when holes outnumber
/// points. A cold query on a large tree is bound by memory latency more than
/// by arithmetic, which is what the depth-first order is for.
///
/// A leaf at the depth cap holding more than `capacity` points (copies of a
/// place, whatever their number) is sorted by position, then id, when the
/// tree is built or compacted, so a k-nearest search takes the first `k`
/// copies of a place instead of reading them all (BucketQuadtree+Nearest.swift).
///
/// Work counters: a query counts one visited node per node it reaches
/// (empty leaves are skipped, and so are the nodes below a packed subtree
/// reported as one run), the points of each bucket it compares with the
/// rectangle, and every id it reports.
///
/// The bounds are fixed when the index is built, and every point must lie
/// inside them (``IndexError/pointOutsideBounds(id:point:bounds:)``). By
/// default they are the bounding box of the points given to the build (the
/// world box when there are none), so an insert outside that box throws: an
/// index that takes inserts should be given explicit bounds (`bounds=world`).
///
/// ```swift
/// var params = BucketQuadtree.Parameters()
/// params.bounds = .world
/// var tree = try BucketQuadtree(points: cities, parameters: params)
/// let id = try tree.insert(Point(latitude: 48.86, longitude: 2.35))
/// let visible = tree.ids(in: viewport)
/// ```
public struct BucketQuadtree: DynamicSpatialIndex, GroupingIndex, DescribedIndex {
  /// The name on the command line and in reports.
  @usableFromInline package static var name: String { "quadtree" }
  /// One line saying what the index is.
  @usableFromInline package static var summary: String {
    "bucketed point quadtree in flat arrays, depth-capped, dynamic"
  }

  /// The parameters as given (bounds possibly `.data`).
  @usableFromInline package let parameters: Parameters
  /// The box of the root node: every point lies inside it.
  @usableFromInline package let bounds: Rect
  @usableFromInline let capacity: Int
  @usableFromInline let maxDepth: Int

  /// Four `Int32` per node, see ``Field``.
  @usableFromInline var nodes: [Int32]
  /// Two per pool slot: `x`, `y`.
  @usableFromInline var coords: [Double]
  /// One per pool slot.
  @usableFromInline var ids: [Int32]
  /// Pool slots that belong to no bucket (left behind by moved buckets).
  @usableFromInline var holeSlots: Int
  /// The pool is in depth-first order with no spare slot: every subtree's
  /// points fill the slots from its root's bucket start to the next subtree's.
  @usableFromInline var packed: Bool
  @usableFromInline var liveCount: Int
  @usableFromInline var idCount: Int
  /// Some leaf at the depth cap holds more than `capacity` points (copies,
  /// or points closer than the cap's cells): k-nearest searches then walk
  /// the tree themselves (BucketQuadtree+Nearest.swift).
  @usableFromInline var hasCrowdedLeaves = false

  /// The offsets of a node's fields in its record in `nodes`.
  @usableFromInline
  enum Field {
    /// The record of the first of four contiguous children, or -1 for a
    /// leaf (``sortedLeaf`` for a crowded leaf in order).
    @usableFromInline static let firstChild = 0
    /// The first pool slot of the bucket.
    @usableFromInline static let bucketStart = 1
    /// The number of points in the bucket.
    @usableFromInline static let bucketCount = 2
    /// The pool slots the bucket owns (0 until the node's first point).
    @usableFromInline static let bucketSlots = 3
    /// `Int32`s per node.
    @usableFromInline static let stride = 4
  }

  /// The deepest `maxDepth` accepted; also sizes the query stack.
  ///
  /// 2⁻³² of the world's width is about a centimetre: deeper splits would
  /// only help duplicates, which the depth cap exists to stop.
  public static let maxDepthLimit = 32

  /// Builds the tree that inserting `points` in order makes (the id of
  /// `points[i]` is `i`), repacked in depth-first order: by default in one
  /// top-down pass a level (``bulkLoad(_:threads:)``); with `build=inserts` one
  /// insert at a time, as the original design did.
  ///
  /// Throws ``IndexError/invalidParameter(name:value:reason:)`` for parameters
  /// that make no sense, ``IndexError/nonFinitePoint(id:point:)``,
  /// ``IndexError/pointOutsideBounds(id:point:bounds:)`` for a point outside
  /// explicit bounds, or ``IndexError/tooManyPoints(count:limit:)``.
  ///
  /// - Complexity: O(*n* · depth) either way.
  public init(points: [Point], parameters: Parameters = Parameters()) throws(IndexError) {
    try parameters.validate()
    try validate(points)
    let box: Rect
    switch parameters.bounds {
    case .data:
      box = Rect(bounding: points) ?? .world
    case .fixed(let fixed):
      box = fixed
      for (i, p) in points.enumerated() where !fixed.contains(p) {
        throw .pointOutsideBounds(id: i, point: p, bounds: fixed)
      }
    }
    self.parameters = parameters
    bounds = box
    capacity = parameters.capacity
    maxDepth = parameters.maxDepth
    nodes = [-1, 0, 0, 0]
    coords = []
    ids = []
    holeSlots = 0
    packed = false
    liveCount = 0
    idCount = 0
    switch parameters.build {
    case .bulk:
      bulkLoad(points, threads: parameters.resolvedThreads)
    case .inserts:
      for i in points.indices {
        place(points[i], id: Int32(truncatingIfNeeded: i))
      }
      repack(tight: true)
    }
    liveCount = points.count
    idCount = points.count
    sortCrowdedLeaves()
  }

  /// - Complexity: O(1).
  public var count: Int { liveCount }

  /// - Complexity: O(1).
  public var nextID: Int32 { Int32(truncatingIfNeeded: idCount) }

  /// The number of nodes, empty ones included.
  package var nodeCount: Int { nodes.count / Field.stride }

  /// Capacity, depth cap, the bounds in effect (`world` or
  /// `minX:minY:maxX:maxY`) and how the tree was built.
  @usableFromInline package var parameterValues: [ParameterValue] {
    [
      ParameterValue("capacity", String(capacity)),
      ParameterValue("maxDepth", String(maxDepth)),
      ParameterValue("bounds", Parameters.Bounds.fixed(bounds).description),
      ParameterValue("build", parameters.build.rawValue),
      BuildThreads.value(parameters.threads),
    ]
  }

  /// The capacities of the node array and the slot pool (spare slots and
  /// holes included).
  @usableFromInline package var memoryBytes: Int {
    nodes.capacity * MemoryLayout<Int32>.stride
      + coords.capacity * MemoryLayout<Double>.stride
      + ids.capacity * MemoryLayout<Int32>.stride
  }
}

// MARK: Geometry shared by inserts and queries

extension BucketQuadtree {
  /// The split point of `box`.
  ///
  /// Halving each bound before adding cannot overflow, whatever the finite
  /// bounds. Inserts and queries both call this, so they agree exactly.
  @inlinable @inline(__always)
  static func center(of box: Rect) -> Point {
    Point(x: 0.5 * box.minX + 0.5 * box.maxX, y: 0.5 * box.minY + 0.5 * box.maxY)
  }

  /// The child a point goes to: bit 0 set for east (`x >= c.x`), bit 1 set
  /// for north (`y >= c.y`).
  @inlinable @inline(__always)
  static func quadrant(of p: Point, _ c: Point) -> Int {
    (p.x < c.x ? 0 : 1) | (p.y < c.y ? 0 : 2)
  }

  /// Replaces `box` by its quadrant holding `p` and returns the quadrant.
  @inlinable @inline(__always)
  static func descend(_ box: inout Rect, toward p: Point) -> Int {
    let c = center(of: box)
    let q = quadrant(of: p, c)
    box = quadrantBox(box, c, q)
    return q
  }

  /// The box of child `q` of a node with box `box` and center `c`.
  @inlinable @inline(__always)
  static func quadrantBox(_ box: Rect, _ c: Point, _ q: Int) -> Rect {
    let east = q & 1 != 0, north = q & 2 != 0
    return Rect(
      minX: east ? c.x : box.minX, minY: north ? c.y : box.minY,
      maxX: east ? box.maxX : c.x, maxY: north ? box.maxY : c.y)
  }
}
