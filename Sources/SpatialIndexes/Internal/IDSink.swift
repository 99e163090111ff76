/// Where a traversal sends the ids it finds. One traversal per index serves
/// `forEach`, `query(into:)` and `count`, each through its own sink, and
/// specialisation makes each one as fast as if it were written by hand.
@usableFromInline
protocol _IDSink {
  /// Takes one id; `false` stops the query.
  mutating func take(_ id: Int32) -> Bool
  /// Takes a run of ids known to be inside; `false` stops the query.
  mutating func takeAll(_ ids: UnsafeBufferPointer<Int32>) -> Bool
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
