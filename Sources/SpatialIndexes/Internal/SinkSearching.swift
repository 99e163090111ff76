/// An index whose queries are one walk (``search(_:_:_:_:)``) sending what
/// it finds to a sink (``_IDSink``): `forEach`, `query(into:)` and `count`
/// are then that walk with each sink, written once here.
@usableFromInline
protocol _SinkSearching: SpatialIndex {
  /// The walk over `rect`; `false` when the sink (or `visit`) stopped it.
  func search<C: QueryCounters, S: _IDSink>(
    _ rect: Rect, _ counters: inout C, _ sink: inout S, _ visit: _Visit) -> Bool
}

extension _SinkSearching {
  /// The walk with a sink that calls `visit`.
  @inlinable @discardableResult
  public func forEach<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool
  ) -> Bool {
    var sink = _VisitSink()
    return search(rect, &counters, &sink, visit)
  }

  /// The walk with a sink that appends, a run of ids inside at a time.
  @inlinable
  public func query<C: QueryCounters>(
    in rect: Rect, into ids: inout [Int32], counters: inout C
  ) {
    var sink = _AppendSink([])
    swap(&sink.ids, &ids)  // moved in and out: never copied
    _ = search(rect, &counters, &sink, _noVisit)
    swap(&sink.ids, &ids)
  }

  /// The walk with a sink that counts, adding runs inside without reading them.
  @inlinable
  public func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int {
    var sink = _CountSink()
    _ = search(rect, &counters, &sink, _noVisit)
    return sink.count
  }

}

/// A walk whose whole subtrees are runs of ``GroupingIndex/groupOrder``
/// (the k-d tree, the R-tree): the grouped query is the walk with a
/// grouping sink. (The cell tree walks with sinks too, but keeps no group
/// order: it sums cells itself.)
@usableFromInline
protocol _SinkGrouping: _SinkSearching, GroupingIndex {}

extension _SinkGrouping {
  /// Hands whole subtrees to `visitor` as runs of ``GroupingIndex/groupOrder``
  /// when it accepts their box.
  @inlinable
  package func forEachGroup<C: QueryCounters, V: GroupVisitor>(
    in rect: Rect, counters: inout C, _ visitor: inout V
  ) {
    var sink = _GroupSink(visitor)
    _ = search(rect, &counters, &sink, _noVisit)
    visitor = sink.visitor
  }
}
