/// An axis-aligned rectangle with inclusive bounds.
///
/// A point is inside when `minX <= x <= maxX && minY <= y <= maxY`, as in the
/// original quadtree design, so a point on an edge or a corner is inside and a
/// zero-width rectangle still matches the points on its line. A rectangle with
/// `minX > maxX` or `minY > maxY` matches nothing (the antimeridian is handled
/// by the workloads, which split such a viewport in two); so does one with a
/// NaN bound, because every comparison with NaN is false.
@frozen
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// The west edge: the smallest longitude inside, in degrees.
  public var minX: Double
  /// The south edge: the smallest latitude inside, in degrees.
  public var minY: Double
  /// The east edge: the largest longitude inside, in degrees.
  public var maxX: Double
  /// The north edge: the largest latitude inside, in degrees.
  public var maxY: Double

  /// The rectangle of the points with `minX <= x <= maxX` and
  /// `minY <= y <= maxY`; one with a bound inverted or NaN matches nothing.
  @inlinable @inline(__always)
  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// The whole longitude/latitude range.
  public static let world = Rect(minX: -180, minY: -90, maxX: 180, maxY: 90)

  /// The smallest rectangle holding every point, or `nil` for no points.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  public init?(bounding points: some Collection<Point>) {
    guard let first = points.first else { return nil }
    var r = Rect(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
    for p in points {
      r.minX = Swift.min(r.minX, p.x)
      r.minY = Swift.min(r.minY, p.y)
      r.maxX = Swift.max(r.maxX, p.x)
      r.maxY = Swift.max(r.maxY, p.y)
    }
    self = r
  }

  /// False when a bound is inverted or NaN: such a rectangle matches nothing.
  @inlinable
  public var isValid: Bool { minX <= maxX && minY <= maxY }

  @inlinable package var width: Double { maxX - minX }
  @inlinable package var height: Double { maxY - minY }
  @inlinable package var area: Double { isValid ? width * height : 0 }

  /// Inclusive on every edge.
  @inlinable @inline(__always)
  public func contains(_ p: Point) -> Bool {
    contains(x: p.x, y: p.y)
  }

  /// Inclusive on every edge, without branches (see ``insideBit(x:y:)``).
  @inlinable @inline(__always)
  package func contains(x: Double, y: Double) -> Bool {
    insideBit(x: x, y: y) != 0
  }

  /// 1 when the point is inside, else 0, computed without branches: the
  /// integer `&` of four comparisons lets the compiler vectorise a scan,
  /// where `&&` (short-circuit) measured ten times slower over 1M points.
  /// Keep the four `let`s: written as one expression, the same test compiled
  /// to branches and ran as slowly as `&&` (Swift 6.3, -O).
  @inlinable @inline(__always)
  package func insideBit(x: Double, y: Double) -> Int {
    let a = x >= minX ? 1 : 0
    let b = x <= maxX ? 1 : 0
    let c = y >= minY ? 1 : 0
    let d = y <= maxY ? 1 : 0
    return a & b & c & d
  }

  /// `other` lies entirely inside `self` (edges may touch).
  @inlinable @inline(__always)
  public func contains(_ other: Rect) -> Bool {
    other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
  }

  /// The two rectangles share at least one point (edges count).
  @inlinable @inline(__always)
  public func intersects(_ other: Rect) -> Bool {
    other.minX <= maxX && other.maxX >= minX && other.minY <= maxY && other.maxY >= minY
  }

  /// `[minX, minY] – [maxX, maxY]`.
  public var description: String { "[\(minX), \(minY)] – [\(maxX), \(maxY)]" }

  /// Grows to hold `p` (an empty box, min above max, becomes `p`'s).
  @inline(__always)
  mutating func expand(toHold p: Point) {
    minX = Swift.min(minX, p.x)
    minY = Swift.min(minY, p.y)
    maxX = Swift.max(maxX, p.x)
    maxY = Swift.max(maxY, p.y)
  }
}
