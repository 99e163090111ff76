/// A static k-d tree in two flat arrays, no node records: 20 bytes a point
/// (two `Double` coordinates and an `Int32` id), as kdbush.
///
/// Each internal node is one point, the split point: smaller coordinates (by
/// x on even levels, y on odd ones) go left, larger go right, down to leaves
/// of at most ``Parameters/nodeSize`` points. The left subtree is always a
/// *full* tree (2^h − 1 internal nodes, every leaf full), the right one takes
/// the rest, so every child's position follows from its parent's by
/// arithmetic. The arrays hold first the split points in depth-first
/// pre-order, then the leaves' points in the same order:
///
/// - the split points of 1M points (N / 65 of them) take 250 KB, so a
///   query's descent stays in the CPU cache instead of missing once a level
///   (about 230 ns a miss on our VMs; kdbush's layout scatters them);
/// - every subtree is two contiguous runs, its split points and its leaves'
///   points, so a subtree whose box lies inside the rectangle is reported
///   as two runs of ids without testing a point.
///
/// A query walks the tree with an explicit stack (a fixed-size tuple of
/// 20-byte frames: a node's box is kept only as which of its edges lie
/// inside the rectangle). Over 1M points a query waits on memory more than
/// it computes, so the walk does not scan a leaf when it meets it: it
/// prefetches the leaf's coordinates and ids and queues it, up to 16
/// leaves, then scans them, their misses overlapped rather than in a row.
/// A leaf is scanned without a branch per point: both coordinates in one
/// SIMD compare, every id written past the end of the answer, the end
/// moved on when inside. Ids of whole subtrees and split points are
/// reported as met, leaves' ids after: the set is the walk's, the order is
/// not depth-first. A grouped query (``forEachGroup(in:counters:_:)``) hands
/// over whole subtrees and leaves as runs of ``groupOrder``.
///
/// The build selects each split point with Floyd–Rivest, whose partition
/// runs in blocks without branches (BlockQuicksort): on 1M random points it
/// took 40% less time than the branchy Hoare loop, which mispredicts on
/// about every other point.
///
/// Bentley, "Multidimensional binary search trees used for associative
/// searching", CACM 18(9), 1975; median selection by Floyd & Rivest,
/// "Algorithm 489", CACM 18(3), 1975; Edelkamp & Weiß, "BlockQuicksort:
/// avoiding branch mispredictions in quicksort", ESA 2016.
public struct KDTreeIndex: SpatialIndex, DescribedIndex {
  /// The build parameters of ``KDTreeIndex``: its leaf size and build threads.
  public struct Parameters: IndexParameters, TextParameters {
    /// Points per leaf; a range this small is scanned rather than split.
    public var nodeSize: Int

    /// 64 won a sweep of 8…128 on 1M uniform points (`bench speed`, see
    /// the README); 16–32 answer the places dataset's viewports a little
    /// faster, 64 builds faster.
    package static let defaultNodeSize = 64

    /// Threads the build uses; `nil`, the default, for every core.
    public var threads: Int?

    /// The defaults (``defaultNodeSize``, every core for the build).
    public init() { nodeSize = Self.defaultNodeSize }
    /// `nodeSize` points a leaf, built on `threads` threads (`nil`: every
    /// core); a size out of range throws at build time.
    public init(nodeSize: Int, threads: Int? = nil) {
      self.nodeSize = nodeSize
      self.threads = threads
    }

    @usableFromInline package static var descriptions: [ParameterDescription] {
      [ParameterDescription(
        name: "nodeSize", defaultValue: "\(defaultNodeSize)",
        summary: "points per leaf (1...65536)"),
       BuildThreads.description("the build", same: "tree"),
      ]
    }

    @usableFromInline package mutating func set(_ name: String, to value: String) throws(IndexError) {
      switch name {
      case "nodeSize": nodeSize = try Self.positiveInteger(name, value, limit: 65536)
      case "threads": threads = try BuildThreads.parse(name, value)
      default: throw .unknownParameter(name: name, known: ["nodeSize", "threads"])
      }
    }

    /// The threads a build runs on: `threads`, or the cores online.
    var resolvedThreads: Int { BuildThreads.resolved(threads) }
  }

  /// The name on the command line and in reports.
  @usableFromInline package static var name: String { "kdtree" }
  /// One line saying what the index is.
  @usableFromInline package static var summary: String {
    "static k-d tree, median-split, flat arrays: split points first in pre-order, then the leaves"
  }

  @usableFromInline package let parameters: Parameters
  /// Coordinates interleaved, `x` then `y`: split points, then leaf points.
  /// Mapped from a saved file when the tree was opened from one
  /// (``SavedMapping``): their values decide answers, never which memory a
  /// walk reads (the shape follows from the count alone).
  @usableFromInline var coords: _FlatArray<Double>
  /// The id of each point, in the same order. Always the tree's own array,
  /// never mapped: walks index memory with them.
  @usableFromInline var ids: [Int32]
  /// The bounding box of all points: the root's box for containment tests.
  @usableFromInline var bounds: Rect
  /// The number of split points (internal nodes): where the leaves start.
  @usableFromInline var splitCount: Int
  /// A bit per split point, by pre-order number: set where the subtree it
  /// splits is the largest whose points all lie at one position, its ids
  /// then ascending (see ``markRuns()``).
  @usableFromInline var runs: [UInt64]

  /// - Complexity: O(*n* log *n*).
  public init(points: [Point], parameters: Parameters = Parameters()) throws(IndexError) {
    guard parameters.nodeSize >= 1, parameters.nodeSize <= 65536 else {
      throw .invalidParameter(
        name: "nodeSize", value: "\(parameters.nodeSize)", reason: "must be in 1...65536")
    }
    try BuildThreads.validate(parameters.threads)
    guard points.count <= maximumPointCount else {
      throw .tooManyPoints(count: points.count, limit: maximumPointCount)
    }
    self.parameters = parameters
    bounds = Rect(minX: 0, minY: 0, maxX: -1, maxY: -1)
    splitCount = 0
    coords = _FlatArray()
    ids = []
    runs = []
    // The build's first pass also checks the points and takes their
    // bounds; on a non-finite point `validate` finds it and throws.
    if !build(points) { try validate(points) }
    markRuns()
  }

  /// The number of points held.
  public var count: Int { ids.count }
  @usableFromInline package var parameterValues: [ParameterValue] {
    [ParameterValue("nodeSize", "\(parameters.nodeSize)"),
     BuildThreads.value(parameters.threads)]
  }
  @usableFromInline package var memoryBytes: Int {
    coords.heapBytes + ids.capacity * MemoryLayout<Int32>.stride
      + runs.capacity * MemoryLayout<UInt64>.stride
  }

  /// The mapping that ``coords`` view, when opened mapped.
  @usableFromInline package var mappedMemory: (mapped: Int, resident: Int?)? { coords._mapping?.memory }
}
