/// The frames of the cell walk, in a ring on the call stack, taken oldest
/// first.
///
/// A node's children join the back of the queue and are prefetched then,
/// so every frame ahead of them hides their cache misses (depth first, each
/// level of a descent waited on the one above). When the queue passes
/// `breadthLimit`, frames are taken newest first (depth first), which adds
/// at most 3 · 28 + 1 frames above it, so the ring never overflows.
@usableFromInline
struct _CellQueue {
  @usableFromInline let ring: UnsafeMutablePointer<_CellFrame>
  /// A power of two, so that a position in the ring is a mask.
  @usableFromInline let capacity: Int
  @usableFromInline let breadthLimit: Int
  @usableFromInline var head = 0, tail = 0

  /// A queue in `scratch`, holding the frames that fit, rounded down to a
  /// power of two.
  @inlinable @inline(__always)
  init(_ scratch: UnsafeMutableBufferPointer<_CellFrame>) {
    ring = scratch.baseAddress!
    capacity = 1 << (Int.bitWidth &- 1 &- scratch.count.leadingZeroBitCount)
    breadthLimit = capacity &- 92
  }

  @inlinable @inline(__always)
  mutating func push(_ frame: _CellFrame) {
    precondition(tail &- head < capacity, "cell walk queue overflow")
    ring[tail & (capacity &- 1)] = frame
    tail &+= 1
  }

  /// The oldest frame, or the newest once the queue is past its breadth
  /// limit; nil when it is empty.
  @inlinable @inline(__always)
  mutating func pop() -> _CellFrame? {
    guard head < tail else { return nil }
    if tail &- head <= breadthLimit {
      head &+= 1
      return ring[(head &- 1) & (capacity &- 1)]
    }
    tail &-= 1
    return ring[tail & (capacity &- 1)]
  }
}
