/// Where a traversal sends the ids it finds. One traversal per index serves
/// `forEach`, `query(into:)` and `count`, each through its own sink, and
/// specialisation makes each one as fast as if it were written by hand.
@usableFromInline
protocol _IDSink {
  /// Takes one id; `false` stops the query.
  mutating func take(_ id: Int32) -> Bool
  /// Takes one id stored at `position` (of ``SpatialIndex/groupOrder``).
  mutating func take(_ id: Int32, at position: Int) -> Bool
  /// Takes a run of ids known to be inside; `false` stops the query.
  mutating func takeAll(_ ids: UnsafeBufferPointer<Int32>) -> Bool
  /// Whether a subtree inside the rectangle, within `box`, is taken as whole
  /// runs (``takeRun(_:from:)``) rather than descended into. Plain sinks
  /// always say yes; a grouping sink asks its visitor.
  mutating func takesWhole(_ box: Rect) -> Bool
  /// Takes a run of ids known to be inside, stored from position `start`.
  mutating func takeRun(_ ids: UnsafeBufferPointer<Int32>, from start: Int) -> Bool
  /// Whether a leaf is offered whole by its points' own box (which costs a
  /// pass over them): only for a grouping sink, whose groups save more.
  static var groupsLeaves: Bool { get }
  /// Takes the ids at `range` whose points (`coords`, `x` and `y`
  /// interleaved, in the same positions) lie inside `rect`: how many it took,
  /// and `false` when the query stops.
  mutating func takeInside(
    _ rect: Rect, _ coords: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>
  ) -> (taken: Int, goOn: Bool)
}

extension _IDSink {
  @inlinable @inline(__always)
  static var groupsLeaves: Bool { false }

  @inlinable @inline(__always)
  mutating func take(_ id: Int32, at position: Int) -> Bool { take(id) }

  @inlinable @inline(__always)
  mutating func takesWhole(_ box: Rect) -> Bool { true }

  @inlinable @inline(__always)
  mutating func takeRun(_ ids: UnsafeBufferPointer<Int32>, from start: Int) -> Bool {
    takeAll(ids)
  }

  /// One id at a time, in order, stopping when ``take(_:at:)`` says so.
  @inlinable @inline(__always)
  mutating func takeInside(
    _ rect: Rect, _ coords: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>
  ) -> (taken: Int, goOn: Bool) {
    var taken = 0
    for i in range where rect.contains(x: coords[2 &* i], y: coords[2 &* i &+ 1]) {
      taken &+= 1
      if !take(ids[i], at: i) { return (taken, false) }
    }
    return (taken, true)
  }
}

/// Calls a visitor with each id.
@usableFromInline
struct _VisitSink: _IDSink {
  @usableFromInline let visit: (Int32) -> Bool

  @inlinable @inline(__always)
  init(_ visit: @escaping (Int32) -> Bool) { self.visit = visit }

  @inlinable @inline(__always)
  mutating func take(_ id: Int32) -> Bool { visit(id) }

  @inlinable @inline(__always)
  mutating func takeAll(_ ids: UnsafeBufferPointer<Int32>) -> Bool {
    for id in ids where !visit(id) { return false }
    return true
  }
}

/// Appends to an array (moved in and out, so it is never copied).
@usableFromInline
struct _AppendSink: _IDSink {
  @usableFromInline var ids: [Int32]

  @inlinable @inline(__always)
  init(_ ids: [Int32]) { self.ids = ids }

  @inlinable @inline(__always)
  mutating func take(_ id: Int32) -> Bool {
    ids.append(id)
    return true
  }

  @inlinable @inline(__always)
  mutating func takeAll(_ ids: UnsafeBufferPointer<Int32>) -> Bool {
    self.ids.append(contentsOf: ids)
    return true
  }

  /// Without a branch per point: every id is written at the end of the
  /// array's spare capacity and the end moves on only when the point is
  /// inside, so a leaf costs no mispredicted branch and no per-id append.
  @inlinable @inline(__always)
  mutating func takeInside(
    _ rect: Rect, _ coords: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>
  ) -> (taken: Int, goOn: Bool) {
    var taken = 0
    self.ids.append(addingCapacity: range.count) { span in
      span.withUnsafeMutableBufferPointer { out, initialized in
        // out[k] with k ≤ i − range.lowerBound < range.count: in bounds.
        let o = out.baseAddress!
        let low = SIMD2(rect.minX, rect.minY), high = SIMD2(rect.maxX, rect.maxY)
        let xy = UnsafeRawPointer(coords)
        var k = 0
        for i in range {
          o[k] = ids[i]
          // Both coordinates in one SSE2 compare pair; a lane that holds is
          // all ones (−1), so subtracting the lanes' AND adds 1 when inside.
          let p = xy.loadUnaligned(fromByteOffset: 16 &* i, as: SIMD2<Double>.self)
          let inside = unsafeBitCast((p .>= low) .& (p .<= high), to: SIMD2<Int64>.self)
          k &-= Int(inside[0] & inside[1])
        }
        initialized = k
        taken = k
      }
    }
    return (taken, true)
  }
}

/// Counts, adding whole runs without looking at them.
@usableFromInline
struct _CountSink: _IDSink {
  @usableFromInline var count = 0

  @inlinable @inline(__always)
  init() {}

  @inlinable @inline(__always)
  mutating func take(_ id: Int32) -> Bool {
    count &+= 1
    return true
  }

  @inlinable @inline(__always)
  mutating func takeAll(_ ids: UnsafeBufferPointer<Int32>) -> Bool {
    count &+= ids.count
    return true
  }

  /// A branch-free sum of inside bits.
  @inlinable @inline(__always)
  mutating func takeInside(
    _ rect: Rect, _ coords: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>
  ) -> (taken: Int, goOn: Bool) {
    var taken = 0
    for i in range { taken &+= rect.insideBit(x: coords[2 &* i], y: coords[2 &* i &+ 1]) }
    count &+= taken
    return (taken, true)
  }
}
