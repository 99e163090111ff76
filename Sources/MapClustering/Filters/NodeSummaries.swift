import SpatialIndexes

/// What a cell tree's node holds of the property columns a query reads,
/// for ``_SummaryFilter`` to judge and add whole nodes (see
/// ``CellNodeFilter``). Built lazily, a column at a time, the first time a
/// query the sample of leaves accepts reads the column
/// (``mixedShare(_:_:)``); kept while the clusterer keeps the same tree
/// (the same ``CellSummingIndex/nodeOrderIDs`` storage) and the same
/// column (the same array storage, which the summary retains, so no other
/// array can take its address). A new filter reuses them: it costs only
/// the query.
///
/// By node, for a category column whose codes are all below 63, the mask
/// of the codes its points have (bit 63: a missing value); for one with
/// more codes, the code all its points share, if they share one (a
/// country: the nodes inside it); for a number column, the least and
/// greatest of its points' values, or once a sum of it is asked their
/// ``_FieldTotals`` (exact 128-bit sum, least, greatest), and a bit for a
/// missing value. 8 bytes a node for a category (4 for one of many codes),
/// 16 and a bit for a number a clause tests, 8 and a bit for one whose
/// least or greatest alone an aggregate asks (32 and a bit with its sums).
@usableFromInline
final class _NodeSummaries: @unchecked Sendable {
  /// The tree's ids: the identity of its nodes.
  let ids: [Int32]
  let nodeCount: Int
  /// The columns summarised so far.
  var columns: [_ColumnSummary] = []
  /// The last filter's node tests and aggregate sources, kept so that a
  /// new filter allocates nothing once they have grown.
  var tests: [_NodeTest] = []
  var sources: [_EntryAggregates] = []

  /// Leaves spread evenly over the tree (up to 256), and their points:
  /// the sample ``mixedShare(_:)`` judges a filter on.
  let sample: [(leaf: Int, points: Int)]

  init(ids: [Int32], nodeCount: Int, _ shape: (Int) -> CellNodeShape) {
    self.ids = ids
    self.nodeCount = nodeCount
    // the first leaf at or after each of 256 evenly spaced nodes
    var sample: [(leaf: Int, points: Int)] = []
    var k = 0
    for j in 0..<Swift.min(256, nodeCount) {
      k = Swift.max(k, j * nodeCount / Swift.min(256, nodeCount))
      while k < nodeCount && !shape(k).children.isEmpty { k += 1 }
      guard k < nodeCount else { break }
      sample.append((k, shape(k).points.count))
      k += 1
    }
    self.sample = sample
  }

  /// The share of the sampled leaves' points that lie in leaves `query`'s
  /// filter finds mixed: about the share of the points in view the walk
  /// would test one by one, each a read of the columns at random.
  ///
  /// Judged on the columns' summaries of the sampled leaves alone
  /// (``sampleColumns``), which are those the summaries by node give the
  /// same leaves: a filter the sample refuses makes no summary by node,
  /// so properties that ignore the map cost none.
  func mixedShare(_ query: PropertyQuery, _ shape: (Int) -> CellNodeShape) -> (mixed: Int, sampled: Int) {
    if sampleColumns.count > Self.columnLimit { sampleColumns.removeAll() }
    sampleTests.removeAll(keepingCapacity: true)
    appendTests(query, into: &sampleTests) { codes in
      let key = codes.address
      if let s = sampleColumns.first(where: { $0.key == key && $0.count == codes.count && $0.isCategory }) { return s }
      let s = _ColumnSummary(codes: codes, ids: ids, leaves: sample.map { shape($0.leaf).points })
      sampleColumns.append(s)
      return s
    } number: { units in
      let key = Self.address(units)
      if let s = sampleColumns.first(where: { $0.key == key && $0.count == units.count && !$0.isCategory }) { return s }
      let s = _ColumnSummary(units: units, ids: ids, leaves: sample.map { shape($0.leaf).points })
      sampleColumns.append(s)
      return s
    }
    let filter = _SummaryFilter(
      query: query, tests: sampleTests, sources: [], totals: UnsafeMutableBufferPointer(start: nil, count: 0))
    var mixed = 0, sampled = 0
    for (i, (_, points)) in sample.enumerated() {
      sampled += points
      if filter.verdict(node: i) == .some { mixed += points }
    }
    return (mixed, sampled)
  }

  /// The columns summarised over the sampled leaves alone, leaf `i` of
  /// ``sample`` at index `i` (``mixedShare(_:_:)``), and the last query's
  /// tests on them.
  var sampleColumns: [_ColumnSummary] = []
  var sampleTests: [_NodeTest] = []

  /// Whether `ids` is the array the summaries were made for (its storage).
  func holds(_ ids: [Int32]) -> Bool {
    ids.count == self.ids.count && Self.address(ids) == Self.address(self.ids)
  }

  static func address<T>(_ a: [T]) -> UnsafeRawPointer? {
    a.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  /// Columns kept between calls before they are all let go.
  static var columnLimit: Int { 32 }

  /// Bytes held: the columns' summaries.
  var bytes: Int {
    columns.reduce(0) { $0 + $1.bytes } + values.reduce(0) { $0 + $1.bytes } + sampleColumns.reduce(0) { $0 + $1.bytes }
  }

  /// Columns summarised by value (``_ValueSummary``), for filters of one
  /// clause.
  var values: [_ValueSummary] = []
  /// Columns whose codes are too many to summarise by value.
  var refused: [UnsafeRawPointer?] = []

  /// The walk's filter for `query` from totals by value, when its filter
  /// is one clause on a column of at most ``_ValueSummary/maximumCodes``
  /// codes (or a number); nil otherwise. Made on first use of the column,
  /// and of each aggregated column beside it.
  func valueFilter(
    _ query: PropertyQuery, totals: UnsafeMutableBufferPointer<_FieldTotals>, points: [Point],
    _ shape: (Int) -> CellNodeShape
  ) -> _ValueFilter? {
    guard query.tests.count == 1, let test = query.tests.first else { return nil }
    if values.count > Self.columnLimit { values.removeAll() }
    let summary: _ValueSummary
    switch test {
    case .code(let codes, _), .codes(let codes, _):
      if let s = values.first(where: { $0.holds(codes: codes) }) {
        summary = s
      } else {
        let key = codes.address
        guard !refused.contains(key) else { return nil }
        guard let s = _ValueSummary(codes: codes, ids: ids, points: points, nodeCount: nodeCount, shape) else {
          refused.append(key)
          return nil
        }
        values.append(s)
        summary = s
      }
    case .range(let units, _, _), .anyOf(let units, _):
      if let s = values.first(where: { $0.holds(units: units) }) {
        summary = s
      } else {
        let s = _ValueSummary(units: units, ids: ids, points: points, nodeCount: nodeCount, shape)
        values.append(s)
        summary = s
      }
    }
    let width = summary.aggregateSources(query, ids: ids, shape)
    return _ValueFilter(summary, test: test, query: query, sources: width, totals: totals)
  }

  /// The summary of a category column, made on first use.
  func summary(codes: _CategoryCodes, _ shape: (Int) -> CellNodeShape) -> _ColumnSummary {
    let key = codes.address
    if let s = columns.first(where: { $0.key == key && $0.count == codes.count && $0.isCategory }) { return s }
    let s = _ColumnSummary(codes: codes, ids: ids, nodeCount: nodeCount, shape)
    columns.append(s)
    return s
  }

  /// The summary of a number column, made on first use, holding at least
  /// the least and the greatest by node asked.
  func summary(
    units: [Int64], least: Bool, greatest: Bool, _ shape: (Int) -> CellNodeShape
  ) -> _ColumnSummary {
    let key = Self.address(units)
    if let s = columns.first(where: { $0.key == key && $0.count == units.count && !$0.isCategory }) {
      s.keep(least: least, greatest: greatest, ids: ids, shape)
      return s
    }
    let s = _ColumnSummary(units: units, ids: ids, nodeCount: nodeCount, least: least, greatest: greatest, shape)
    columns.append(s)
    return s
  }

  /// The walk's filter for `query`, whose aggregates go to `totals`.
  func filter(
    _ query: PropertyQuery, totals: UnsafeMutableBufferPointer<_FieldTotals>, _ shape: (Int) -> CellNodeShape
  ) -> _SummaryFilter {
    tests.removeAll(keepingCapacity: true)
    sources.removeAll(keepingCapacity: true)
    // columns come and go with the caller's properties: past a bound,
    // start over (none is in use between calls), so old ones are not kept
    if columns.count > Self.columnLimit { columns.removeAll() }
    // the sums asked first: they replace a column's least and greatest,
    // which the tests then read from them
    for (f, units) in query.sources.enumerated() where query.outputs.contains(where: { $0.source == f && $0.function == .sum }) {
      summary(units: units, least: false, greatest: false, shape).makeSums(ids: ids, shape)
    }
    appendTests(query, into: &tests) { summary(codes: $0, shape) } number: {
      summary(units: $0, least: true, greatest: true, shape)
    }
    for (f, units) in query.sources.enumerated() {
      let asked = query.outputs.filter { $0.source == f }.map(\.function)
      sources.append(summary(units: units, least: asked.contains(.min), greatest: asked.contains(.max), shape).aggregates)
    }
    return _SummaryFilter(query: query, tests: tests, sources: sources, totals: totals)
  }

  /// Appends each clause of `query` as a ``_NodeTest`` on the summaries
  /// `category` and `number` give its column.
  func appendTests(
    _ query: PropertyQuery, into tests: inout [_NodeTest], category: (_CategoryCodes) -> _ColumnSummary,
    number: ([Int64]) -> _ColumnSummary
  ) {
    for t in query.tests {
      switch t {
      case .code(let codes, let code):
        let s = category(codes)
        if let masks = s.masks {
          tests.append(.mask(masks, bits: code < 63 ? 1 << UInt64(code) : 0))
        } else {
          tests.append(.code(s.shared!, code: code, bits: []))
        }
      case .codes(let codes, let bits):
        let s = category(codes)
        if let masks = s.masks {
          tests.append(.mask(masks, bits: bits[0] & ~(1 << 63)))
        } else {
          tests.append(.code(s.shared!, code: .max, bits: bits))
        }
      case .range(let units, let lo, let hi):
        let s = number(units)
        tests.append(.range(s.extremes, s.missing!, lo: lo, hi: hi))
      case .anyOf(let units, let values):
        let s = number(units)
        tests.append(.anyOf(s.extremes, s.missing!, values: values))
      }
    }
  }
}

/// One column's summaries by node (see ``_NodeSummaries``).
final class _ColumnSummary {
  /// The column, retained (its storage is its identity); `Any`, since
  /// with Foundation loaded an array cast to `AnyObject` is bridged, a
  /// copy of every element.
  let column: Any
  let key: UnsafeRawPointer?
  let count: Int
  let isCategory: Bool
  let nodeCount: Int
  /// A category's masks by node; nil when a code is 63 or more.
  let masks: UnsafeMutablePointer<UInt64>?
  /// Otherwise, the code all the node's points share, or
  /// ``_ColumnSummary/several`` (a missing value is `UInt32.max`, a code).
  let shared: UnsafeMutablePointer<UInt32>?
  static var several: UInt32 { .max - 1 }
  /// A number's least and greatest value by node (8 bytes a node each),
  /// each kept once asked: both for a clause's tests, one for a `min` or
  /// `max` aggregate alone; or, once a sum of it is asked, its whole
  /// totals by node (32), which then serve all of them; and its
  /// missing-value bits.
  private(set) var least: UnsafeMutablePointer<Int64>?
  private(set) var greatest: UnsafeMutablePointer<Int64>?
  private(set) var totals: UnsafeMutablePointer<_FieldTotals>?
  let missing: UnsafeMutablePointer<UInt64>?

  /// Summarises `codes` over the nodes, leaves first: a leaf from its
  /// points, an inner node from its children (which follow it).
  init(codes: _CategoryCodes, ids: [Int32], nodeCount n: Int, _ shape: (Int) -> CellNodeShape) {
    column = codes.storage
    key = codes.address
    count = codes.count
    isCategory = true
    nodeCount = n
    missing = nil
    let masks = UnsafeMutablePointer<UInt64>.allocate(capacity: n)
    defer { masks.deallocate() }
    var many = false
    for k in stride(from: n - 1, through: 0, by: -1) where !many {
      let s = shape(k)
      var m: UInt64 = 0
      if s.children.isEmpty || s.children.lowerBound <= k {
        for p in s.points {
          let c = codes.code(at: Int(ids[p]))
          if c == .max {
            m |= 1 << 63
          } else if c >= 63 {
            many = true
            break
          } else {
            m |= 1 << UInt64(c)
          }
        }
      } else {
        for c in s.children { m |= masks[c] }
      }
      masks[k] = m
    }
    if !many {
      self.masks = .allocate(capacity: n)
      self.masks!.update(from: masks, count: n)
      shared = nil
      return
    }
    self.masks = nil
    // many codes: the one each node's points share, if any
    let shared = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
    for k in stride(from: n - 1, through: 0, by: -1) {
      let s = shape(k)
      var c = Self.several
      if s.children.isEmpty || s.children.lowerBound <= k {
        if let p = s.points.first {
          c = codes.code(at: Int(ids[p]))
          for p in s.points where codes.code(at: Int(ids[p])) != c {
            c = Self.several
            break
          }
        }
      } else {
        c = shared[s.children.lowerBound]
        for child in s.children where shared[child] != c { c = Self.several }
      }
      shared[k] = c
    }
    self.shared = shared
  }

  /// Summarises `units` over the nodes: their least and greatest as asked,
  /// and their missing-value bits (the others are made when first asked,
  /// ``keep(least:greatest:ids:_:)``, the sums by ``makeSums(ids:_:)``).
  init(
    units: [Int64], ids: [Int32], nodeCount n: Int, least: Bool, greatest: Bool,
    _ shape: (Int) -> CellNodeShape
  ) {
    column = units
    key = _NodeSummaries.address(units)
    count = units.count
    isCategory = false
    nodeCount = n
    masks = nil
    shared = nil
    let words = (n + 63) / 64
    let missing = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
    missing.initialize(repeating: 0, count: words)
    let totals = Self.totals(units, ids: ids, nodeCount: n, missing: missing, shape)
    self.least = least ? Self.field(\.least, of: totals, n) : nil
    self.greatest = greatest ? Self.field(\.greatest, of: totals, n) : nil
    totals.deallocate()
    self.totals = nil
    self.missing = missing
  }

  /// Makes the least or the greatest by node asked and not kept (nothing
  /// once the whole totals are kept: they hold both).
  func keep(least: Bool, greatest: Bool, ids: [Int32], _ shape: (Int) -> CellNodeShape) {
    guard (least && self.least == nil) || (greatest && self.greatest == nil), totals == nil,
      let units = column as? [Int64], let missing
    else { return }
    let totals = Self.totals(units, ids: ids, nodeCount: nodeCount, missing: missing, shape)
    if least && self.least == nil { self.least = Self.field(\.least, of: totals, nodeCount) }
    if greatest && self.greatest == nil { self.greatest = Self.field(\.greatest, of: totals, nodeCount) }
    totals.deallocate()
  }

  /// One field of `n` totals, by node, as kept alone
  /// (``_FieldTotals/lone(_:)``).
  private static func field(
    _ field: KeyPath<_FieldTotals, Int64>, of totals: UnsafeMutablePointer<_FieldTotals>, _ n: Int
  ) -> UnsafeMutablePointer<Int64> {
    let out = UnsafeMutablePointer<Int64>.allocate(capacity: Swift.max(1, n))
    for k in 0..<n { (out + k).initialize(to: totals[k].lone(field)) }
    return out
  }

  /// Makes the whole totals by node of a number column, for a sum: they
  /// replace the least and greatest kept alone.
  func makeSums(ids: [Int32], _ shape: (Int) -> CellNodeShape) {
    guard !isCategory, totals == nil, let units = column as? [Int64], let missing else { return }
    totals = Self.totals(units, ids: ids, nodeCount: nodeCount, missing: missing, shape)
    least?.deallocate()
    greatest?.deallocate()
    least = nil
    greatest = nil
  }

  /// The least and greatest by node, read from the whole totals when
  /// they are kept (every fourth word from each field).
  var extremes: _NodeExtremes {
    if let totals {
      let raw = UnsafeRawPointer(totals)
      let stride = MemoryLayout<_FieldTotals>.stride / 8
      return _NodeExtremes(
        least: (raw + MemoryLayout<_FieldTotals>.offset(of: \.least)!).assumingMemoryBound(to: Int64.self),
        greatest: (raw + MemoryLayout<_FieldTotals>.offset(of: \.greatest)!).assumingMemoryBound(to: Int64.self),
        stride: stride)
    }
    return _NodeExtremes(least: UnsafePointer(least!), greatest: UnsafePointer(greatest!), stride: 1)
  }

  /// The column's figures by node for the aggregates.
  var aggregates: _EntryAggregates {
    _EntryAggregates(
      full: totals.map { UnsafePointer($0) }, least: least.map { UnsafePointer($0) },
      greatest: greatest.map { UnsafePointer($0) })
  }

  /// The totals of `units` by node, leaves first (a leaf from its points,
  /// an inner node from its children), setting a node's bit of `missing`
  /// when one of its points has no value.
  static func totals(
    _ units: [Int64], ids: [Int32], nodeCount n: Int, missing: UnsafeMutablePointer<UInt64>,
    _ shape: (Int) -> CellNodeShape
  ) -> UnsafeMutablePointer<_FieldTotals> {
    let totals = UnsafeMutablePointer<_FieldTotals>.allocate(capacity: Swift.max(1, n))
    for k in stride(from: n - 1, through: 0, by: -1) {
      let s = shape(k)
      var t = _FieldTotals(), gap = false
      if s.children.isEmpty || s.children.lowerBound <= k {
        for p in s.points {
          let u = units[Int(ids[p])]
          if u == .min { gap = true } else { t.add(u) }
        }
      } else {
        for c in s.children {
          t.merge(totals[c])
          gap = gap || missing[c >> 6] & (1 << UInt64(c & 63)) != 0
        }
      }
      (totals + k).initialize(to: t)
      if gap { missing[k >> 6] |= 1 << UInt64(k & 63) }
    }
    return totals
  }

  /// Summarises `codes` over `leaves` alone, leaf `i` at index `i`, each
  /// from its points as the summary by node does: masks unless a point of
  /// the tree (`ids`) has a code of 63 or more.
  init(codes: _CategoryCodes, ids: [Int32], leaves: [Range<Int>]) {
    column = codes.storage
    key = codes.address
    count = codes.count
    isCategory = true
    nodeCount = leaves.count
    missing = nil
    let n = Swift.max(1, leaves.count)
    let many = ids.contains { codes.code(at: Int($0)) != .max && codes.code(at: Int($0)) >= 63 }
    if !many {
      let masks = UnsafeMutablePointer<UInt64>.allocate(capacity: n)
      masks.initialize(repeating: 0, count: n)
      for (i, points) in leaves.enumerated() {
        var m: UInt64 = 0
        for p in points {
          let c = codes.code(at: Int(ids[p]))
          m |= c == .max ? 1 << 63 : 1 << UInt64(c)
        }
        masks[i] = m
      }
      self.masks = masks
      shared = nil
      return
    }
    masks = nil
    let shared = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
    shared.initialize(repeating: Self.several, count: n)
    for (i, points) in leaves.enumerated() {
      guard let first = points.first else { continue }
      var c = codes.code(at: Int(ids[first]))
      for p in points where codes.code(at: Int(ids[p])) != c {
        c = Self.several
        break
      }
      shared[i] = c
    }
    self.shared = shared
  }

  /// Summarises `units` over `leaves` alone, leaf `i` at index `i`.
  init(units: [Int64], ids: [Int32], leaves: [Range<Int>]) {
    column = units
    key = _NodeSummaries.address(units)
    count = units.count
    isCategory = false
    nodeCount = leaves.count
    masks = nil
    shared = nil
    let n = Swift.max(1, leaves.count)
    let least = UnsafeMutablePointer<Int64>.allocate(capacity: n)
    least.initialize(repeating: .max, count: n)
    let greatest = UnsafeMutablePointer<Int64>.allocate(capacity: n)
    greatest.initialize(repeating: .min, count: n)
    let words = (n + 63) / 64
    let missing = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
    missing.initialize(repeating: 0, count: words)
    for (i, points) in leaves.enumerated() {
      for p in points {
        let u = units[Int(ids[p])]
        if u == .min {
          missing[i >> 6] |= 1 << UInt64(i & 63)
        } else {
          least[i] = Swift.min(least[i], u)
          greatest[i] = Swift.max(greatest[i], u)
        }
      }
    }
    self.least = least
    self.greatest = greatest
    totals = nil
    self.missing = missing
  }

  var bytes: Int {
    (masks == nil ? 0 : nodeCount * 8) + (shared == nil ? 0 : nodeCount * 4)
      + (totals == nil ? 0 : nodeCount * MemoryLayout<_FieldTotals>.stride)
      + (least == nil ? 0 : nodeCount * 8) + (greatest == nil ? 0 : nodeCount * 8)
      + (missing == nil ? 0 : (nodeCount + 63) / 64 * 8)
  }

  deinit {
    masks?.deallocate()
    shared?.deallocate()
    totals?.deallocate()
    least?.deallocate()
    greatest?.deallocate()
    missing?.deallocate()
  }
}

/// A number column's least and greatest by node: two arrays (`stride`
/// 1), or the fields of its whole totals (`stride` 4).
@frozen @usableFromInline
struct _NodeExtremes {
  @usableFromInline let least: UnsafePointer<Int64>
  @usableFromInline let greatest: UnsafePointer<Int64>
  @usableFromInline let stride: Int

  @inlinable init(least: UnsafePointer<Int64>, greatest: UnsafePointer<Int64>, stride: Int) {
    self.least = least
    self.greatest = greatest
    self.stride = stride
  }

  @inlinable @inline(__always)
  subscript(k: Int) -> (least: Int64, greatest: Int64) {
    (least[k &* stride], greatest[k &* stride])
  }
}

/// One clause judged on a node from its column's summaries.
@usableFromInline
enum _NodeTest {
  /// A category: the node's mask against the codes that pass.
  case mask(UnsafeMutablePointer<UInt64>, bits: UInt64)
  /// A number in `lo...hi`.
  case range(_NodeExtremes, UnsafeMutablePointer<UInt64>, lo: Int64, hi: Int64)
  /// A number among `values` (sorted).
  case anyOf(_NodeExtremes, UnsafeMutablePointer<UInt64>, values: [Int64])
  /// A category of many codes: the code the node's points share against
  /// `code` (the clauses leave one) or `bits` (they leave several).
  case code(UnsafeMutablePointer<UInt32>, code: UInt32, bits: [UInt64])

  @inlinable
  func verdict(_ k: Int) -> CellNodeVerdict {
    switch self {
    case .mask(let masks, let bits):
      let m = masks[k]
      if m & bits == 0 { return .none }
      return m & ~bits == 0 ? .all : .some
    case .range(let extremes, let missing, let lo, let hi):
      let t = extremes[k]
      // no value (greatest is Int64.min), or every value out of range
      if t.greatest < lo || t.least > hi { return .none }
      if missing[k &>> 6] & (1 &<< UInt64(k & 63)) != 0 { return .some }
      return lo <= t.least && t.greatest <= hi ? .all : .some
    case .anyOf(let extremes, let missing, let values):
      let t = extremes[k]
      // the first value at least the node's least
      var a = 0, b = values.count
      while a < b {
        let mid = (a &+ b) &>> 1
        if values[mid] < t.least { a = mid &+ 1 } else { b = mid }
      }
      if a == values.count || values[a] > t.greatest { return .none }
      if missing[k &>> 6] & (1 &<< UInt64(k & 63)) != 0 { return .some }
      return t.least == t.greatest ? .all : .some
    case .code(let shared, let code, let bits):
      let c = shared[k]
      if c == .max &- 1 { return .some }  // several (``_ColumnSummary/several``)
      if c == .max { return .none }  // missing
      if bits.isEmpty { return c == code ? .all : .none }
      let word = Int(c &>> 6)
      return word < bits.count && bits[word] & (1 &<< UInt64(c & 63)) != 0 ? .all : .none
    }
  }
}

/// A ``PropertyQuery`` as the cell tree's walk applies it
/// (``CellSummingIndex/sumCells(in:window:into:filter:counters:)``): a node
/// is judged by its summaries, clause by clause (none passes as soon as
/// one clause fails it whole; all pass when every clause passes it
/// whole); a point by its values; a whole node's aggregates come from its
/// totals, a point's from its values.
@usableFromInline
struct _SummaryFilter: CellNodeFilter {
  @usableFromInline let query: PropertyQuery
  @usableFromInline let tests: [_NodeTest]
  /// Each aggregated column's figures by node, by source.
  @usableFromInline let sources: [_EntryAggregates]
  /// The cells' totals, `sources.count` a cell.
  @usableFromInline let totals: UnsafeMutableBufferPointer<_FieldTotals>

  init(
    query: PropertyQuery, tests: [_NodeTest], sources: [_EntryAggregates],
    totals: UnsafeMutableBufferPointer<_FieldTotals>
  ) {
    self.query = query
    self.tests = tests
    self.sources = sources
    self.totals = totals
  }

  @inlinable static var filters: Bool { true }
  @inlinable var addsPoints: Bool { !sources.isEmpty }
  @inlinable var scansMixedNodes: Bool { false }

  @inlinable
  func addMixed<C: QueryCounters>(
    node: Int, slot: Int, into cell: UnsafeMutablePointer<CellTotals>, coords: UnsafePointer<Double>,
    ids: UnsafePointer<Int32>, counters: inout C
  ) -> Bool { false }

  @inlinable
  func verdict(node: Int) -> CellNodeVerdict {
    var all = true
    for t in tests {
      switch t.verdict(node) {
      case .none: return .none
      case .some: all = false
      case .all: break
      }
    }
    return all ? .all : .some
  }

  @usableFromInline
  func passes(position: Int, id: Int32) -> Bool {
    for t in query.tests where !t.passes(Int(id)) { return false }
    return true
  }

  @inlinable
  func addNode(_ node: Int, slot: Int) {
    let width = sources.count
    for f in 0..<width {
      sources[f].merge(node, into: &totals[slot &* width &+ f])
    }
  }

  @usableFromInline
  func addPoint(id: Int32, slot: Int) {
    _addAggregates(of: id, query, width: sources.count, into: totals, slot: slot)
  }
}
