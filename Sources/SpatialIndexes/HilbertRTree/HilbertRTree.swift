/// A static packed R-tree over points sorted along a Hilbert curve, as
/// flatbush and Boost.Geometry's packed R-trees build it, in flat arrays.
///
/// The points are sorted by the Hilbert value of their position (a 2^16 ×
/// 2^16 grid over the data's bounds), so neighbours on the curve are
/// neighbours on the map, and cut into leaves of ``Parameters/nodeSize``
/// points in that order; each level above groups `nodeSize` nodes of the
/// level below, up to one root. Nothing but the order says which node holds
/// what: node `j` of level `l` (leaves are level 0) holds the points
/// `j·s^(l+1) ..< (j+1)·s^(l+1)` for `s = nodeSize`, and its children are
/// nodes `j·s ..< (j+1)·s` of level `l − 1`. So a node is one contiguous run
/// of points, and a node inside a query is reported as a run of ids without
/// testing its points, or handed whole to a grouped query.
///
/// Storage: the points' coordinates (16 bytes) and ids (4) in Hilbert order,
/// and every node's box, four `Double`s, level after level from the leaves:
/// 22 bytes a point at the default `nodeSize` of 16.
///
/// A query walks the tree depth first with an explicit stack of one frame a
/// level (the next child to look at and the end of its siblings): at most 31
/// frames, on the call stack, so a query allocates nothing.
///
/// Kamel & Faloutsos, "On packing R-trees", CIKM 1993 (Hilbert packing);
/// Leutenegger, Lopez & Edgington, "STR: a simple and efficient algorithm
/// for R-tree packing", ICDE 1997 (the comparison of packings).
public struct HilbertRTree: SpatialIndex, DescribedIndex {
  /// The name on the command line and in reports.
  @usableFromInline package static var name: String { "rtree" }
  /// One line saying what the index is.
  @usableFromInline package static var summary: String {
    "static packed R-tree: points in Hilbert order, nodes packed bottom-up, boxes in flat arrays (flatbush's design)"
  }

  /// The build parameters of ``HilbertRTree``: its node size.
  public struct Parameters: IndexParameters, TextParameters {
    /// Children a node (points a leaf) holds.
    public var nodeSize: Int

    /// 16 won a sweep of 4…64 on 1M uniform points (`bench speed`, see the
    /// README) and keeps the index under 24 bytes a point.
    package static let defaultNodeSize = 16

    /// The defaults (``defaultNodeSize``).
    public init() { nodeSize = Self.defaultNodeSize }
    /// `nodeSize` children a node; a size out of range throws at build time.
    public init(nodeSize: Int) { self.nodeSize = nodeSize }

    @usableFromInline package static var descriptions: [ParameterDescription] {
      [ParameterDescription(
        name: "nodeSize", defaultValue: "\(defaultNodeSize)",
        summary: "children a node and points a leaf hold (2...256)")]
    }

    @usableFromInline package mutating func set(_ name: String, to value: String) throws(IndexError) {
      switch name {
      case "nodeSize":
        let v = try Self.positiveInteger(name, value, limit: 256)
        guard v >= 2 else { throw .invalidParameter(name: name, value: value, reason: "must be in 2...256") }
        nodeSize = v
      default: throw .unknownParameter(name: name, known: ["nodeSize"])
      }
    }
  }

  @usableFromInline package let parameters: Parameters
  /// Coordinates interleaved, `x` then `y`, in Hilbert order. Mapped from
  /// a saved file when the tree was opened from one (``SavedMapping``):
  /// their values decide answers, never which memory a walk reads (the
  /// boxes are computed from them at the open and held, and the shape
  /// follows from the count alone).
  @usableFromInline var coords: _FlatArray<Double>
  /// The id of each point, in the same order. Always the tree's own array,
  /// never mapped: walks index memory with them.
  @usableFromInline var ids: [Int32]
  /// Every node's box as `minX, minY, maxX, maxY`: the leaves first, then
  /// each level above, the root last.
  @usableFromInline var boxes: [Double]
  /// Where each level's nodes start in ``boxes`` (in nodes, not `Double`s),
  /// and at the end the number of nodes: level `l` has
  /// `levelStarts[l + 1] − levelStarts[l]` nodes.
  @usableFromInline var levelStarts: [Int]
  /// Points under one node of each level: `nodeSize^(l + 1)`, capped at
  /// the number of points.
  @usableFromInline var spans: [Int]

  /// - Complexity: O(*n*) to key and sort the points (a radix sort of the
  ///   Hilbert values) and O(*n*) to pack them.
  public init(points: [Point], parameters: Parameters = Parameters()) throws(IndexError) {
    guard parameters.nodeSize >= 2, parameters.nodeSize <= 256 else {
      throw .invalidParameter(
        name: "nodeSize", value: "\(parameters.nodeSize)", reason: "must be in 2...256")
    }
    guard points.count <= maximumPointCount else {
      throw .tooManyPoints(count: points.count, limit: maximumPointCount)
    }
    self.parameters = parameters
    coords = _FlatArray()
    ids = []
    boxes = []
    levelStarts = [0]
    spans = []
    if !build(points) { try validate(points) }
  }

  /// The number of points held.
  public var count: Int { ids.count }
  @usableFromInline package var parameterValues: [ParameterValue] { [ParameterValue("nodeSize", "\(parameters.nodeSize)")] }
  @usableFromInline package var memoryBytes: Int {
    coords.heapBytes + ids.capacity * MemoryLayout<Int32>.stride
      + boxes.capacity * MemoryLayout<Double>.stride
      + (levelStarts.capacity + spans.capacity) * MemoryLayout<Int>.stride
  }

  /// The mapping that ``coords`` view, when opened mapped.
  @usableFromInline package var mappedMemory: (mapped: Int, resident: Int?)? { coords._mapping?.memory }

  /// The number of levels, leaves included (0 for no points).
  @inlinable var levelCount: Int { levelStarts.count - 1 }

  /// The box of node `node` of level `level`.
  @inlinable func box(level: Int, node: Int) -> Rect {
    let b = 4 * (levelStarts[level] + node)
    return Rect(minX: boxes[b], minY: boxes[b + 1], maxX: boxes[b + 2], maxY: boxes[b + 3])
  }
}
