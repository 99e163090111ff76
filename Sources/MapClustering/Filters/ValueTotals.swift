import SpatialIndexes

/// The totals of one node's points that share one value (a code) of one
/// column: what a marker needs of them (their count and coordinate sums)
/// and `link`: for a number with runs, where they start in the run of
/// their code (``_ValueSummary/runPositions``), which also names the point
/// of a total of one; else one of the points' ids, the marker's when it is
/// the only one. 24 bytes; the code is beside it, in
/// ``_ValueSummary/entryCodes``.
@frozen @usableFromInline
struct _CodeTotals {
  @usableFromInline var sumLon: Int64
  @usableFromInline var sumLat: Int64
  @usableFromInline var count: Int32
  /// The first of the points in the run of their code (a number's bucket;
  /// the run holds them in tree order, so the node's are the next
  /// `count`), or, without runs, one of their ids.
  @usableFromInline var link: Int32
}

/// Totals by value of one property column over a cell tree's large nodes,
/// so a filter on that column alone answers a node wholly in one cell
/// without reading its points, however its values mix.
///
/// - **Codes.** A category with at most ``maximumCodes`` values keeps its
///   codes. A number is cut into at most ~64 buckets of about equal counts
///   (equal values share a bucket, so a column of few values, like stars,
///   has one bucket a value); the code is the bucket.
/// - **By position** (`treeCodes`), each point's code in tree order, a
///   byte: a mixed leaf, or a small node, is filtered reading memory in
///   sequence.
/// - **By node**, for each node holding at least ``minimumPoints`` points
///   (chosen so that at most one total is kept for 4 points, 3 for 16
///   beside runs), a ``_CodeTotals`` for each code present, sorted by
///   code, and the code beside it. A node with one child of the same
///   points shares its child's.
/// - **A number's runs**: the tree positions of each bucket's points, in
///   tree order (4 bytes a point). A bound that cuts a bucket is decided
///   on that bucket's points of the node alone, found from its run, each
///   value read from the column itself (``runUnits``): a cut bucket is
///   rare enough on a walk that keeping the values beside the run again
///   would cost more memory than the reads save. A number whose buckets
///   each hold one value has none: no bound cuts them.
/// - **Aggregates** (``aggregateSources(_:ids:_:)``): for a number column
///   asked, beside each ``_CodeTotals``, its ``_FieldTotals`` when a sum of
///   it is asked, else only the least or the greatest asked
///   (``_EntryAggregates``), each made on first use.
///
/// Where it loses: many codes chosen at once (each adds its totals), a
/// range that cuts a bucket (its points are read), and filters of several
/// clauses, which take the masks of ``_NodeSummaries`` instead.
final class _ValueSummary: @unchecked Sendable {
  /// The column, retained (its storage is its identity). `Any`, not
  /// `AnyObject`: with Foundation loaded, an array cast to `AnyObject`
  /// is bridged, a copy of every element.
  let column: Any
  let key: UnsafeRawPointer?
  let count: Int
  let isCategory: Bool
  /// Codes used: 0..<codeCount; ``missing`` is a missing value.
  let codeCount: Int
  static var missing: UInt8 { 255 }
  static var maximumCodes: Int { 254 }
  /// A number's buckets: code `c` holds the values `lows[c]...highs[c]`.
  let lows: [Int64], highs: [Int64]
  let nodeCount: Int
  let positions: Int
  /// Nodes of fewer points keep no totals.
  let minimumPoints: Int
  let treeCodes: UnsafeMutablePointer<UInt8>
  /// By node: its first ``_CodeTotals`` and how many it has (0: none kept).
  let nodeEntries: _NodeEntries
  let entries: UnsafeMutablePointer<_CodeTotals>
  /// Each entry's code, beside it: a node's are read in sequence to judge it.
  let entryCodes: UnsafeMutablePointer<UInt8>
  let entryTotal: Int
  /// A number's runs, bucket after bucket: tree positions.
  let runPositions: UnsafeMutablePointer<Int32>?
  let runLength: Int
  /// The number column's values by id, where a cut bucket's points are
  /// read: the storage of ``column``, which the summary retains and
  /// never changes. Nil for a category.
  let runUnits: UnsafePointer<Int64>?
  /// Aggregated columns' totals beside the entries, by column: whole, or
  /// the least and the greatest alone, each made when first asked.
  var aggregates: [(
    column: [Int64], key: UnsafeRawPointer?, full: UnsafeMutablePointer<_FieldTotals>?,
    least: UnsafeMutablePointer<Int64>?, greatest: UnsafeMutablePointer<Int64>?
  )] = []
  /// The query's aggregated columns (``aggregateSources(_:ids:_:)``) and
  /// its state (``_ValueFilter``), rewritten by each query.
  private(set) var sourceBuffer: UnsafeMutablePointer<_EntryAggregates>
  private var sourceCapacity = 4
  let state: UnsafeMutablePointer<_ValueQueryState>
  private var holdsState = false
  /// One query's verdict by code (0 fails, 1 passes, 2 cut: test each
  /// value) and the codes that are not 0: rewritten by each query, so a
  /// new filter allocates nothing.
  let passTable: UnsafeMutablePointer<UInt8>
  let chosen: UnsafeMutablePointer<UInt8>

  /// Totals by node kept per 32 points, at most: picks ``minimumPoints``.
  /// A number with runs keeps 6, other columns 8 (25 bytes each, with the
  /// code).
  static func entriesPer32Points(runs: Bool) -> Int { runs ? 6 : 8 }

  /// Summarises a category column; nil past ``maximumCodes`` codes.
  convenience init?(
    codes: _CategoryCodes, ids: [Int32], points: [Point], nodeCount: Int, _ shape: (Int) -> CellNodeShape
  ) {
    var top = -1
    for i in 0..<codes.count where codes.code(at: i) != .max { top = Swift.max(top, Int(codes.code(at: i))) }
    guard top < Self.maximumCodes else { return nil }
    self.init(
      column: codes.storage, key: codes.address, count: codes.count, isCategory: true,
      codeCount: top + 1, lows: [], highs: [], ids: ids, points: points, nodeCount: nodeCount, shape
    ) { id in
      let c = codes.code(at: id)
      return c == .max ? Self.missing : UInt8(c)
    }
  }

  /// Summarises a number column, in buckets of about equal counts.
  convenience init(
    units: [Int64], ids: [Int32], points: [Point], nodeCount: Int, _ shape: (Int) -> CellNodeShape
  ) {
    var sorted = units.filter { $0 != .min }
    sorted.sort()
    var lows: [Int64] = [], highs: [Int64] = []
    let size = Swift.max(1, sorted.count / 64)
    var k = 0
    while k < sorted.count {
      var end = Swift.min(sorted.count, k + size)
      while end < sorted.count && sorted[end] == sorted[end - 1] { end += 1 }
      lows.append(sorted[k])
      highs.append(sorted[end - 1])
      k = end
    }
    let lowsCopy = lows
    self.init(
      column: units, key: _NodeSummaries.address(units), count: units.count, isCategory: false,
      codeCount: lows.count, lows: lows, highs: highs, ids: ids, points: points, nodeCount: nodeCount, shape
    ) { id in
      let u = units[id]
      if u == .min { return Self.missing }
      // the last bucket whose low is at most u
      var a = 0, b = lowsCopy.count
      while a < b {
        let mid = (a + b) >> 1
        if lowsCopy[mid] <= u { a = mid + 1 } else { b = mid }
      }
      return UInt8(a - 1)
    }
  }

  private init(
    column: Any, key: UnsafeRawPointer?, count: Int, isCategory: Bool, codeCount: Int, lows: [Int64],
    highs: [Int64], ids: [Int32], points: [Point], nodeCount n: Int, _ shape: (Int) -> CellNodeShape,
    code: (Int) -> UInt8
  ) {
    self.column = column
    self.key = key
    self.count = count
    self.isCategory = isCategory
    self.codeCount = codeCount
    self.lows = lows
    self.highs = highs
    sourceBuffer = .allocate(capacity: 4)
    state = .allocate(capacity: 1)
    nodeCount = n
    positions = ids.count
    let m = ids.count
    let treeCodes = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(1, m))
    for p in 0..<m { treeCodes[p] = code(Int(ids[p])) }
    self.treeCodes = treeCodes
    passTable = .allocate(capacity: 256)
    passTable.initialize(repeating: 0, count: 256)
    chosen = .allocate(capacity: 256)
    chosen.initialize(repeating: 0, count: 256)

    // a number's runs: tree positions bucket by bucket (a counting sort),
    // and each position's place in them
    var place: [Int32] = []
    // a number whose buckets each hold one value (stars) is never cut
    if !isCategory && zip(lows, highs).contains(where: { $0 != $1 }) {
      var starts = [Int](repeating: 0, count: codeCount + 1)
      for p in 0..<m where treeCodes[p] != Self.missing { starts[Int(treeCodes[p]) + 1] += 1 }
      for c in 0..<codeCount { starts[c + 1] += starts[c] }
      runLength = starts[codeCount]
      let run = UnsafeMutablePointer<Int32>.allocate(capacity: Swift.max(1, runLength))
      place = [Int32](repeating: -1, count: m)
      for p in 0..<m where treeCodes[p] != Self.missing {
        let c = Int(treeCodes[p])
        run[starts[c]] = Int32(p)
        place[p] = Int32(starts[c])
        starts[c] += 1
      }
      runPositions = run
    } else {
      runLength = 0
      runPositions = nil
    }
    runUnits = isCategory ? nil : key?.assumingMemoryBound(to: Int64.self)

    // the least node size whose totals fit the budget: a node of at least
    // `1 << j` points keeps at most min(codes, points) totals
    var bySize = [Int](repeating: 0, count: 33)
    for k in 0..<n {
      let s = shape(k)
      if Self.sharesChild(s, shape) { continue }
      let j = Int.bitWidth - 1 - s.points.count.leadingZeroBitCount
      bySize[Swift.max(0, j)] += Swift.min(codeCount, s.points.count)
    }
    var j = 32, kept = 0
    let budget = Swift.max(1024, m * Self.entriesPer32Points(runs: runLength > 0) / 32)
    while j > 6 && kept + bySize[j - 1] <= budget {
      kept += bySize[j - 1]
      j -= 1
    }
    minimumPoints = 1 << j

    // totals by node, children first (they follow their parent)
    // a start and a count for every node while they are summed; kept for
    // the nodes that keep totals alone (``_NodeEntries``)
    let entryStart = UnsafeMutablePointer<Int32>.allocate(capacity: Swift.max(1, n))
    entryStart.initialize(repeating: 0, count: n)
    let entryCount = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(1, n))
    entryCount.initialize(repeating: 0, count: n)
    defer {
      entryStart.deallocate()
      entryCount.deallocate()
    }
    var list: [_CodeTotals] = [], listCodes: [UInt8] = []
    list.reserveCapacity(kept)
    listCodes.reserveCapacity(kept)
    let runs = !place.isEmpty
    // a code's totals as they are summed: its last id and its least rank
    var scratch = [(count: Int32, id: Int32, rank: Int32, sumLon: Int64, sumLat: Int64)](
      repeating: (0, 0, .max, 0, 0), count: codeCount)
    let limit = minimumPoints
    for k in stride(from: n - 1, through: 0, by: -1) {
      let s = shape(k)
      guard s.points.count >= limit, codeCount > 0 else { continue }
      if Self.sharesChild(s, shape), entryCount[s.children.lowerBound] > 0 {
        entryStart[k] = entryStart[s.children.lowerBound]
        entryCount[k] = entryCount[s.children.lowerBound]
        continue
      }
      for c in 0..<codeCount {
        scratch[c] = (0, 0, .max, 0, 0)
      }
      func scan(_ range: Range<Int>) {
        for p in range {
          let c = Int(treeCodes[p])
          if c == Int(Self.missing) { continue }
          let point = points[Int(ids[p])]
          scratch[c].count += 1
          scratch[c].id = ids[p]
          scratch[c].sumLon &+= Int64(MapCells.binUnits(longitude: point.x))
          scratch[c].sumLat &+= Int64(MapCells.units(point.y))
          if runs { scratch[c].rank = Swift.min(scratch[c].rank, place[p]) }
        }
      }
      if s.children.isEmpty {
        scan(s.points)
      } else {
        for child in s.children {
          let e = Int(entryCount[child])
          if e == 0 {
            scan(shape(child).points)
            continue
          }
          for j in Int(entryStart[child])..<(Int(entryStart[child]) + e) {
            let t = list[j], c = Int(listCodes[j])
            scratch[c].count += t.count
            scratch[c].sumLon &+= t.sumLon
            scratch[c].sumLat &+= t.sumLat
            if runs { scratch[c].rank = Swift.min(scratch[c].rank, t.link) } else { scratch[c].id = t.link }
          }
        }
      }
      entryStart[k] = Int32(list.count)
      for c in 0..<codeCount where scratch[c].count > 0 {
        let t = scratch[c]
        list.append(_CodeTotals(sumLon: t.sumLon, sumLat: t.sumLat, count: t.count, link: runs ? t.rank : t.id))
        listCodes.append(UInt8(c))
      }
      entryCount[k] = UInt8(list.count - Int(entryStart[k]))
    }
    entryTotal = list.count
    nodeEntries = _NodeEntries(starts: entryStart, counts: entryCount, nodeCount: n)
    let entryCodes = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(1, list.count))
    listCodes.withUnsafeBufferPointer { entryCodes.initialize(from: $0.baseAddress!, count: $0.count) }
    self.entryCodes = entryCodes
    entries = .allocate(capacity: Swift.max(1, list.count))
    list.withUnsafeBufferPointer { entries.initialize(from: $0.baseAddress!, count: $0.count) }
  }

  /// A node whose only child holds the same points: they share totals.
  static func sharesChild(_ s: CellNodeShape, _ shape: (Int) -> CellNodeShape) -> Bool {
    s.children.count == 1 && shape(s.children.lowerBound).points == s.points
  }

  /// Whether `units` (its storage) is the column summarised as a number,
  /// or `codes` as a category.
  func holds(units: [Int64]) -> Bool { !isCategory && key == _NodeSummaries.address(units) && count == units.count }
  func holds(codes: _CategoryCodes) -> Bool { isCategory && key == codes.address && count == codes.count }

  /// Fills ``sourceBuffer`` with the totals beside each ``_CodeTotals``
  /// of each column `query` aggregates, made on first use: whole where a
  /// sum of the column is asked, else its least or greatest alone, as
  /// asked. Returns how many columns.
  func aggregateSources(_ query: PropertyQuery, ids: [Int32], _ shape: (Int) -> CellNodeShape) -> Int {
    let width = query.sources.count
    if width > sourceCapacity {
      sourceBuffer.deallocate()
      sourceBuffer = .allocate(capacity: width)
      sourceCapacity = width
    }
    for (f, units) in query.sources.enumerated() {
      var sum = false, min = false, max = false
      for o in query.outputs where o.source == f {
        switch o.function {
        case .sum: sum = true
        case .min: min = true
        case .max: max = true
        }
      }
      let key = _NodeSummaries.address(units)
      var k = aggregates.firstIndex { $0.key == key && $0.column.count == units.count } ?? -1
      if k < 0 {
        aggregates.append((units, key, nil, nil, nil))
        k = aggregates.count - 1
      }
      var a = aggregates[k]
      let missing = a.full == nil && ((sum) || (min && a.least == nil) || (max && a.greatest == nil))
      if missing {
        let totals = entryTotals(units: units, ids: ids, shape)
        if sum {
          // the whole totals serve every function: the parts go
          a.least?.deallocate()
          a.greatest?.deallocate()
          (a.full, a.least, a.greatest) = (totals, nil, nil)
        } else {
          if min && a.least == nil {
            let least = UnsafeMutablePointer<Int64>.allocate(capacity: Swift.max(1, entryTotal))
            for j in 0..<Swift.max(1, entryTotal) { (least + j).initialize(to: totals[j].lone(\.least)) }
            a.least = least
          }
          if max && a.greatest == nil {
            let greatest = UnsafeMutablePointer<Int64>.allocate(capacity: Swift.max(1, entryTotal))
            for j in 0..<Swift.max(1, entryTotal) { (greatest + j).initialize(to: totals[j].lone(\.greatest)) }
            a.greatest = greatest
          }
          totals.deallocate()
        }
        aggregates[k] = a
      }
      (sourceBuffer + f).initialize(to: _EntryAggregates(
        full: a.full.map { UnsafePointer($0) }, least: min ? a.least.map { UnsafePointer($0) } : nil,
        greatest: max ? a.greatest.map { UnsafePointer($0) } : nil))
    }
    return width
  }

  /// The ``_FieldTotals`` of `units` beside each ``_CodeTotals``: the
  /// node's points of that code.
  private func entryTotals(
    units: [Int64], ids: [Int32], _ shape: (Int) -> CellNodeShape
  ) -> UnsafeMutablePointer<_FieldTotals> {
    let totals = UnsafeMutablePointer<_FieldTotals>.allocate(capacity: Swift.max(1, entryTotal))
    totals.initialize(repeating: _FieldTotals(), count: Swift.max(1, entryTotal))
    var scratch = [_FieldTotals](repeating: _FieldTotals(), count: codeCount)
    for k in stride(from: nodeCount - 1, through: 0, by: -1) {
      let (start, e) = nodeEntries[k]
      guard e > 0 else { continue }
      let s = shape(k)
      if s.children.count == 1, nodeEntries[s.children.lowerBound] == (start, e) {
        continue  // shared with its child
      }
      for c in 0..<codeCount { scratch[c] = _FieldTotals() }
      func scan(_ range: Range<Int>) {
        for p in range {
          let c = Int(treeCodes[p])
          let u = units[Int(ids[p])]
          if c != Int(Self.missing) && u != .min { scratch[c].add(u) }
        }
      }
      if s.children.isEmpty {
        scan(s.points)
      } else {
        for child in s.children {
          let (cs, ce) = nodeEntries[child]
          if ce == 0 {
            scan(shape(child).points)
            continue
          }
          for j in cs..<(cs + ce) { scratch[Int(entryCodes[j])].merge(totals[j]) }
        }
      }
      for j in start..<(start + e) { totals[j] = scratch[Int(entryCodes[j])] }
    }
    return totals
  }

  /// Sets the query's state, which the walk's ``_ValueFilter`` points to.
  func setQuery(_ query: _ValueQueryState) {
    if holdsState { state.pointee = query } else { state.initialize(to: query) }
    holdsState = true
  }

  /// Bytes held: codes by position, totals by node, runs, aggregates (the
  /// column the runs read is the caller's, not counted here).
  var bytes: Int {
    let aggregated = aggregates.reduce(0) {
      $0 + ($1.full == nil ? 0 : MemoryLayout<_FieldTotals>.stride) + ($1.least == nil ? 0 : 8)
        + ($1.greatest == nil ? 0 : 8)
    }
    return positions + nodeEntries.bytes + entryTotal * (MemoryLayout<_CodeTotals>.stride + 1)
      + runLength * MemoryLayout<Int32>.stride + entryTotal * aggregated + 512
  }

  deinit {
    treeCodes.deallocate()
    nodeEntries.deallocate()
    entries.deallocate()
    entryCodes.deallocate()
    runPositions?.deallocate()
    passTable.deallocate()
    chosen.deallocate()
    for a in aggregates {
      a.full?.deallocate()
      a.least?.deallocate()
      a.greatest?.deallocate()
    }
    sourceBuffer.deallocate()
    if holdsState { state.deinitialize(count: 1) }
    state.deallocate()
  }
}
