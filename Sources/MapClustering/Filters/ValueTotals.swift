import SpatialIndexes

/// The totals of one node's points that share one value (a code) of one
/// column: what a marker needs of them (their count, coordinate sums and,
/// for a lone point, its id) and where they start in the column's run of
/// that code (``_ValueSummary/runPositions``). 32 bytes.
@frozen @usableFromInline
struct _CodeTotals {
  @usableFromInline var sumLon: Int64
  @usableFromInline var sumLat: Int64
  @usableFromInline var count: Int32
  /// One of the points' ids: the marker's when it is the only one.
  @usableFromInline var id: Int32
  /// The first of the points in the run of their code (a number's bucket);
  /// the run holds them in tree order, so the node's are the next `count`.
  @usableFromInline var rank: Int32
  @usableFromInline var code: UInt32
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
///   (chosen so the totals stay within about 8 bytes a point, 6 beside
///   runs), a
///   ``_CodeTotals`` for each code present, sorted by code. A node with
///   one child of the same points shares its child's.
/// - **A number's runs**: the tree positions of each bucket's points, in
///   tree order, and their values. A bound that cuts a bucket is decided on
///   that bucket's points of the node alone, read from its run. A number
///   whose buckets each hold one value has none: no bound cuts them.
/// - **Aggregates** (``aggregateTotals(units:)``): for a number column
///   asked, its ``_FieldTotals`` beside each ``_CodeTotals``, made on first
///   use.
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
  let entryStart: UnsafeMutablePointer<Int32>
  let entryCount: UnsafeMutablePointer<UInt8>
  let entries: UnsafeMutablePointer<_CodeTotals>
  let entryTotal: Int
  /// A number's runs, bucket after bucket: tree positions and values.
  let runPositions: UnsafeMutablePointer<Int32>?
  let runValues: UnsafeMutablePointer<Int64>?
  let runLength: Int
  /// Aggregated columns' totals beside the entries, by column.
  var aggregates: [(column: [Int64], key: UnsafeRawPointer?, totals: UnsafeMutablePointer<_FieldTotals>)] = []
  /// One query's verdict by code (0 fails, 1 passes, 2 cut: test each
  /// value) and the codes that are not 0: rewritten by each query, so a
  /// new filter allocates nothing.
  let passTable: UnsafeMutablePointer<UInt8>
  let chosen: UnsafeMutablePointer<UInt8>

  /// Bytes of totals by node kept per point, at most: picks
  /// ``minimumPoints``. A number with runs (12 bytes a point) keeps 6, so
  /// everything a filter on it needs stays within 64 bytes a point with the
  /// tree and the column.
  static func budgetPerPoint(runs: Bool) -> Int { runs ? 6 : 8 }

  /// Summarises a category column; nil past ``maximumCodes`` codes.
  convenience init?(
    codes: [UInt32], ids: [Int32], points: [Point], nodeCount: Int, _ shape: (Int) -> CellNodeShape
  ) {
    var top = -1
    for c in codes where c != .max { top = Swift.max(top, Int(c)) }
    guard top < Self.maximumCodes else { return nil }
    self.init(
      column: codes, key: _NodeSummaries.address(codes), count: codes.count, isCategory: true,
      codeCount: top + 1, lows: [], highs: [], ids: ids, points: points, nodeCount: nodeCount, shape
    ) { id in
      let c = codes[id]
      return c == .max ? Self.missing : UInt8(c)
    } value: { _ in 0 }
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
    } value: { units[$0] }
  }

  private init(
    column: Any, key: UnsafeRawPointer?, count: Int, isCategory: Bool, codeCount: Int, lows: [Int64],
    highs: [Int64], ids: [Int32], points: [Point], nodeCount n: Int, _ shape: (Int) -> CellNodeShape,
    code: (Int) -> UInt8, value: (Int) -> Int64
  ) {
    self.column = column
    self.key = key
    self.count = count
    self.isCategory = isCategory
    self.codeCount = codeCount
    self.lows = lows
    self.highs = highs
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
      let values = UnsafeMutablePointer<Int64>.allocate(capacity: Swift.max(1, runLength))
      place = [Int32](repeating: -1, count: m)
      for p in 0..<m where treeCodes[p] != Self.missing {
        let c = Int(treeCodes[p])
        run[starts[c]] = Int32(p)
        values[starts[c]] = value(Int(ids[p]))
        place[p] = Int32(starts[c])
        starts[c] += 1
      }
      runPositions = run
      runValues = values
    } else {
      runLength = 0
      runPositions = nil
      runValues = nil
    }

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
    let perPoint = Self.budgetPerPoint(runs: runLength > 0)
    let budget = Swift.max(1024, m * perPoint / MemoryLayout<_CodeTotals>.stride)
    while j > 6 && kept + bySize[j - 1] <= budget {
      kept += bySize[j - 1]
      j -= 1
    }
    minimumPoints = 1 << j

    // totals by node, children first (they follow their parent)
    entryStart = .allocate(capacity: Swift.max(1, n))
    entryStart.initialize(repeating: 0, count: n)
    entryCount = .allocate(capacity: Swift.max(1, n))
    entryCount.initialize(repeating: 0, count: n)
    var list: [_CodeTotals] = []
    list.reserveCapacity(kept)
    var scratch = [_CodeTotals](
      repeating: _CodeTotals(sumLon: 0, sumLat: 0, count: 0, id: 0, rank: .max, code: 0), count: codeCount)
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
        scratch[c] = _CodeTotals(sumLon: 0, sumLat: 0, count: 0, id: 0, rank: .max, code: UInt32(c))
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
          if !place.isEmpty { scratch[c].rank = Swift.min(scratch[c].rank, place[p]) }
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
          for t in list[Int(entryStart[child])..<(Int(entryStart[child]) + e)] {
            let c = Int(t.code)
            scratch[c].count += t.count
            scratch[c].id = t.id
            scratch[c].sumLon &+= t.sumLon
            scratch[c].sumLat &+= t.sumLat
            scratch[c].rank = Swift.min(scratch[c].rank, t.rank)
          }
        }
      }
      entryStart[k] = Int32(list.count)
      for c in 0..<codeCount where scratch[c].count > 0 {
        var t = scratch[c]
        if place.isEmpty { t.rank = 0 }
        list.append(t)
      }
      entryCount[k] = UInt8(list.count - Int(entryStart[k]))
    }
    entryTotal = list.count
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
  func holds(codes: [UInt32]) -> Bool { isCategory && key == _NodeSummaries.address(codes) && count == codes.count }

  /// The ``_FieldTotals`` of `units` beside each ``_CodeTotals``: the
  /// node's points of that code, made on first use.
  func aggregateTotals(
    units: [Int64], ids: [Int32], _ shape: (Int) -> CellNodeShape
  ) -> UnsafeMutablePointer<_FieldTotals> {
    let key = _NodeSummaries.address(units)
    if let a = aggregates.first(where: { $0.key == key }) { return a.totals }
    let totals = UnsafeMutablePointer<_FieldTotals>.allocate(capacity: Swift.max(1, entryTotal))
    totals.initialize(repeating: _FieldTotals(), count: Swift.max(1, entryTotal))
    var scratch = [_FieldTotals](repeating: _FieldTotals(), count: codeCount)
    for k in stride(from: nodeCount - 1, through: 0, by: -1) {
      let e = Int(entryCount[k])
      guard e > 0 else { continue }
      let s = shape(k)
      if s.children.count == 1, entryStart[s.children.lowerBound] == entryStart[k],
        entryCount[s.children.lowerBound] > 0 {
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
          let ce = Int(entryCount[child])
          if ce == 0 {
            scan(shape(child).points)
            continue
          }
          let cs = Int(entryStart[child])
          for j in cs..<(cs + ce) { scratch[Int(entries[j].code)].merge(totals[j]) }
        }
      }
      let start = Int(entryStart[k])
      for j in start..<(start + e) { totals[j] = scratch[Int(entries[j].code)] }
    }
    aggregates.append((units, key, totals))
    return totals
  }

  /// Bytes held: codes by position, totals by node, runs, aggregates.
  var bytes: Int {
    positions + nodeCount * 5 + entryTotal * MemoryLayout<_CodeTotals>.stride + runLength * 12
      + aggregates.count * entryTotal * MemoryLayout<_FieldTotals>.stride + 512
  }

  deinit {
    treeCodes.deallocate()
    entryStart.deallocate()
    entryCount.deallocate()
    entries.deallocate()
    runPositions?.deallocate()
    runValues?.deallocate()
    passTable.deallocate()
    chosen.deallocate()
    for a in aggregates { a.totals.deallocate() }
  }
}
