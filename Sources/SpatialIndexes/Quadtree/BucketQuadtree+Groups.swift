// Grouped queries: a packed tree keeps every subtree's points in one run of
// slots, so a subtree whose box lies inside the rectangle is a group.

extension BucketQuadtree {
  /// The slots' ids while the tree is packed (after a build or a
  /// ``compact()``), when they are in depth-first order with no spare slot;
  /// empty after an insert or a removal, when subtrees stop being runs.
  @inlinable package var groupOrder: [Int32] { packed ? ids : [] }
  @inlinable package var groupCoordinates: _FlatArray<Double> { _FlatArray(packed ? coords : []) }

  /// Offers each subtree whose box lies inside `rect` to `visitor`: taken
  /// whole as one run of slots, or else its bucket's ids go alone and its
  /// children are offered in turn. Ids of buckets cut by `rect`'s edges go
  /// alone, at their slots. On a tree that is not packed every id goes
  /// alone, at position -1.
  ///
  /// - Complexity: O(depth + nodes met + ids handed over alone).
  @inlinable
  package func forEachGroup<C: QueryCounters, V: GroupVisitor>(
    in rect: Rect, counters: inout C, _ visitor: inout V
  ) {
    let lo = SIMD2(rect.minX, rect.minY), hi = SIMD2(rect.maxX, rect.maxY)
    let packed = self.packed
    _ = walk(
      rect, &counters,
      group: { visitor.acceptsGroup(in: $0) },
      whole: { counters, ids, slot, n, subtree in
        counters.reportPoints(n)
        if subtree {
          visitor.takeGroup(slot..<(slot &+ n))
        } else {
          for j in 0..<n { visitor.take(ids[j], at: packed ? slot &+ j : -1) }
        }
        return true
      },
      test: { counters, xy, ids, slot, n in
        counters.testPoints(n)
        for j in 0..<n where Self.contains(lo, hi, xy, j) {
          counters.reportPoints(1)
          visitor.take(ids[j], at: packed ? slot &+ j : -1)
        }
        return true
      })
  }
}
