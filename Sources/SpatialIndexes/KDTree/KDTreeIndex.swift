/// A static k-d tree in two flat arrays, after the layout of kdbush.
///
/// The points are reordered in place so that every subtree is a contiguous
/// range of the arrays: the median of a range (by x on even levels, y on odd
/// ones) sits in its middle, smaller coordinates to its left and larger to
/// its right, down to leaves of at most ``Parameters/nodeSize`` points. No
/// node records are stored, so the index costs 20 bytes a point (two `Double`
/// coordinates and an `Int32` id). A query walks the implicit tree with an
/// explicit stack and, when a subtree's box lies inside the rectangle,
/// reports its whole id range without testing a point.
///
/// Bentley, "Multidimensional binary search trees used for associative
/// searching", CACM 18(9), 1975; median selection by Floyd & Rivest,
/// "Algorithm 489", CACM 18(3), 1975.
public struct KDTreeIndex: SpatialIndex {
  public struct Parameters: IndexParameters {
    /// Points per leaf; a range this small is scanned rather than split.
    public var nodeSize: Int

    /// 64 won a sweep of 4…256 on 1M uniform points (see the README).
    public static let defaultNodeSize = 64

    public init() { nodeSize = Self.defaultNodeSize }
    public init(nodeSize: Int) { self.nodeSize = nodeSize }

    public static var descriptions: [ParameterDescription] {
      [ParameterDescription(
        name: "nodeSize", defaultValue: "\(defaultNodeSize)",
        summary: "points per leaf (1...65536)")]
    }

    public mutating func set(_ name: String, to value: String) throws(IndexError) {
      switch name {
      case "nodeSize": nodeSize = try Self.positiveInteger(name, value, limit: 65536)
      default: throw .unknownParameter(name: name, known: ["nodeSize"])
      }
    }
  }

  public static var name: String { "kdtree" }
  public static var summary: String { "static k-d tree, median-split, flat arrays (kdbush layout)" }

  public let parameters: Parameters
  /// Coordinates interleaved, `x` then `y`, in tree order.
  @usableFromInline var coords: [Double]
  /// The id of each point in tree order.
  @usableFromInline var ids: [Int32]
  /// The bounding box of all points: the root's box for containment tests.
  @usableFromInline var bounds: Rect

  /// - Complexity: O(*n* log *n*).
  public init(points: [Point], parameters: Parameters = Parameters()) throws(IndexError) {
    guard parameters.nodeSize >= 1, parameters.nodeSize <= 65536 else {
      throw .invalidParameter(
        name: "nodeSize", value: "\(parameters.nodeSize)", reason: "must be in 1...65536")
    }
    try validate(points)
    self.parameters = parameters
    bounds = Rect(bounding: points) ?? Rect(minX: 0, minY: 0, maxX: -1, maxY: -1)
    ids = [Int32](unsafeUninitializedCapacity: points.count) { buffer, initialized in
      for i in 0..<points.count { buffer[i] = Int32(truncatingIfNeeded: i) }
      initialized = points.count
    }
    coords = [Double](unsafeUninitializedCapacity: points.count * 2) { buffer, initialized in
      for (i, p) in points.enumerated() {
        buffer[2 &* i] = p.x
        buffer[2 &* i &+ 1] = p.y
      }
      initialized = points.count * 2
    }
    sortIntoTree()
  }

  public var count: Int { ids.count }
  public var parameterValues: [ParameterValue] { [ParameterValue("nodeSize", "\(parameters.nodeSize)")] }
  public var memoryBytes: Int {
    coords.capacity * MemoryLayout<Double>.stride + ids.capacity * MemoryLayout<Int32>.stride
  }
}
