import SpatialIndexes

/// A filter of one clause as the cell tree's walk applies it from a
/// ``_ValueSummary``: a node wholly in one cell adds the totals of the
/// codes that pass (``_CodeTotals``), and, for a number, the points of a
/// bucket the bound cuts, read from that bucket's run; a node without
/// totals (a small one), or a leaf an edge cuts, is filtered point by
/// point on the codes in tree order.
@usableFromInline
struct _ValueFilter: CellNodeFilter {
  @usableFromInline let treeCodes: UnsafePointer<UInt8>
  @usableFromInline let entryStart: UnsafePointer<Int32>
  @usableFromInline let entryCount: UnsafePointer<UInt8>
  @usableFromInline let entries: UnsafePointer<_CodeTotals>
  @usableFromInline let codeCount: Int
  /// 0 fails, 1 passes, 2 cut, by code.
  @usableFromInline let pass: UnsafePointer<UInt8>
  /// The codes that are not 0, `chosenCount` of them.
  @usableFromInline let chosen: UnsafePointer<UInt8>
  @usableFromInline let chosenCount: Int
  @usableFromInline let runPositions: UnsafePointer<Int32>?
  @usableFromInline let runValues: UnsafePointer<Int64>?
  /// The clause, for a point of a cut bucket; a range's bounds (a list of
  /// values: `cutIsRange` false).
  @usableFromInline let test: _PropertyTest
  @usableFromInline let cutLo: Int64, cutHi: Int64, cutIsRange: Bool
  @usableFromInline let query: PropertyQuery
  /// Each aggregated column's totals beside the entries, by source.
  @usableFromInline let sources: [UnsafePointer<_FieldTotals>]
  /// The cells' totals, `sources.count` a cell.
  @usableFromInline let totals: UnsafeMutableBufferPointer<_FieldTotals>

  /// Rewrites `summary`'s verdicts by code for `test`: no allocation.
  init(
    _ summary: _ValueSummary, test: _PropertyTest, query: PropertyQuery, sources: [UnsafePointer<_FieldTotals>],
    totals: UnsafeMutableBufferPointer<_FieldTotals>
  ) {
    treeCodes = UnsafePointer(summary.treeCodes)
    entryStart = UnsafePointer(summary.entryStart)
    entryCount = UnsafePointer(summary.entryCount)
    entries = UnsafePointer(summary.entries)
    codeCount = summary.codeCount
    runPositions = summary.runPositions.map { UnsafePointer($0) }
    runValues = summary.runValues.map { UnsafePointer($0) }
    self.test = test
    if case .range(_, let lo, let hi) = test {
      (cutLo, cutHi, cutIsRange) = (lo, hi, true)
    } else {
      (cutLo, cutHi, cutIsRange) = (0, -1, false)
    }
    self.query = query
    self.sources = sources
    self.totals = totals
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
    pass = UnsafePointer(table)
    self.chosen = UnsafePointer(chosen)
    chosenCount = n
  }

  @inlinable static var filters: Bool { true }
  @inlinable var addsPoints: Bool { !sources.isEmpty }
  @inlinable var scansMixedNodes: Bool { true }

  /// None when the node's totals hold no chosen code; else some (a node
  /// inside one cell is added by ``addMixed``, whatever it holds).
  @inlinable
  func verdict(node: Int) -> CellNodeVerdict {
    if chosenCount == 0 { return .none }
    let e = Int(entryCount[node])
    // no totals, or every code present (one is chosen)
    if e == 0 || e == codeCount { return .some }
    let base = Int(entryStart[node])
    for j in base..<(base &+ e) where pass[Int(entries[j].code)] != 0 { return .some }
    return .none
  }

  @inlinable
  func passes(position: Int, id: Int32) -> Bool {
    let v = pass[Int(treeCodes[position])]
    return v == 1 || (v == 2 && test.passes(Int(id)))
  }

  @inlinable
  func addMixed<C: QueryCounters>(
    node: Int, slot: Int, into cell: UnsafeMutablePointer<CellTotals>, coords: UnsafePointer<Double>,
    ids: UnsafePointer<Int32>, counters: inout C
  ) -> Bool {
    let e = Int(entryCount[node])
    if e == 0 { return false }
    let base = Int(entryStart[node])
    if e == codeCount {
      // every code present: its totals at its code
      for k in 0..<chosenCount {
        let j = base &+ Int(chosen[k])
        add(j, slot: slot, cell, coords, ids, &counters)
      }
    } else {
      for j in base..<(base &+ e) where pass[Int(entries[j].code)] != 0 {
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
    let t = entries[j]
    if pass[Int(t.code)] == 1 {
      counters.reportPoints(Int(t.count))
      if t.count == 1 { cell.pointee.anyID = t.id }
      cell.pointee.count &+= t.count
      cell.pointee.sumLon &+= t.sumLon
      cell.pointee.sumLat &+= t.sumLat
      let width = sources.count
      for f in 0..<width { totals[slot &* width &+ f].merge(sources[f][j]) }
      return
    }
    // a cut bucket: its points of this node, in tree order
    guard let run = runPositions, let values = runValues else { return }
    let start = Int(t.rank), end = start &+ Int(t.count)
    counters.testPoints(end &- start)
    var taken = 0
    for r in start..<end {
      let v = values[r]
      guard cutIsRange ? cutLo <= v && v <= cutHi : test.passes(value: v) else { continue }
      let p = Int(run[r])
      let lon = coords[2 &* p], lat = coords[2 &* p &+ 1]
      if cell.pointee.count == 0 { cell.pointee.anyID = ids[p] }
      cell.pointee.count &+= 1
      cell.pointee.sumLon &+= Int64(MapCells.binUnits(longitude: lon))
      cell.pointee.sumLat &+= Int64(MapCells.units(lat))
      if !sources.isEmpty { addPoint(id: ids[p], slot: slot) }
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
    _addAggregates(of: id, query, width: sources.count, into: totals, slot: slot)
  }
}
