/// Deterministic work counters that a query updates as it runs.
///
/// Queries are generic over the counter type. ``NoCounters`` has empty inlined
/// methods, so a specialised query without counters compiles to the same code
/// as one that never had them. ``WorkCounters`` adds the numbers up; unit tests
/// may assert them because, unlike time, they do not depend on the machine.
///
/// Building with `-Xswiftc -DSPATIALBENCH_NO_COUNTERS` empties ``WorkCounters``
/// too: that build is the reference for "counters off cost nothing".
public protocol QueryCounters {
  /// `n` tree nodes or grid cells were visited.
  mutating func visitNodes(_ n: Int)
  /// `n` points were compared against the query rectangle.
  mutating func testPoints(_ n: Int)
  /// `n` points were reported to the caller.
  mutating func reportPoints(_ n: Int)
}

/// Counters that count nothing and cost nothing.
@frozen @usableFromInline
package struct NoCounters: QueryCounters {
  @inlinable @inline(__always) package init() {}
  @inlinable @inline(__always) package mutating func visitNodes(_ n: Int) {}
  @inlinable @inline(__always) package mutating func testPoints(_ n: Int) {}
  @inlinable @inline(__always) package mutating func reportPoints(_ n: Int) {}
}

/// Counters that add up the work of every query they are passed to.
@frozen @usableFromInline
package struct WorkCounters: QueryCounters, Hashable, Sendable {
  @usableFromInline package var nodesVisited = 0
  @usableFromInline package var pointsTested = 0
  @usableFromInline package var pointsReported = 0

  @inlinable package init() {}

  @inlinable
  package init(nodesVisited: Int, pointsTested: Int, pointsReported: Int) {
    self.nodesVisited = nodesVisited
    self.pointsTested = pointsTested
    self.pointsReported = pointsReported
  }

  /// False in a build made with `SPATIALBENCH_NO_COUNTERS`.
  package static var isCompiledIn: Bool {
    #if SPATIALBENCH_NO_COUNTERS
    return false
    #else
    return true
    #endif
  }

  @inlinable @inline(__always)
  package mutating func visitNodes(_ n: Int) {
    #if !SPATIALBENCH_NO_COUNTERS
    nodesVisited &+= n
    #endif
  }

  @inlinable @inline(__always)
  package mutating func testPoints(_ n: Int) {
    #if !SPATIALBENCH_NO_COUNTERS
    pointsTested &+= n
    #endif
  }

  @inlinable @inline(__always)
  package mutating func reportPoints(_ n: Int) {
    #if !SPATIALBENCH_NO_COUNTERS
    pointsReported &+= n
    #endif
  }

  package static func + (a: Self, b: Self) -> Self {
    Self(
      nodesVisited: a.nodesVisited + b.nodesVisited,
      pointsTested: a.pointsTested + b.pointsTested,
      pointsReported: a.pointsReported + b.pointsReported)
  }

  package static func += (a: inout Self, b: Self) { a = a + b }
}
