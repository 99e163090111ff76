/// Where each node's ``_CodeTotals`` lie in a ``_ValueSummary``, for the
/// few nodes that keep some (those of at least its minimum of points): a
/// bit a node says whether it keeps any; those that do are numbered by
/// rank (the set bits before theirs, from a count kept every 64 nodes),
/// and each has its first total and how many. About 1.5 bits a node, and
/// 5 bytes a node that keeps totals, where a start and a count for every
/// node would take 5 bytes a node.
@frozen @usableFromInline
struct _NodeEntries {
  /// Bit `k & 63` of word `k >> 6`: node `k` keeps totals.
  @usableFromInline let keeps: UnsafeMutablePointer<UInt64>
  /// By word of ``keeps``: the nodes before it that keep totals.
  @usableFromInline let before: UnsafeMutablePointer<Int32>
  /// By rank: the first total and how many.
  @usableFromInline let start: UnsafeMutablePointer<Int32>
  @usableFromInline let count: UnsafeMutablePointer<UInt8>
  /// How many nodes keep totals, and how many words ``keeps`` has.
  let kept: Int, words: Int

  /// The nodes of `counts` above zero, with their `starts`.
  init(starts: UnsafePointer<Int32>, counts: UnsafePointer<UInt8>, nodeCount n: Int) {
    words = (n + 63) / 64
    keeps = .allocate(capacity: Swift.max(1, words))
    keeps.initialize(repeating: 0, count: Swift.max(1, words))
    before = .allocate(capacity: Swift.max(1, words))
    var kept = 0
    for w in 0..<words {
      (before + w).initialize(to: Int32(kept))
      for k in (w * 64)..<Swift.min(n, w * 64 + 64) where counts[k] > 0 {
        keeps[w] |= 1 << UInt64(k & 63)
        kept += 1
      }
    }
    self.kept = kept
    start = .allocate(capacity: Swift.max(1, kept))
    count = .allocate(capacity: Swift.max(1, kept))
    var r = 0
    for k in 0..<n where counts[k] > 0 {
      (start + r).initialize(to: starts[k])
      (count + r).initialize(to: counts[k])
      r += 1
    }
  }

  /// Node `node`'s first total and how many; no total: `(0, 0)`.
  @inlinable @inline(__always)
  subscript(node: Int) -> (start: Int, count: Int) {
    let w = keeps[node &>> 6], bit = UInt64(1) &<< UInt64(node & 63)
    if w & bit == 0 { return (0, 0) }
    let r = Int(before[node &>> 6]) &+ (w & (bit &- 1)).nonzeroBitCount
    return (Int(start[r]), Int(count[r]))
  }

  /// Bytes held.
  var bytes: Int { words * 12 + kept * 5 }

  func deallocate() {
    keeps.deallocate()
    before.deallocate()
    start.deallocate()
    count.deallocate()
  }
}
