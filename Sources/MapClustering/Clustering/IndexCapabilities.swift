import SpatialIndexes

// The clusterer works over any ``SpatialIndex`` and takes a faster path
// where the index offers one: cell sums (``CellSummingIndex``), groups
// (``GroupingIndex``). Code generic over the index reaches them here.
//
// The test is a cast of the index's type (`I.self as? any
// CellSummingIndex.Type`), never of the index itself (that would box a
// copy), and the call goes through a generic function that takes the type
// opened (`S`). `S` is then `I` itself, so the index is read in place as
// an `S` (``_reading(_:as:_:)``) rather than cast again (`index as? S`
// left a dynamic cast and a copy of the index on every query in the
// disassembly; reading it through a rebound pointer left an unspecialised
// `withMemoryRebound`). In
// code specialised for a concrete index (`Clusterer<CellTree>`, as the
// bench and an app have) the opened call specialises like any other: the
// queries' counters and visitors stay concrete.

/// Calls `body` with `value` as an `S`, which must be its own type `I`
/// (the type a cast of `I.self` opened); `nil`, not calling `body`, if it
/// is another. A bit cast of a value to its own type: no runtime cast, no
/// generic call left once specialised.
@inlinable @inline(__always)
func _reading<I, S, R>(_ value: I, as _: S.Type, _ body: (S) -> R) -> R? {
  guard I.self == S.self else { return nil }
  return body(unsafeBitCast(value, to: S.self))
}

/// Whether `I` sums cells itself.
@inlinable @inline(__always)
func _sumsCells<I: SpatialIndex>(_ type: I.Type) -> Bool {
  I.self is any CellSummingIndex.Type
}

/// The index's ``CellSummingIndex/sumCells(in:window:into:counters:)``;
/// `false`, touching nothing, for an index that does not sum cells.
@inlinable @inline(__always)
func _sumCellsOf<I: SpatialIndex, C: QueryCounters>(
  _ index: I, in rect: Rect, window: CellWindow, into cells: UnsafeMutableBufferPointer<CellTotals>,
  counters: inout C
) -> Bool {
  guard let summing = I.self as? any CellSummingIndex.Type else { return false }
  return _sumCellsOf(as: summing, index, rect, window, cells, &counters)
}

@inlinable @inline(__always)
func _sumCellsOf<S: CellSummingIndex, I: SpatialIndex, C: QueryCounters>(
  as _: S.Type, _ index: I, _ rect: Rect, _ window: CellWindow,
  _ cells: UnsafeMutableBufferPointer<CellTotals>, _ counters: inout C
) -> Bool {
  _reading(index, as: S.self) { $0.sumCells(in: rect, window: window, into: cells, counters: &counters) } != nil
}

/// The index's ``CellSummingIndex/sumCells(in:window:into:filter:counters:)``;
/// `false`, touching nothing, for an index that does not sum cells.
@inlinable @inline(__always)
func _sumCellsOf<I: SpatialIndex, C: QueryCounters, F: CellNodeFilter>(
  _ index: I, in rect: Rect, window: CellWindow, into cells: UnsafeMutableBufferPointer<CellTotals>,
  filter: F, counters: inout C
) -> Bool {
  guard let summing = I.self as? any CellSummingIndex.Type else { return false }
  return _sumCellsOf(as: summing, index, rect, window, cells, filter, &counters)
}

@inlinable @inline(__always)
func _sumCellsOf<S: CellSummingIndex, I: SpatialIndex, C: QueryCounters, F: CellNodeFilter>(
  as _: S.Type, _ index: I, _ rect: Rect, _ window: CellWindow,
  _ cells: UnsafeMutableBufferPointer<CellTotals>, _ filter: F, _ counters: inout C
) -> Bool {
  _reading(index, as: S.self) {
    $0.sumCells(in: rect, window: window, into: cells, filter: filter, counters: &counters)
  } != nil
}

/// The index's nodes (``CellSummingIndex/nodeOrderIDs``,
/// ``CellSummingIndex/nodeCount``, ``CellSummingIndex/nodeShape(_:)``)
/// handed to `body`; nil for an index that does not sum cells.
func _cellNodes<I: SpatialIndex, R>(
  _ index: I, _ body: (_ ids: [Int32], _ count: Int, _ shape: (Int) -> CellNodeShape) -> R
) -> R? {
  guard let summing = I.self as? any CellSummingIndex.Type else { return nil }
  return _cellNodes(as: summing, index, body)
}

func _cellNodes<S: CellSummingIndex, I: SpatialIndex, R>(
  as _: S.Type, _ index: I, _ body: (_ ids: [Int32], _ count: Int, _ shape: (Int) -> CellNodeShape) -> R
) -> R? {
  _reading(index, as: S.self) { tree in body(tree.nodeOrderIDs, tree.nodeCount, { tree.nodeShape($0) }) }
}

/// The index's ``GroupingIndex/groupOrder``; empty for an index that forms no groups.
@inlinable @inline(__always)
func _groupOrder<I: SpatialIndex>(_ index: I) -> [Int32] {
  guard let grouping = I.self as? any GroupingIndex.Type else { return [] }
  return _groupOrder(as: grouping, index)
}

@inlinable @inline(__always)
func _groupOrder<G: GroupingIndex, I: SpatialIndex>(as _: G.Type, _ index: I) -> [Int32] {
  _reading(index, as: G.self) { $0.groupOrder } ?? []
}

/// The index's ``GroupingIndex/groupCoordinates``; empty for an index that forms no groups.
@inlinable @inline(__always)
func _groupCoordinates<I: SpatialIndex>(_ index: I) -> _FlatArray<Double> {
  guard let grouping = I.self as? any GroupingIndex.Type else { return _FlatArray() }
  return _groupCoordinates(as: grouping, index)
}

@inlinable @inline(__always)
func _groupCoordinates<G: GroupingIndex, I: SpatialIndex>(as _: G.Type, _ index: I) -> _FlatArray<Double> {
  _reading(index, as: G.self) { $0.groupCoordinates } ?? _FlatArray()
}

/// The index's ``GroupingIndex/forEachGroup(in:counters:_:)``; for an index
/// that forms no groups, every id alone (at position -1) from ``SpatialIndex/forEach(in:counters:_:)``.
@inlinable @inline(__always)
func _forEachGroup<I: SpatialIndex, C: QueryCounters, V: GroupVisitor>(
  _ index: I, in rect: Rect, counters: inout C, _ visitor: inout V
) {
  if let grouping = I.self as? any GroupingIndex.Type,
     _forEachGroup(as: grouping, index, rect, &counters, &visitor) {
    return
  }
  index.forEach(in: rect, counters: &counters) { id in
    visitor.take(id, at: -1)
    return true
  }
}

@inlinable @inline(__always)
func _forEachGroup<G: GroupingIndex, I: SpatialIndex, C: QueryCounters, V: GroupVisitor>(
  as _: G.Type, _ index: I, _ rect: Rect, _ counters: inout C, _ visitor: inout V
) -> Bool {
  _reading(index, as: G.self) { $0.forEachGroup(in: rect, counters: &counters, &visitor) } != nil
}
