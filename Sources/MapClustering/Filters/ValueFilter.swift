import SpatialIndexes

/// A filter of one clause as the cell tree's walk applies it from a
/// ``_ValueSummary``: a node wholly in one cell adds the totals of the
/// codes that pass (``_CodeTotals``), and, for a number, the points of a
/// bucket the bound cuts, read from that bucket's run; a node without
/// totals (a small one), or a leaf an edge cuts, is filtered point by
/// point on the codes in tree order.
///
/// The filter is one pointer to the query's state, which its summary
/// keeps (``_ValueQueryState``): the walk passes the filter to calls it
/// does not inline (a node's verdict, a mixed node's totals), and a
/// struct holding the state itself, 200 bytes with arrays, was copied,
/// retained and released at each: a tenth of a wide step.
@frozen @usableFromInline
struct _ValueFilter: CellNodeFilter {
  @usableFromInline let state: UnsafePointer<_ValueQueryState>

  /// Rewrites `summary`'s query state for `test`: no allocation once the
  /// summary has held as many aggregated columns.
  init(
    _ summary: _ValueSummary, test: _PropertyTest, query: PropertyQuery, sources: Int,
    totals: UnsafeMutableBufferPointer<_FieldTotals>
  ) {
    let cut: (lo: Int64, hi: Int64, isRange: Bool)
    if case .range(_, let lo, let hi) = test {
      cut = (lo, hi, true)
    } else {
      cut = (0, -1, false)
    }
    // each code's verdict
    let table = summary.passTable, chosen = summary.chosen
    table.update(repeating: 0, count: 256)
    var n = 0
    for c in 0..<summary.codeCount {
      let v: UInt8
      switch test {
      case .code(_, let code): v = UInt32(c) == code ? 1 : 0
      case .codes(_, let bits): v = c >> 6 < bits.count && bits[c >> 6] & (1 << UInt64(c & 63)) != 0 ? 1 : 0
      case .range(_, let lo, let hi):
        let a = summary.lows[c], b = summary.highs[c]
        v = b < lo || a > hi ? 0 : (lo <= a && b <= hi ? 1 : 2)
      case .anyOf(_, let values):
        let a = summary.lows[c], b = summary.highs[c]
        // no allocation: a new filter costs only the query
        let some = values.contains { a <= $0 && $0 <= b }
        v = !some ? 0 : (a == b ? 1 : 2)
      }
      table[c] = v
      if v != 0 {
        chosen[n] = UInt8(c)
        n += 1
      }
    }
    summary.setQuery(_ValueQueryState(
      treeCodes: UnsafePointer(summary.treeCodes), nodeEntries: summary.nodeEntries,
      entries: UnsafePointer(summary.entries),
      entryCodes: UnsafePointer(summary.entryCodes),
      codeCount: summary.codeCount, pass: UnsafePointer(table), chosen: UnsafePointer(chosen), chosenCount: n,
      runPositions: summary.runPositions.map { UnsafePointer($0) },
      runUnits: summary.runUnits, test: test, cutLo: cut.lo, cutHi: cut.hi, cutIsRange: cut.isRange,
      query: query, sources: UnsafePointer(summary.sourceBuffer), width: sources, totals: totals))
    state = UnsafePointer(summary.state)
  }

  @inlinable static var filters: Bool { true }
  @inlinable var addsPoints: Bool { state.pointee.width > 0 }
  @inlinable var scansMixedNodes: Bool { true }

  /// None when the node's totals hold no chosen code; else some (a node
  /// inside one cell is added by ``addMixed``, whatever it holds).
  @inlinable
  func verdict(node: Int) -> CellNodeVerdict {
    let s = state
    if s.pointee.chosenCount == 0 { return .none }
    let (base, e) = s.pointee.nodeEntries[node]
    // no totals, or every code present (one is chosen)
    if e == 0 || e == s.pointee.codeCount { return .some }
    let codes = s.pointee.entryCodes, pass = s.pointee.pass
    for j in base..<(base &+ e) where pass[Int(codes[j])] != 0 { return .some }
    return .none
  }

  @inlinable
  func passes(position: Int, id: Int32) -> Bool {
    let v = state.pointee.pass[Int(state.pointee.treeCodes[position])]
    return v == 1 || (v == 2 && state.pointee.test.passes(Int(id)))
  }

  @inlinable
  func addMixed<C: QueryCounters>(
    node: Int, slot: Int, into cell: UnsafeMutablePointer<CellTotals>, coords: UnsafePointer<Double>,
    ids: UnsafePointer<Int32>, counters: inout C
  ) -> Bool {
    let s = state
    let (base, e) = s.pointee.nodeEntries[node]
    if e == 0 { return false }
    if e == s.pointee.codeCount {
      // every code present: its totals at its code
      let chosen = s.pointee.chosen
      for k in 0..<s.pointee.chosenCount {
        let j = base &+ Int(chosen[k])
        add(j, slot: slot, cell, coords, ids, &counters)
      }
    } else {
      let codes = s.pointee.entryCodes, pass = s.pointee.pass
      for j in base..<(base &+ e) where pass[Int(codes[j])] != 0 {
        add(j, slot: slot, cell, coords, ids, &counters)
      }
    }
    return true
  }

  /// Adds entry `j` (a chosen code): its totals, or, for a cut bucket, its
  /// points that pass, read from the bucket's run.
  @inlinable @inline(__always)
  func add<C: QueryCounters>(
    _ j: Int, slot: Int, _ cell: UnsafeMutablePointer<CellTotals>, _ coords: UnsafePointer<Double>,
    _ ids: UnsafePointer<Int32>, _ counters: inout C
  ) {
    let s = state
    let t = s.pointee.entries[j], code = Int(s.pointee.entryCodes[j])
    let width = s.pointee.width
    if s.pointee.pass[code] == 1 {
      counters.reportPoints(Int(t.count))
      // a lone point's id: its own, or read through its place in the run
      if t.count == 1 { cell.pointee.anyID = s.pointee.runPositions.map { ids[Int($0[Int(t.link)])] } ?? t.link }
      cell.pointee.count &+= t.count
      cell.pointee.sumLon &+= t.sumLon
      cell.pointee.sumLat &+= t.sumLat
      let sources = s.pointee.sources, totals = s.pointee.totals
      for f in 0..<width { sources[f].merge(j, into: &totals[slot &* width &+ f]) }
      return
    }
    // a cut bucket: its points of this node, in tree order
    guard let run = s.pointee.runPositions else { return }
    let start = Int(t.link), end = start &+ Int(t.count)
    counters.testPoints(end &- start)
    let units = s.pointee.runUnits.unsafelyUnwrapped
    let (lo, hi, isRange) = (s.pointee.cutLo, s.pointee.cutHi, s.pointee.cutIsRange)
    var taken = 0
    for r in start..<end {
      // the point's value, read from the column by its id
      let p = Int(run[r])
      let v = units[Int(ids[p])]
      guard isRange ? lo <= v && v <= hi : s.pointee.test.passes(value: v) else { continue }
      let lon = coords[2 &* p], lat = coords[2 &* p &+ 1]
      if cell.pointee.count == 0 { cell.pointee.anyID = ids[p] }
      cell.pointee.count &+= 1
      cell.pointee.sumLon &+= Int64(MapCells.binUnits(longitude: lon))
      cell.pointee.sumLat &+= Int64(MapCells.units(lat))
      if width > 0 { addPoint(id: ids[p], slot: slot) }
      taken &+= 1
    }
    counters.reportPoints(taken)
  }

  @inlinable
  func addNode(_ node: Int, slot: Int) {
    // never called: no node passes whole (``verdict(node:)``)
  }

  @usableFromInline
  func addPoint(id: Int32, slot: Int) {
    _addAggregates(of: id, state.pointee.query, width: state.pointee.width, into: state.pointee.totals, slot: slot)
  }
}

/// What one query of a ``_ValueFilter`` reads: the summary's arrays, the
/// verdict of each code, the clause (for a point of a cut bucket) and
/// where the aggregates go. Kept by the summary, rewritten by each query.
@usableFromInline
struct _ValueQueryState {
  @usableFromInline let treeCodes: UnsafePointer<UInt8>
  @usableFromInline let nodeEntries: _NodeEntries
  @usableFromInline let entries: UnsafePointer<_CodeTotals>
  @usableFromInline let entryCodes: UnsafePointer<UInt8>
  @usableFromInline let codeCount: Int
  /// 0 fails, 1 passes, 2 cut, by code.
  @usableFromInline let pass: UnsafePointer<UInt8>
  /// The codes that are not 0, `chosenCount` of them.
  @usableFromInline let chosen: UnsafePointer<UInt8>
  @usableFromInline let chosenCount: Int
  /// A number's runs: tree positions, bucket after bucket.
  @usableFromInline let runPositions: UnsafePointer<Int32>?
  /// The number column's values by id, read for a cut bucket's points.
  @usableFromInline let runUnits: UnsafePointer<Int64>?
  /// The clause, for a point of a cut bucket; a range's bounds (a list of
  /// values: `cutIsRange` false).
  @usableFromInline let test: _PropertyTest
  @usableFromInline let cutLo: Int64, cutHi: Int64, cutIsRange: Bool
  @usableFromInline let query: PropertyQuery
  /// Each aggregated column's totals beside the entries, `width` of them.
  @usableFromInline let sources: UnsafePointer<_EntryAggregates>
  @usableFromInline let width: Int
  /// The cells' totals, `width` a cell.
  @usableFromInline let totals: UnsafeMutableBufferPointer<_FieldTotals>
}

/// One aggregated column's totals beside a ``_ValueSummary``'s entries:
/// whole (`full`) when a sum of it is asked, else only the least or the
/// greatest asked (8 bytes an entry, not 32).
///
/// A cell's ``_FieldTotals`` then holds exactly the figures its query asks
/// of the column: a least merged alone also raises the greatest, so that
/// a cell with a value is never empty, and a greatest alone lowers the
/// least (each is the true one when it is asked, since a node's least is
/// at most its greatest).
@frozen @usableFromInline
struct _EntryAggregates {
  @usableFromInline var full: UnsafePointer<_FieldTotals>?
  /// The entry's least value, `Int64.min` for none (the missing unit, so
  /// no value: `Int64.max` is one).
  @usableFromInline var least: UnsafePointer<Int64>?
  /// The entry's greatest value, `Int64.min` for none.
  @usableFromInline var greatest: UnsafePointer<Int64>?

  @inlinable init(
    full: UnsafePointer<_FieldTotals>?, least: UnsafePointer<Int64>?, greatest: UnsafePointer<Int64>?
  ) {
    self.full = full
    self.least = least
    self.greatest = greatest
  }

  /// Merges entry `j`'s totals into `t`.
  @inlinable @inline(__always)
  func merge(_ j: Int, into t: inout _FieldTotals) {
    if let full {
      t.merge(full[j])
      return
    }
    if let least {
      let x = least[j]
      if x != .min {
        t.least = Swift.min(t.least, x)
        t.greatest = Swift.max(t.greatest, x)
      }
    }
    if let greatest {
      let x = greatest[j]
      if x != .min {
        t.least = Swift.min(t.least, x)
        t.greatest = Swift.max(t.greatest, x)
      }
    }
  }
}
