/// The O(*n*) baseline: every query tests every point; the correctness
/// reference, so every other index must return exactly the ids it returns.
///
/// Coordinates are stored as two flat `Double` arrays (struct of arrays) and,
/// beside them, a 16-bit code of each coordinate: its cell on a grid of
/// 65,536 × 65,536 cells over the data's bounds at build time. A scan of the
/// doubles reads 16 bytes a point and is bound by memory bandwidth (1.7–2 ms
/// over 1M points), so a query tests the codes instead, 16 points at a time
/// in SIMD registers (4 bytes a point), and reads the doubles only for the
/// few candidates whose code equals a bound's code. The answer stays exact:
/// the code is a monotone function of the coordinate, so
/// - a point inside has codes between the bounds' codes (no hit is lost);
/// - a code strictly between the bounds' codes comes from a coordinate
///   strictly between the bounds (such a candidate is a hit without a test).
///
/// Cost: 4 more bytes a point (20 in all) and one more pass at build. Gain,
/// `bench speed --index linear` (1M uniform points, queries of 1e-4, 1e-3 and
/// 1e-2 of the box): 2008, 2070, 2065 µs before, 127, 150, 316 µs after
/// (README). A `Float` copy (8 bytes a point) was slower by about 2×. Points
/// inserted outside the build-time bounds get the edge codes 0 or 65,535:
/// still exact, only more of them reach the double test. `pointsTested`
/// counts every point once plus each double test.
///
/// Removal overwrites the coordinates with NaN, which no rectangle contains,
/// and the codes with 0, which is never strictly inside, so ids keep their
/// positions and a removed point always reaches the double test, which
/// rejects it.
public struct LinearScanIndex: DynamicSpatialIndex, DescribedIndex {
  /// The name on the command line and in reports.
  @usableFromInline package static var name: String { "linear" }
  /// One line saying what the index is.
  @usableFromInline package static var summary: String {
    "linear scan over struct-of-arrays coordinates with a 16-bit prefilter (the reference)"
  }

  /// The scan has nothing to set.
  public typealias Parameters = NoParameters

  @usableFromInline var xs: [Double]
  @usableFromInline var ys: [Double]
  /// `codeX.code(xs[i])`, `codeY.code(ys[i])`; 0 for a removed point.
  @usableFromInline var cx: [UInt16]
  @usableFromInline var cy: [UInt16]
  @usableFromInline let codeX: _CoordinateCode
  @usableFromInline let codeY: _CoordinateCode
  @usableFromInline var liveCount: Int

  /// - Complexity: O(*n*).
  public init(points: [Point], parameters: NoParameters = NoParameters()) throws(IndexError) {
    try validate(points)
    let bounds = Rect(bounding: points) ?? .world
    codeX = _CoordinateCode(lo: bounds.minX, hi: bounds.maxX)
    codeY = _CoordinateCode(lo: bounds.minY, hi: bounds.maxY)
    xs = points.map(\.x)
    ys = points.map(\.y)
    cx = xs.map { [codeX] in codeX.code($0) }
    cy = ys.map { [codeY] in codeY.code($0) }
    liveCount = points.count
  }

  /// The number of points held (removed ones not counted).
  public var count: Int { liveCount }
  @usableFromInline package var parameters: NoParameters { NoParameters() }
  @usableFromInline package var parameterValues: [ParameterValue] { [] }
  @usableFromInline package var memoryBytes: Int {
    (xs.capacity + ys.capacity) * MemoryLayout<Double>.stride
      + (cx.capacity + cy.capacity) * MemoryLayout<UInt16>.stride
  }
  /// The id the next insert gets.
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
    cx.append(codeX.code(point.x))
    cy.append(codeY.code(point.y))
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
    cx[i] = 0
    cy[i] = 0
    liveCount -= 1
    return true
  }

  /// In place: the coordinates and their codes.
  ///
  /// - Complexity: O(1).
  @inlinable @discardableResult
  public mutating func move(id: Int32, from: Point, to: Point) throws(IndexError) -> Bool {
    let i = Int(id)
    guard i >= 0, i < xs.count, xs[i] == from.x, ys[i] == from.y else { return false }
    guard to.isFinite else { throw .nonFinitePoint(id: i, point: to) }
    xs[i] = to.x
    ys[i] = to.y
    cx[i] = codeX.code(to.x)
    cy[i] = codeY.code(to.y)
    return true
  }

  /// Loads the four arrays' lines of `id`.
  @inlinable
  public func prefetchMove(id: Int32) {
    let i = Int(id)
    guard i >= 0, i < xs.count else { return }
    xs.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + i) }
    ys.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + i) }
    cx.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + i) }
    cy.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + i) }
  }

  /// The point stored under `id`, or `nil` if it was removed or never existed.
  package func point(_ id: Int32) -> Point? {
    let i = Int(id)
    guard i >= 0, i < xs.count, !xs[i].isNaN else { return nil }
    return Point(x: xs[i], y: ys[i])
  }
}

/// A monotone map from a coordinate to one of 65,536 cells over `lo...hi`:
/// `⌊(v − lo) · scale⌋`, clamped to `0...65535`.
///
/// Every step (a subtraction and a multiplication by a positive number, each
/// correctly rounded; truncation; clamping) is non-decreasing, so
/// `a <= b` implies `code(a) <= code(b)`, infinities included. That is all the
/// prefilter needs; the scale only decides how few points share a code.
@frozen @usableFromInline
struct _CoordinateCode: Sendable, Equatable {
  @usableFromInline let lo: Double
  /// Positive and finite, so `(v − lo) · scale` is never NaN for a finite `lo`
  /// and a non-NaN `v`.
  @usableFromInline let scale: Double

  /// `lo` and `hi` are finite, `lo <= hi`.
  init(lo: Double, hi: Double) {
    let width = hi - lo
    if width.isInfinite {  // the bounds span more than Double.greatestFiniteMagnitude
      self.lo = lo
      scale = 32767.5 / (hi * 0.5 - lo * 0.5)
    } else if width > 0, (65535 / width).isFinite {
      self.lo = lo
      scale = 65535 / width
    } else {
      // One value (or a subnormal span): the codes cover a narrow band
      // around it, so the points take the middle code and a rectangle
      // beside them another: with scale 1 from `lo`, every rectangle west
      // of copies of one place shared their code 0, and a scan tested
      // every copy on its doubles.
      let half = Swift.max(abs(lo), 1) * 0x1p-30
      self.lo = lo - half
      scale = 65535 / (2 * half)
    }
  }

  /// NaN maps to 65,535; queries never ask (a NaN bound matches nothing).
  @inlinable @inline(__always)
  func code(_ v: Double) -> UInt16 {
    let d = (v - lo) * scale
    return d < 0 ? 0 : d < 65535 ? UInt16(d) : 65535
  }
}

extension LinearScanIndex: InvariantChecking {
  package func _invariantViolations() -> [String] {
    var problems: [String] = []
    if xs.count != ys.count { problems.append("xs.count \(xs.count) != ys.count \(ys.count)") }
    if cx.count != xs.count || cy.count != xs.count {
      problems.append("\(cx.count) x codes and \(cy.count) y codes for \(xs.count) points")
      return problems
    }
    let live = zip(xs, ys).count { !$0.0.isNaN && !$0.1.isNaN }
    if live != liveCount { problems.append("\(live) live points, count says \(liveCount)") }
    if !(codeX.scale > 0 && codeX.scale.isFinite && codeY.scale > 0 && codeY.scale.isFinite) {
      problems.append("code scales \(codeX.scale), \(codeY.scale) not positive and finite")
    }
    var bad = 0
    for i in xs.indices {
      let removed = xs[i].isNaN
      let (ex, ey) = removed ? (UInt16(0), UInt16(0)) : (codeX.code(xs[i]), codeY.code(ys[i]))
      if cx[i] != ex || cy[i] != ey {
        if bad < 3 {
          problems.append("point \(i) (\(xs[i]), \(ys[i])) has codes (\(cx[i]), \(cy[i])), expected (\(ex), \(ey))")
        }
        bad += 1
      }
    }
    if bad > 3 { problems.append("\(bad) points with wrong codes in all") }
    return problems
  }
}
