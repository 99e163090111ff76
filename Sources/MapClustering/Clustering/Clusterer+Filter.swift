import SpatialIndexes

// Clustering the points that pass a filter, with aggregates per marker
// (``PropertyQuery``). Every strategy visits the points its queries return,
// drops those that fail the filter (one property column at a time), and
// bins the rest as a step without a filter does; aggregates are then added
// by cell, one column at a time. The markers are, bit for bit, those of a
// clusterer built over the passing points alone.

/// What a step with a query carries into the strategies: the query, and
/// the totals of the cells' aggregated columns (``PropertyQuery/_sourceCount``
/// ``_FieldTotals`` a cell, by dense slot).
@usableFromInline
struct _StepQuery {
  @usableFromInline let query: PropertyQuery
  @usableFromInline let totals: UnsafeMutableBufferPointer<_FieldTotals>

  @inlinable
  init(_ query: PropertyQuery, _ totals: UnsafeMutableBufferPointer<_FieldTotals>) {
    self.query = query
    self.totals = totals
  }
}

extension Clusterer {
  /// Replaces the contents of `markers` with the markers of the points of
  /// `viewport` that pass `query`'s filter, and the contents of `aggregates`
  /// with their aggregates: `query`'s list, in order, for each marker in
  /// turn (marker `m`'s aggregate `a` at `m · count + a`).
  ///
  /// A point that fails the filter is left out as if it were not there: a
  /// marker's count, mean and (for one point) id are those of its passing
  /// points, the same, bit for bit, as a clusterer's built over the passing
  /// points alone (ids mapped back), for every index and strategy. A cell
  /// with no passing point has no marker. Changing the filter rebuilds
  /// nothing: a new query is compiled, the index and the clusterer stay.
  ///
  /// `singlePass` and `perCell` visit the points their queries return.
  /// `aggregate` on the cell tree answers whole nodes from summaries of
  /// the properties by node, built on first use for each column a query
  /// reads (a node whose points all pass adds its totals, one whose points
  /// all fail is skipped, a mixed one is split; with a filter of one
  /// clause, a node in one cell adds the totals of the values that pass,
  /// however its values mix); on any other index it takes one range query
  /// a rectangle, as `singlePass` does.
  ///
  /// - Throws: ``ClusteringError/invalidProperties(_:)`` when the query's
  ///   properties describe another number of points than the clusterer's.
  /// - Complexity: as ``cluster(_:strategy:into:counters:)-(VisibleArea,_,_,_)``
  ///   for `singlePass` or `perCell`, plus a read of each filter column and
  ///   aggregated column for each point returned; on the cell tree with
  ///   `aggregate`, the nodes the view reaches plus the mixed nodes and
  ///   the points of mixed leaves, and O(*n*) for each column's summaries
  ///   the first time it is read; no allocation once the buffers have
  ///   grown and the columns are summarised.
  @inlinable
  public mutating func cluster(
    _ viewport: Viewport, strategy: ClusterStrategy = .singlePass, query: PropertyQuery,
    into markers: inout [ClusterMarker], aggregates: inout [AggregateValue]
  ) throws(ClusteringError) {
    var none = NoCounters()
    try cluster(
      viewport.visibleArea, strategy: strategy, query: query, into: &markers, aggregates: &aggregates, counters: &none)
  }

  /// The same for the rectangles of `area`.
  @inlinable
  package mutating func cluster(
    _ area: VisibleArea, strategy: ClusterStrategy = .singlePass, query: PropertyQuery,
    into markers: inout [ClusterMarker], aggregates: inout [AggregateValue]
  ) throws(ClusteringError) {
    var none = NoCounters()
    try cluster(area, strategy: strategy, query: query, into: &markers, aggregates: &aggregates, counters: &none)
  }

  /// The same for the rectangles of `area`, the index's work added to
  /// `counters`: what the bench times.
  @inlinable
  package mutating func cluster<C: QueryCounters>(
    _ area: VisibleArea, strategy: ClusterStrategy, query: PropertyQuery,
    into markers: inout [ClusterMarker], aggregates values: inout [AggregateValue], counters: inout C
  ) throws(ClusteringError) {
    if let n = query._count, n != points.count {
      throw .invalidProperties("the properties describe \(n) points, but the clusterer holds \(points.count)")
    }
    values.removeAll(keepingCapacity: true)
    if query._isEmpty {
      cluster(area, strategy: strategy, into: &markers, counters: &counters)
      return
    }
    guard !query._passesNothing, let layout = _layout(area) else {
      markers.removeAll(keepingCapacity: true)
      return
    }
    let n = layout.cellCount, width = query._sourceCount
    let (slots, overflow) = n.multipliedReportingOverflow(by: Swift.max(1, width))
    if overflow || slots > Self.maximumDenseCells {
      _sparse(layout, query, into: &markers, aggregates: &values, counters: &counters)
      return
    }
    if _cells.count < n {
      _cells.append(contentsOf: repeatElement(CellTotals(), count: n - _cells.count))
    }
    let t = n &* width
    if _fieldTotals.count < t {
      _fieldTotals.append(contentsOf: repeatElement(_FieldTotals(), count: t - _fieldTotals.count))
    }
    var cells: [CellTotals] = [], totals: [_FieldTotals] = []
    swap(&cells, &_cells)
    swap(&totals, &_fieldTotals)
    cells.withUnsafeMutableBufferPointer { allCells in
      totals.withUnsafeMutableBufferPointer { allTotals in
        let cells = UnsafeMutableBufferPointer(rebasing: allCells[0..<n])
        let totals = UnsafeMutableBufferPointer(rebasing: allTotals[0..<t])
        cells.update(repeating: CellTotals())
        totals.update(repeating: _FieldTotals())
        let step = _StepQuery(query, totals)
        switch strategy {
        case .singlePass: _singlePass(layout, cells, &counters, step)
        case .perCell: _perCell(layout, cells, &counters, step)
        case .aggregate: _filteredAggregate(layout, cells, step, &counters)
        }
        _emit(layout, UnsafeBufferPointer(cells), into: &markers)
        if width > 0 {
          _forEachMarkerCell(layout, UnsafeBufferPointer(cells)) { slot, _, _ in
            query._appendValues(UnsafeBufferPointer(totals), slot: slot, into: &values)
          }
        }
      }
    }
    swap(&cells, &_cells)
    swap(&totals, &_fieldTotals)
  }

  /// `aggregate` with a query. An index that sums cells itself (the cell
  /// tree) walks its nodes with the query's summaries by node
  /// (``_NodeSummaries``, ``_SummaryFilter``): a node wholly in one cell
  /// whose points all pass is added from its totals and its aggregates'
  /// totals, one whose points all fail is skipped, and only the mixed
  /// ones are split, down to their leaves' points. Any other index takes
  /// one range query a rectangle, each passing point visited, as
  /// ``_singlePass(_:_:_:_:)`` does.
  @inlinable
  mutating func _filteredAggregate<C: QueryCounters>(
    _ layout: _StepLayout, _ cells: UnsafeMutableBufferPointer<CellTotals>, _ query: _StepQuery,
    _ counters: inout C
  ) {
    guard _indexSumsCells else {
      _singlePass(layout, cells, &counters, query)
      return
    }
    if let filter = _valueFilter(query) {
      _walk(layout, cells, filter, &counters)
      return
    }
    guard let filter = _summaryFilter(query) else {
      _singlePass(layout, cells, &counters, query)
      return
    }
    _walk(layout, cells, filter, &counters)
  }

  /// The cell tree's walk of each rectangle of `layout` with `filter`.
  @inlinable
  func _walk<C: QueryCounters, F: CellNodeFilter>(
    _ layout: _StepLayout, _ cells: UnsafeMutableBufferPointer<CellTotals>, _ filter: F, _ counters: inout C
  ) {
    for k in 0..<layout.rectCount {
      let (rect, window) = layout.window(k)
      _ = _sumCellsOf(index, in: rect, window: window, into: cells, filter: filter, counters: &counters)
    }
  }

  /// The walk's filter for `step` from totals by value
  /// (``_NodeSummaries/valueFilter(_:totals:points:_:)``): for a filter of
  /// one clause, on a category of few codes or a number; nil otherwise, or
  /// for an index that does not sum cells.
  @usableFromInline
  mutating func _valueFilter(_ step: _StepQuery) -> _ValueFilter? {
    let stored = _summaryStorage, points = _points
    return _cellNodes(index) { ids, count, shape in
      let summaries = stored.flatMap { $0.holds(ids) ? $0 : nil } ?? _NodeSummaries(ids: ids, nodeCount: count, shape)
      return (summaries, summaries.valueFilter(step.query, totals: step.totals, points: points, shape))
    }.flatMap { summaries, filter in
      _summaryStorage = summaries
      return filter
    }
  }

  /// The walk's filter for `step`, from the summaries of the index's nodes,
  /// made (or remade, for a new tree) on first use; nil for an index that
  /// does not sum cells, and nil when the summaries would not pay: when
  /// more than 1/``_walkMixedLimit`` of the points of a sample of leaves
  /// lie in leaves the filter finds mixed. The walk tests those points one
  /// by one, reading the columns at random, where the single pass reads
  /// them in id order: on 1M hotels, whose properties do not follow the
  /// map, the walk took 4–6 times the single pass (most leaves mixed).
  /// The sample is judged first, on its leaves' own summaries
  /// (``_NodeSummaries/mixedShare(_:_:)``): a filter it refuses makes no
  /// summary by node.
  @usableFromInline
  mutating func _summaryFilter(_ step: _StepQuery) -> _SummaryFilter? {
    let stored = _summaryStorage, limit = _walkMixedLimit
    return _cellNodes(index) { ids, count, shape -> (_NodeSummaries, _SummaryFilter?) in
      let summaries = stored.flatMap { $0.holds(ids) ? $0 : nil } ?? _NodeSummaries(ids: ids, nodeCount: count, shape)
      if limit > 0 {
        // judged on the sample first: a refused filter makes no summary by node
        let (mixed, sampled) = summaries.mixedShare(step.query, shape)
        if mixed.multipliedReportingOverflow(by: limit).partialValue > sampled { return (summaries, nil) }
      }
      return (summaries, summaries.filter(step.query, totals: step.totals, shape))
    }.flatMap { summaries, filter in
      _summaryStorage = summaries
      return filter
    }
  }

  /// Adds the points of `_ids` (inside `rc.rect`) that pass the query's
  /// filter to their cells, or with `onlyColumn`, only those of cell
  /// (`onlyColumn`, `row`), as ``_accumulate(_:_:_:onlyColumn:row:)``
  /// does; then their values to their cells' aggregates.
  ///
  /// The ids are sorted first when they are many, so the filter's columns
  /// and the records are read forward, then filtered one column at a time.
  @inlinable
  mutating func _accumulate(
    _ layout: _StepLayout, _ rc: _RectCells, _ cells: UnsafeMutableBufferPointer<CellTotals>,
    _ step: _StepQuery, onlyColumn: Int?, row onlyRow: Int
  ) {
    _sortIDsIfMany()
    step.query._retain(&_ids)
    let k = _ids.count
    guard k > 0 else { return }
    let table = _table(), records = table.records, points = _points
    let family = Int(table.family[layout.zoom]), shift = UInt32(table.shift[layout.zoom])
    let aggregating = step.query._sourceCount > 0
    if aggregating && _slots.count < k {
      _slots.append(contentsOf: repeatElement(-1, count: k - _slots.count))
    }
    _ids.withUnsafeBufferPointer { ids in
      _slots.withUnsafeMutableBufferPointer { slots in
        for j in 0..<k {
          let id = ids[j], i = Int(id), r = records[i]
          let (col, row) = Self._cell(i, r, family: family, shift: shift, layout, points)
          var slot = layout.slot(col: col, row: row, rc)
          // a point on a shared edge is returned by both cells' queries
          if let only = onlyColumn, col != only || row != onlyRow { slot = -1 }
          if slot >= 0 { cells[slot].add(id, lonE7: r.lonE7, latE7: r.latE7) }
          if aggregating { slots[j] = Int32(truncatingIfNeeded: slot) }
        }
        if aggregating {
          step.query._add(ids, slots: UnsafeBufferPointer(rebasing: slots[0..<k]), into: step.totals)
        }
      }
    }
  }

  /// ``_sparse(_:into:counters:)`` with a query: the cells and their
  /// aggregates in a hash table.
  @inlinable
  mutating func _sparse<C: QueryCounters>(
    _ layout: _StepLayout, _ query: PropertyQuery, into markers: inout [ClusterMarker],
    aggregates values: inout [AggregateValue], counters: inout C
  ) {
    let table = _table(), records = table.records
    let family = Int(table.family[layout.zoom]), shift = UInt32(table.shift[layout.zoom])
    let width = query._sourceCount
    var slotOf: [SIMD2<Int>: Int] = [:]
    var cells: [CellTotals] = [], totals: [_FieldTotals] = []
    for k in 0..<layout.rectCount {
      let rc = layout.rect(k)
      _ids.removeAll(keepingCapacity: true)
      index.query(in: rc.rect, into: &_ids, counters: &counters)
      query._retain(&_ids)
      if _slots.count < _ids.count {
        _slots.append(contentsOf: repeatElement(-1, count: _ids.count - _slots.count))
      }
      for j in _ids.indices {
        let id = _ids[j], i = Int(id), r = records[i]
        let (col, row) = Self._cell(i, r, family: family, shift: shift, layout, _points)
        guard layout.holds(col: col, row: row, rc) else {
          _slots[j] = -1
          continue
        }
        let slot: Int
        if let known = slotOf[SIMD2(row, col)] {
          slot = known
        } else {
          slot = cells.count
          slotOf[SIMD2(row, col)] = slot
          cells.append(CellTotals())
          totals.append(contentsOf: repeatElement(_FieldTotals(), count: width))
        }
        cells[slot].add(id, lonE7: r.lonE7, latE7: r.latE7)
        _slots[j] = Int32(truncatingIfNeeded: slot)
      }
      let m = _ids.count
      totals.withUnsafeMutableBufferPointer { t in
        _ids.withUnsafeBufferPointer { ids in
          _slots.withUnsafeBufferPointer { s in query._add(ids, slots: UnsafeBufferPointer(rebasing: s[0..<m]), into: t) }
        }
      }
    }
    markers.removeAll(keepingCapacity: true)
    values.removeAll(keepingCapacity: true)
    totals.withUnsafeBufferPointer { totals in
      for cell in slotOf.keys.sorted(by: { ($0.x, $0.y) < ($1.x, $1.y) }) {
        let slot = slotOf[cell]!
        markers.append(_marker(cells[slot], zoom: layout.zoom, column: cell.y, row: cell.x))
        query._appendValues(totals, slot: slot, into: &values)
      }
    }
  }
}
