/// Receives the answer of a grouped query (``GroupingIndex/forEachGroup(in:counters:_:)``):
/// single ids, and whole groups of points that the visitor agreed to take at once.
///
/// A group is a subtree lying inside the query rectangle, handed over as runs
/// of positions in the index's ``GroupingIndex/groupOrder`` rather than point by
/// point. A visitor that keeps prefix sums over that order (counts, coordinate
/// sums) then adds a group in O(1): that is how clustering takes whole nodes
/// without visiting their points.
@usableFromInline package protocol GroupVisitor {
  /// Whether a group whose points all lie inside `box` (which lies inside the
  /// query rectangle) can be taken as a whole. When it returns `true`, the
  /// next calls are ``takeGroup(_:)`` with the group's runs.
  mutating func acceptsGroup(in box: Rect) -> Bool
  /// Takes the points at `positions` of ``GroupingIndex/groupOrder``: all of
  /// them inside the rectangle and inside the box last accepted.
  mutating func takeGroup(_ positions: Range<Int>)
  /// Takes one id inside the rectangle, stored at `position` of
  /// ``GroupingIndex/groupOrder`` (-1 for an index without one): a visitor
  /// that keeps per-point data in that order reads it sequentially there
  /// instead of at random by id.
  mutating func take(_ id: Int32, at position: Int)
}

/// Feeds a ``GroupVisitor`` from a traversal written for ``_IDSink``.
@usableFromInline
struct _GroupSink<V: GroupVisitor>: _IDSink {
  @usableFromInline var visitor: V

  @inlinable @inline(__always)
  init(_ visitor: V) { self.visitor = visitor }

  @inlinable @inline(__always)
  mutating func take(_ id: Int32, _ visit: _Visit) -> Bool {
    visitor.take(id, at: -1)
    return true
  }

  @inlinable @inline(__always)
  mutating func take(_ id: Int32, at position: Int, _ visit: _Visit) -> Bool {
    visitor.take(id, at: position)
    return true
  }

  @inlinable @inline(__always)
  mutating func takeAll(_ ids: UnsafeBufferPointer<Int32>, _ visit: _Visit) -> Bool {
    for id in ids { visitor.take(id, at: -1) }
    return true
  }

  @inlinable @inline(__always)
  mutating func takesWhole(_ box: Rect) -> Bool { visitor.acceptsGroup(in: box) }

  @inlinable @inline(__always)
  static var groupsLeaves: Bool { true }

  @inlinable @inline(__always)
  mutating func takeRun(
    _ ids: UnsafeBufferPointer<Int32>, from start: Int, _ visit: _Visit
  ) -> Bool {
    visitor.takeGroup(start..<(start &+ ids.count))
    return true
  }
}
