/// Where a traversal sends the ids it finds. One traversal per index serves
/// `forEach`, `query(into:)` and `count`, each through its own sink, and
/// specialisation makes each one as fast as if it were written by hand.
///
/// The caller's `forEach` closure is passed down to every call (`visit`)
/// rather than kept in a sink: keeping a non-escaping closure takes
/// `withoutActuallyEscaping`, which boxes it on the heap on every query.
/// Only ``_VisitSink`` calls it; the others are given ``_noVisit(_:)``.
@usableFromInline
protocol _IDSink {
  /// Takes one id; `false` stops the query.
  mutating func take(_ id: Int32, _ visit: _Visit) -> Bool
  /// Takes one id stored at `position` (of ``GroupingIndex/groupOrder``).
  mutating func take(_ id: Int32, at position: Int, _ visit: _Visit) -> Bool
  /// Takes a run of ids known to be inside; `false` stops the query.
  mutating func takeAll(_ ids: UnsafeBufferPointer<Int32>, _ visit: _Visit) -> Bool
  /// Whether a subtree inside the rectangle, within `box`, is taken as whole
  /// runs (``takeRun(_:from:)``) rather than descended into. Plain sinks
  /// always say yes; a grouping sink asks its visitor.
  mutating func takesWhole(_ box: Rect) -> Bool
  /// Takes a run of ids known to be inside, stored from position `start`.
  mutating func takeRun(_ ids: UnsafeBufferPointer<Int32>, from start: Int, _ visit: _Visit) -> Bool
  /// Whether a leaf is offered whole by its points' own box (which costs a
  /// pass over them): only for a grouping sink, whose groups save more.
  static var groupsLeaves: Bool { get }
  /// Takes the ids at `range` whose points (`coords`, `x` and `y`
  /// interleaved, in the same positions) lie inside `rect`: how many it took,
  /// and `false` when the query stops.
  mutating func takeInside(
    _ rect: Rect, _ coords: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>,
    _ visit: _Visit
  ) -> (taken: Int, goOn: Bool)
}

/// The caller's visitor, for ``_VisitSink``.
@usableFromInline
typealias _Visit = (Int32) -> Bool

/// The visitor given to sinks that do not call one: a plain function, so
/// passing it costs nothing.
@inlinable @inline(__always)
func _noVisit(_ id: Int32) -> Bool { true }

extension _IDSink {
  @inlinable @inline(__always)
  static var groupsLeaves: Bool { false }

  @inlinable @inline(__always)
  mutating func take(_ id: Int32, at position: Int, _ visit: _Visit) -> Bool {
    take(id, visit)
  }

  @inlinable @inline(__always)
  mutating func takesWhole(_ box: Rect) -> Bool { true }

  @inlinable @inline(__always)
  mutating func takeRun(
    _ ids: UnsafeBufferPointer<Int32>, from start: Int, _ visit: _Visit
  ) -> Bool {
    takeAll(ids, visit)
  }

  /// One id at a time, in order, stopping when ``take(_:at:)`` says so.
  @inlinable @inline(__always)
  mutating func takeInside(
    _ rect: Rect, _ coords: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>,
    _ visit: _Visit
  ) -> (taken: Int, goOn: Bool) {
    var taken = 0
    for i in range where rect.contains(x: coords[2 &* i], y: coords[2 &* i &+ 1]) {
      taken &+= 1
      if !take(ids[i], at: i, visit) { return (taken, false) }
    }
    return (taken, true)
  }
}

/// Calls the visitor it is given with each id.
@usableFromInline
struct _VisitSink: _IDSink {
  @inlinable @inline(__always)
  init() {}

  @inlinable @inline(__always)
  mutating func take(_ id: Int32, _ visit: _Visit) -> Bool { visit(id) }

  @inlinable @inline(__always)
  mutating func takeAll(_ ids: UnsafeBufferPointer<Int32>, _ visit: _Visit) -> Bool {
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
  mutating func take(_ id: Int32, _ visit: _Visit) -> Bool {
    ids.append(id)
    return true
  }

  @inlinable @inline(__always)
  mutating func takeAll(_ ids: UnsafeBufferPointer<Int32>, _ visit: _Visit) -> Bool {
    self.ids.append(contentsOf: ids)
    return true
  }

  /// Without a branch per point: every id is written at the next free place,
  /// which moves on only when the point is inside, so a leaf costs no
  /// mispredicted branch and no per-id append. The places are the array's
  /// spare capacity where the standard library lets us write there
  /// (`append(addingCapacity:)`: Swift 6.2, macOS 26 / iOS 26); elsewhere a
  /// small block on the call stack, appended in one copy (measured slower
  /// on small leaves: the cell tree's 1e-4 queries 1.8 → 2.2 µs).
  @inlinable @inline(__always)
  mutating func takeInside(
    _ rect: Rect, _ coords: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>,
    _ visit: _Visit
  ) -> (taken: Int, goOn: Bool) {
    #if compiler(>=6.2)
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      var taken = 0
      self.ids.append(addingCapacity: range.count) { span in
        span.withUnsafeMutableBufferPointer { out, initialized in
          // out[k] with k ≤ i − range.lowerBound < range.count: in bounds.
          taken = Self.filter(rect, coords, ids, range, into: out.baseAddress!)
          initialized = taken
        }
      }
      return (taken, true)
    }
    #endif
    let block = 64  // 256 bytes: on the stack (a temporary allocation above 1 KB went to the heap)
    return withUnsafeTemporaryAllocation(of: Int32.self, capacity: block) { scratch in
      var taken = 0
      var from = range.lowerBound
      while from < range.upperBound {
        let to = Swift.min(from &+ block, range.upperBound)
        let k = Self.filter(rect, coords, ids, from..<to, into: scratch.baseAddress!)
        if k > 0 { self.ids.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress!, count: k)) }
        taken &+= k
        from = to
      }
      return (taken, true)
    }
  }

  /// Writes the ids at `range` whose points lie in `rect` to `out`, in
  /// order, and returns how many: each id is written, and the place moves
  /// on by the inside bit (both coordinates in one SSE2 compare pair; a lane
  /// that holds is all ones, −1, so subtracting the lanes' AND adds 1).
  @inlinable @inline(__always)
  static func filter(
    _ rect: Rect, _ coords: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>,
    into out: UnsafeMutablePointer<Int32>
  ) -> Int {
    let low = SIMD2(rect.minX, rect.minY), high = SIMD2(rect.maxX, rect.maxY)
    let xy = UnsafeRawPointer(coords)
    var k = 0
    for i in range {
      out[k] = ids[i]
      let p = xy.loadUnaligned(fromByteOffset: 16 &* i, as: SIMD2<Double>.self)
      let inside = unsafeBitCast((p .>= low) .& (p .<= high), to: SIMD2<Int64>.self)
      k &-= Int(inside[0] & inside[1])
    }
    return k
  }
}

/// Counts, adding whole runs without looking at them.
@usableFromInline
struct _CountSink: _IDSink {
  @usableFromInline var count = 0

  @inlinable @inline(__always)
  init() {}

  @inlinable @inline(__always)
  mutating func take(_ id: Int32, _ visit: _Visit) -> Bool {
    count &+= 1
    return true
  }

  @inlinable @inline(__always)
  mutating func takeAll(_ ids: UnsafeBufferPointer<Int32>, _ visit: _Visit) -> Bool {
    count &+= ids.count
    return true
  }

  /// A branch-free sum of inside bits.
  @inlinable @inline(__always)
  mutating func takeInside(
    _ rect: Rect, _ coords: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>,
    _ visit: _Visit
  ) -> (taken: Int, goOn: Bool) {
    var taken = 0
    for i in range { taken &+= rect.insideBit(x: coords[2 &* i], y: coords[2 &* i &+ 1]) }
    count &+= taken
    return (taken, true)
  }
}

/// Hands another sink each id turned into `ids[id]`: a sub-index's ids into
/// its owner's (the cell tree's points off the map live in a k-d tree of
/// their own).
@usableFromInline
struct _MappedSink<Base: _IDSink>: _IDSink {
  @usableFromInline let base: UnsafeMutablePointer<Base>
  @usableFromInline let ids: UnsafePointer<Int32>

  @inlinable @inline(__always)
  init(_ base: UnsafeMutablePointer<Base>, ids: UnsafePointer<Int32>) {
    self.base = base
    self.ids = ids
  }

  @inlinable @inline(__always)
  mutating func take(_ id: Int32, _ visit: _Visit) -> Bool {
    base.pointee.take(ids[Int(id)], visit)
  }

  @inlinable @inline(__always)
  mutating func takeAll(_ run: UnsafeBufferPointer<Int32>, _ visit: _Visit) -> Bool {
    for id in run where !base.pointee.take(ids[Int(id)], visit) { return false }
    return true
  }
}
