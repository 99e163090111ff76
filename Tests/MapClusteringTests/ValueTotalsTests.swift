import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport
@testable import MapClustering

/// Properties drawn independently of position, as the hotels generator
/// draws them: every cell-tree node mixes passing and failing points, so
/// only totals by value (``_ValueSummary``) answer whole nodes.
enum IndependentFixtures {
  static func points() -> [Point] {
    Fixtures.clustered(24_000, seed: 140) + Fixtures.uniform(4_000, seed: 141)
      + FilterFixtures.points("edges") + FilterFixtures.points("copies")
  }

  /// `chain`: 40 values with Zipf shares and missing ones; `code`: 300
  /// values (more than totals by value keep); `stars` 1–5; `price` in
  /// cents, with ties, zero, negatives and missing values.
  static func properties(_ n: Int, seed: UInt64) -> ReferenceProperties {
    var g = SplitMix64(seed: seed)
    let weights = (1...40).map { 1.0 / Double($0) }, total = weights.reduce(0, +)
    func chain() -> String? {
      if g.nextInt(below: 50) == 0 { return nil }
      var u = g.nextUnit() * total
      for (k, w) in weights.enumerated() {
        u -= w
        if u < 0 { return "chain-\(k + 1)" }
      }
      return "chain-40"
    }
    var p = ReferenceProperties()
    p.categories.append(("chain", (0..<n).map { _ in chain() }))
    p.categories.append(("code", (0..<n).map { _ in "c\(g.nextInt(below: 300))" }))
    p.numbers.append(("stars", (0..<n).map { _ in g.nextInt(below: 30) == 0 ? .min : Int64(1 + g.nextInt(below: 5)) }, 0))
    p.numbers.append(("price", (0..<n).map { _ in
      switch g.nextInt(below: 20) {
      case 0: .min
      case 1: 0
      case 2: -Int64(g.nextInt(below: 500))
      case 3: 9_999
      default: Int64(2_000 + g.nextInt(below: 30_000))
      }
    }, 2))
    return p
  }

  /// Filters of one clause, each on one column.
  static let filters = [
    "chain = chain-7", "chain in (chain-1, chain-2, chain-3, chain-4, chain-5, chain-6, chain-8, chain-9, chain-10, chain-40)",
    "chain in (chain-99)", "code = c17", "stars >= 4", "stars = 3", "stars <= 0", "price <= 100", "price >= 99.99",
    "price <= 150.5", "price >= -2", "price in (99.99, 0, 20.00, 51.3)", "price = 0",
  ]
}

/// Totals by value on the cell tree (``_ValueSummary``, ``_ValueFilter``).
@Suite struct ValueTotalsTests {
  /// On properties that ignore the map, a filter of one clause on the cell
  /// tree gives the linear scan's markers and aggregates, bit for bit, at
  /// every zoom, with copies, ±180°, the poles and cell edges.
  @Test func totalsByValueAnswerAsTheLinearScan() throws {
    try expectLinearScanAnswers(to: IndependentFixtures.filters, seed: 142)
  }

  /// On the same properties, filters of several clauses (whose nodes are
  /// mostly mixed: the masks' walk or the single pass answers them) give
  /// the linear scan's markers and aggregates, bit for bit.
  @Test func severalClausesAnswerAsTheLinearScan() throws {
    try expectLinearScanAnswers(to: [
      "chain in (chain-7) and stars >= 4", "stars >= 4 and price <= 150", "price <= 150 and stars >= 4",
      "chain in (chain-1, chain-2, chain-40) and price >= 99.99 and stars <= 3", "code = c17 and chain = chain-1",
      "price in (99.99, 0, 20.00) and chain = chain-2", "stars = 3 and price >= -2 and price <= 100",
      "chain = chain-7 and chain in (chain-7, chain-8) and stars >= 5", "stars >= 4 and chain in (chain-99)",
    ], seed: 148)
  }

  /// Clusters the fixtures' points on the cell tree with each filter and a
  /// random choice of aggregates, over random areas and four wide ones, and
  /// expects the linear scan's markers and aggregates, bit for bit.
  private func expectLinearScanAnswers(to filters: [String], seed: UInt64) throws {
    let points = IndependentFixtures.points()
    let reference = IndependentFixtures.properties(points.count, seed: seed)
    let properties = try reference.pointProperties()
    var clusterer = try Clusterer<CellTree>(points: points)
    let all: [ClusterAggregate] = [.sum("price"), .min("price"), .max("price"), .max("stars")]
    var g = SplitMix64(seed: seed + 1)
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    let areas = FilterFixtures.areas(over: points, seed: seed + 2)
      + (0...3).map { VisibleArea(zoom: $0, rect: Rect(minX: -150, minY: -60, maxX: 160, maxY: 70)) }
    for text in filters {
      let asked = all.filter { _ in g.nextUnit() < 0.5 }
      let query = try PropertyQuery(filter: PointFilter(parsing: text), aggregates: asked, properties: properties)
      let passing = points.indices.filter { query.matches(Int32($0)) }
      for area in areas {
        let (expected, expectedValues) = try ReferenceFiltering.answer(
          points, passing: passing, area: area, asked: asked, reference)
        try clusterer.cluster(area, strategy: .aggregate, query: query, into: &markers, aggregates: &values)
        #expect(markers == expected, "\(area) \(text)")
        #expect(values.map(\.description) == expectedValues, "\(area) \(text) \(asked)")
      }
    }
  }

  /// Every node's totals by value are those of its points: count, sums,
  /// an id of the code, and where its points of the code lie in the run.
  @Test(arguments: ["chain", "stars", "price"])
  func eachNodesTotalsAreThoseOfItsPoints(column: String) throws {
    let points = IndependentFixtures.points()
    let properties = try IndependentFixtures.properties(points.count, seed: 145).pointProperties()
    let tree = try CellTree(points: points)
    let ids = tree.nodeOrderIDs
    let summary: _ValueSummary
    switch try #require(properties.column(named: column)) {
    case .category(_, let codes, _):
      summary = try #require(
        _ValueSummary(codes: codes, ids: ids, points: points, nodeCount: tree.nodeCount, tree.nodeShape))
    case .number(_, let units, _):
      summary = _ValueSummary(units: units, ids: ids, points: points, nodeCount: tree.nodeCount, tree.nodeShape)
      // stars: a bucket a value, never cut, so no runs
      #expect(summary.codeCount <= 70 && (summary.runLength > 0) == (column == "price"))
    }
    var withTotals = 0, checked = 0
    for k in 0..<tree.nodeCount {
      let shape = tree.nodeShape(k)
      let (start, e) = summary.nodeEntries[k]
      if shape.points.count < summary.minimumPoints {
        #expect(e == 0, "node \(k) of \(shape.points.count) points keeps totals")
        continue
      }
      withTotals += 1
      var expected: [UInt32: (count: Int32, lon: Int64, lat: Int64, ids: Set<Int32>, at: [Int32])] = [:]
      for p in shape.points where summary.treeCodes[p] != _ValueSummary.missing {
        let c = UInt32(summary.treeCodes[p]), q = points[Int(ids[p])]
        var t = expected[c] ?? (0, 0, 0, [], [])
        t.count += 1
        t.lon += Int64(MapCells.binUnits(longitude: q.x))
        t.lat += Int64(MapCells.units(q.y))
        t.ids.insert(ids[p])
        t.at.append(Int32(p))
        expected[c] = t
      }
      #expect(e == expected.count, "node \(k)")
      for j in start..<(start + e) {
        let t = summary.entries[j], code = UInt32(summary.entryCodes[j])
        guard let x = expected[code] else {
          Issue.record("node \(k): code \(code) has no point")
          continue
        }
        #expect(t.count == x.count && t.sumLon == x.lon && t.sumLat == x.lat, "node \(k)")
        if let run = summary.runPositions {
          #expect(Array(UnsafeBufferPointer(start: run + Int(t.link), count: Int(t.count))) == x.at, "node \(k)")
        } else {
          #expect(x.ids.contains(t.link), "node \(k)")
        }
        checked += 1
      }
    }
    #expect(withTotals > 50 && checked > 200, "\(withTotals) nodes, \(checked) totals")
  }

  /// A number's run keeps each bucket's tree positions alone, in tree
  /// order (4 bytes a point), and reads the values from the column itself,
  /// whatever their span.
  @Test func aRunKeepsPositionsAndReadsValuesFromTheColumn() throws {
    let points = IndependentFixtures.points()
    let tree = try CellTree(points: points)
    let ids = tree.nodeOrderIDs
    var g = SplitMix64(seed: 151)
    let narrow = IndependentFixtures.properties(points.count, seed: 152).numbers[1].units
    let wide = points.indices.map { _ in
      [Int64.max, -Int64.max, .min, Int64(g.nextInt(below: 1 << 40)) << 22][g.nextInt(below: 4)]
    }
    for units in [narrow, wide] {
      let summary = _ValueSummary(units: units, ids: ids, points: points, nodeCount: tree.nodeCount, tree.nodeShape)
      let run = try #require(summary.runPositions)
      let read = try #require(summary.runUnits)
      #expect(read == units.withUnsafeBufferPointer { UnsafePointer($0.baseAddress) })
      #expect(summary.runLength == ids.indices.filter { units[Int(ids[$0])] != .min }.count)
      var r = 0
      for c in 0..<summary.codeCount {
        var previous = -1
        while r < summary.runLength && summary.treeCodes[Int(run[r])] == UInt8(c) {
          let p = Int(run[r]), u = read[Int(ids[p])]
          #expect(summary.lows[c] <= u && u <= summary.highs[c] && p > previous, "bucket \(c), run place \(r)")
          previous = p
          r += 1
        }
      }
      #expect(r == summary.runLength)
    }
  }

  /// An aggregate keeps beside the totals by value only what is asked of
  /// its column: the least alone for `min` (8 bytes an entry), and the
  /// whole totals (32) once a sum is asked, which then serve every
  /// function; the answers are the linear scan's throughout.
  @Test func anAggregateKeepsWhatIsAskedOfItsColumn() throws {
    let points = IndependentFixtures.points()
    let reference = IndependentFixtures.properties(points.count, seed: 153)
    let properties = try reference.pointProperties()
    var clusterer = try Clusterer<CellTree>(points: points)
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    let area = VisibleArea(zoom: 2, rect: Rect(minX: -150, minY: -60, maxX: 160, maxY: 70))
    var held: [Int] = []
    for asked: [ClusterAggregate] in [[], [.min("price")], [.max("price"), .min("price")], [.sum("price")], [.max("price")]] {
      let query = try PropertyQuery(filter: PointFilter(parsing: "stars >= 4"), aggregates: asked, properties: properties)
      try clusterer.cluster(area, strategy: .aggregate, query: query, into: &markers, aggregates: &values)
      let passing = points.indices.filter { query.matches(Int32($0)) }
      let (expected, expectedValues) = try ReferenceFiltering.answer(points, passing: passing, area: area, asked: asked, reference)
      #expect(markers == expected, "\(asked)")
      #expect(values.map(\.description) == expectedValues)
      held.append(try #require(clusterer._summaryStorage?.values.first).bytes)
    }
    let entries = try #require(clusterer._summaryStorage?.values.first).entryTotal
    #expect(held[1] - held[0] == 8 * entries && held[2] - held[1] == 8 * entries, "\(held), \(entries) entries")
    #expect(held[3] - held[0] == 32 * entries && held[4] == held[3], "\(held), \(entries) entries")
  }

  /// A step over a wide view tests few points one by one: the nodes in
  /// view add their totals by value, and only the leaves an edge cuts, the
  /// small nodes and (for a number) the bucket a bound cuts are read.
  @Test func aWideStepReadsFewPointsOneByOne() throws {
    let points = Fixtures.clustered(60_000, seed: 146) + Fixtures.uniform(20_000, seed: 147)
    let reference = IndependentFixtures.properties(points.count, seed: 148)
    let properties = try reference.pointProperties()
    var tree = try Clusterer<CellTree>(points: points), scan = try Clusterer<LinearScanIndex>(points: points)
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    for text in ["chain = chain-7", "stars >= 4", "price <= 100"] {
      let query = try PropertyQuery(
        filter: PointFilter(parsing: text), aggregates: [.sum("price"), .max("price")], properties: properties)
      var walked = WorkCounters(), scanned = WorkCounters(), shown = 0
      for zoom in 0...3 {
        let area = VisibleArea(zoom: zoom, rect: Rect(minX: -170, minY: -70, maxX: 175, maxY: 80))
        try tree.cluster(area, strategy: .aggregate, query: query, into: &markers, aggregates: &values, counters: &walked)
        shown += markers.reduce(0) { $0 + Int($1.count) }
        try scan.cluster(area, strategy: .aggregate, query: query, into: &markers, aggregates: &values, counters: &scanned)
      }
      // every passing point in view is reported, most of them whole
      #expect(walked.pointsReported == shown, "\(text)")
      #expect(walked.pointsTested * 5 < scanned.pointsTested, "\(text): \(walked) against \(scanned)")
    }
  }

  /// Past ``_ValueSummary/maximumCodes`` codes a category keeps no totals
  /// by value: the filter takes the node masks.
  @Test func aCategoryOfManyCodesKeepsNoTotals() throws {
    let points = Fixtures.uniform(2_000, seed: 149)
    var properties = PointProperties()
    try properties.addCategory("id", values: points.indices.map { "p\($0)" })
    var clusterer = try Clusterer<CellTree>(points: points)
    let query = try PropertyQuery(filter: PointFilter(parsing: "id = p7"), properties: properties)
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    try clusterer.cluster(VisibleArea(zoom: 1, rect: .world), strategy: .aggregate, query: query, into: &markers,
                          aggregates: &values)
    #expect(markers.map(\.count) == [1] && markers.first?.id == 7)
    #expect(clusterer._summaryStorage?.values.isEmpty == true)
  }
}
