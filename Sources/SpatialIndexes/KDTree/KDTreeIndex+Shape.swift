extension KDTreeIndex {
  /// The shape of a subtree of `size` points: how many go to its full left
  /// subtree, and how many split points that left subtree has.
  ///
  /// A full tree of height h has 2^h − 1 split points and 2^h leaves of
  /// `nodeSize` points: 2^h · (nodeSize + 1) − 1 points. The left subtree is
  /// the smallest full tree holding at least half of the `size − 1` points
  /// below the split, so the right one is never the larger.
  ///
  /// - Precondition: `size > nodeSize` (the subtree is not a leaf).
  @inlinable @inline(__always)
  package static func _leftShape(size: Int, nodeSize: Int) -> (points: Int, splits: Int) {
    // The smallest h with 2 · (2^h (nodeSize + 1) − 1) ≥ size − 1, that is
    // the smallest power of two L = 2^h with L · b ≥ a for a = size + 1 and
    // b = 2 (nodeSize + 1). With p the difference of their bit lengths,
    // 2^(p−1) · b < a ≤ 2^(p+1) · b, so L is 2^p or 2^(p+1) (1 when p < 0):
    // one compare instead of a division on every node of a query.
    let unit = nodeSize &+ 1
    let a = size &+ 1, b = 2 &* unit
    var h = max(0, b.leadingZeroBitCount &- a.leadingZeroBitCount)
    if b &<< h < a { h &+= 1 }
    let leaves = 1 &<< h
    return (leaves &* unit &- 1, leaves &- 1)
  }

  /// Split points in a tree of `size` points (walks the right spine).
  static func _splitCount(size: Int, nodeSize: Int) -> Int {
    var size = size, splits = 0
    while size > nodeSize {
      let left = _leftShape(size: size, nodeSize: nodeSize)
      splits += 1 + left.splits
      size = size - 1 - left.points
    }
    return splits
  }
}
