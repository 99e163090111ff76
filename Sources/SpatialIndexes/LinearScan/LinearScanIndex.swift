/// The O(*n*) baseline: every query tests every point.
///
/// Coordinates are stored as two flat arrays (struct of arrays) and tested
/// with a branch-free rectangle test, so the compiler can vectorise the scan.
/// It is the correctness reference: every other index must return exactly
/// the ids it returns.
///
/// Removal overwrites the coordinates with NaN, which no rectangle contains,
/// so ids keep their positions and the scan needs no extra branch.
public struct LinearScanIndex: DynamicSpatialIndex {
  public typealias Parameters = NoParameters

  public static var name: String { "linear" }
  public static var summary: String { "linear scan over struct-of-arrays coordinates (the reference)" }

  @usableFromInline var xs: [Double]
  @usableFromInline var ys: [Double]
  @usableFromInline var liveCount: Int

  /// - Complexity: O(*n*).
  public init(points: [Point], parameters: NoParameters = NoParameters()) throws(IndexError) {
    try validate(points)
    xs = points.map(\.x)
    ys = points.map(\.y)
    liveCount = points.count
  }

  public var count: Int { liveCount }
  public var parameters: NoParameters { NoParameters() }
  public var parameterValues: [ParameterValue] { [] }
  public var memoryBytes: Int {
    (xs.capacity + ys.capacity) * MemoryLayout<Double>.stride
  }
  public var nextID: Int32 { Int32(truncatingIfNeeded: xs.count) }

  /// - Complexity: O(1) amortised.
  public mutating func insert(_ point: Point) throws(IndexError) -> Int32 {
    guard point.isFinite else { throw .nonFinitePoint(id: xs.count, point: point) }
    guard xs.count < maximumPointCount else {
      throw .tooManyPoints(count: xs.count + 1, limit: maximumPointCount)
    }
    let id = nextID
    xs.append(point.x)
    ys.append(point.y)
    liveCount += 1
    return id
  }

  /// - Complexity: O(1).
  @discardableResult
  public mutating func remove(id: Int32, at point: Point) -> Bool {
    let i = Int(id)
    guard i >= 0, i < xs.count, xs[i] == point.x, ys[i] == point.y else { return false }
    xs[i] = .nan
    ys[i] = .nan
    liveCount -= 1
    return true
  }

  /// The point stored under `id`, or `nil` if it was removed or never existed.
  public func point(_ id: Int32) -> Point? {
    let i = Int(id)
    guard i >= 0, i < xs.count, !xs[i].isNaN else { return nil }
    return Point(x: xs[i], y: ys[i])
  }
}

extension LinearScanIndex: InvariantChecking {
  package func _invariantViolations() -> [String] {
    var problems: [String] = []
    if xs.count != ys.count { problems.append("xs.count \(xs.count) != ys.count \(ys.count)") }
    let live = zip(xs, ys).count { !$0.0.isNaN && !$0.1.isNaN }
    if live != liveCount { problems.append("\(live) live points, count says \(liveCount)") }
    return problems
  }
}
