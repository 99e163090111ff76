import SpatialIndexes

/// The grouped query of any index, for tests that run every index through
/// it: an index that forms no groups (``GroupingIndex``) hands every id alone.
package func groupOrder<I: SpatialIndex>(of index: I) -> [Int32] {
  (index as? any GroupingIndex)?.groupOrder ?? []
}

/// ``GroupingIndex/forEachGroup(in:counters:_:)`` of `index`, or for one
/// that forms no groups each id alone at position -1.
package func forEachGroup<I: SpatialIndex, V: GroupVisitor>(
  of index: I, in rect: Rect, _ visitor: inout V
) {
  var none = NoCounters()
  if let grouping = index as? any GroupingIndex {
    func open<G: GroupingIndex>(_ g: G) { g.forEachGroup(in: rect, counters: &none, &visitor) }
    open(grouping)
  } else {
    index.forEach(in: rect, counters: &none) { id in
      visitor.take(id, at: -1)
      return true
    }
  }
}
