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
}
