import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport
@testable import MapClustering

/// Hostile points with properties, seeded: copies with different values,
/// ±180°, the poles and the latitude limit, cell edges.
enum FilterFixtures {
  /// The category values drawn: quotes, commas, the word `and`, spaces,
  /// strings that read as numbers; nil and "" are missing.
  static let chains: [String?] = [
    "chain-1", "chain-2", "chain-3", "Inn, The", #"say "hi""#, "a and b", " padded", "(x)", "1.5", "1.50", nil, "",
  ]

  static func points(_ name: String) -> [Point] {
    switch name {
    case "copies":
      // 12 places, each many times over (each copy has its own values)
      let places = Fixtures.uniform(12, seed: 51, in: Rect(minX: -10, minY: 40, maxX: 10, maxY: 55))
      return (0..<900).map { places[$0 % 12] }
    case "edges":
      let limit = WebMercator.maxLatitude
      var points = Fixtures.cellEdges() + MapFixtures.antimeridian(200, seed: 52)
      for lon in [-180.0, 180, 0, 179.999_999_9, -179.999_999_9] {
        for lat in [limit, -limit, limit.nextUp, 90, -90, 0, 45] {
          points += Array(repeating: Point(x: lon, y: lat), count: 3)
        }
      }
      return points
    default:
      return Fixtures.clustered(1500, seed: 53) + MapFixtures.antimeridian(150, seed: 54)
    }
  }

  /// Seeded properties for `n` points: `chain` and `tag` categories,
  /// `price` in cents (negative, zero, missing), whole `stars`, and `big`,
  /// values near 2^62 at scale 3, whose sums pass 64 bits.
  static func properties(_ n: Int, seed: UInt64) -> ReferenceProperties {
    var g = SplitMix64(seed: seed)
    var p = ReferenceProperties()
    p.categories.append(("chain", (0..<n).map { _ in chains[g.nextInt(below: chains.count)] }))
    p.categories.append(("tag", (0..<n).map { _ in ["-0", "0", "x", nil][g.nextInt(below: 4)] }))
    p.numbers.append(("price", (0..<n).map { _ in
      switch g.nextInt(below: 10) {
      case 0: .min
      case 1: 0
      case 2: -Int64(g.nextInt(below: 2000))
      default: Int64(g.nextInt(below: 50_000))
      }
    }, 2))
    p.numbers.append(("stars", (0..<n).map { _ in g.nextInt(below: 20) == 0 ? .min : Int64(1 + g.nextInt(below: 5)) }, 0))
    p.numbers.append(("big", (0..<n).map { _ in
      switch g.nextInt(below: 10) {
      case 0: .min
      case 1, 2: .max  // twice as often as -.max: sums of a few dozen pass 2^64
      case 3: -.max
      default: Int64(g.nextInt(below: 1 << 40)) << 22 - (1 << 61)
      }
    }, 3))
    return p
  }

  /// A decimal with 0 to 4 fractional digits (finer than `price`'s 2),
  /// in `-range...range`, at times `-0.00`.
  static func bound(_ range: Int, _ g: inout SplitMix64) -> String {
    if g.nextInt(below: 12) == 0 { return "-0.00" }
    let whole = g.nextInt(below: 2 * range + 1) - range
    let digits = g.nextInt(below: 5)
    var text = whole < 0 || (whole == 0 && g.nextUnit() < 0.3) ? "-\(abs(whole))" : "\(whole)"
    if digits > 0 { text += "." + (0..<digits).map { _ in String(g.nextInt(below: 10)) }.joined() }
    return text
  }

  /// A random filter of 0–3 clauses over `properties`' fields.
  static func clauses(_ g: inout SplitMix64) -> [ReferenceClause] {
    (0..<g.nextInt(below: 4)).map { _ in
      switch g.nextInt(below: 8) {
      case 0, 1:
        let pool = chains.compactMap { $0 } + ["chain-99"]
        return .oneOf("chain", (0..<(1 + g.nextInt(below: 3))).map { _ in pool[g.nextInt(below: pool.count)] })
      case 2: return .oneOf("tag", [["-0", "0", "x", "y"][g.nextInt(below: 4)]])
      case 3: return .atLeast("price", bound(500, &g))
      case 4: return .atMost("price", bound(500, &g))
      case 5:
        return .oneOf("stars", (0..<(1 + g.nextInt(below: 2))).map { _ in ["4", "4.0", "5.00", "1", "-0"][g.nextInt(below: 5)] })
      case 6: return .atLeast("stars", bound(5, &g))
      default:
        return g.nextUnit() < 0.5 ? .atLeast("big", bound(2_000_000_000_000_000, &g)) : .oneOf("price", [bound(3, &g)])
      }
    }
  }

  static func aggregates(_ g: inout SplitMix64) -> [ClusterAggregate] {
    let all: [ClusterAggregate] = [.sum("price"), .min("price"), .max("price"), .sum("big"), .max("big"), .min("stars")]
    return all.filter { _ in g.nextUnit() < 0.4 }
  }

  /// Properties that follow the map, as real ones do (a chain's region,
  /// prices by latitude), so that whole cell-tree nodes pass or fail:
  /// bands of 11 map units (the tree's nodes of depth 5 and below lie in
  /// one) with a share `noise` of points drawn at random, and missing
  /// values. `chain` has 12 values, `code` 100 (more than a node mask
  /// holds), `price` cents by latitude band, `stars` by longitude band,
  /// `big` near 2^63 in the east (sums of a node pass 64 bits).
  static func regional(_ points: [Point], noise: Double, seed: UInt64) -> ReferenceProperties {
    var g = SplitMix64(seed: seed)
    func band(_ map: Double) -> Int { Int(min(255.999, max(0, map)) / 11) }
    var p = ReferenceProperties()
    var chain: [String?] = [], code: [String?] = []
    var price: [Int64] = [], stars: [Int64] = [], big: [Int64] = []
    for q in points {
      let bx = band(WebMercator.x(longitude: q.x)), by = band(WebMercator.y(latitude: max(-89, min(89, q.y))))
      func noisy() -> Bool { g.nextUnit() < noise }
      chain.append(noisy() ? chains[g.nextInt(below: chains.count)] : chains[(bx + by) % chains.count])
      code.append(noisy() ? "c\(g.nextInt(below: 100))" : by == 3 ? nil : "c\((bx * 7 + by) % 100)")
      price.append(noisy() ? (g.nextInt(below: 5) == 0 ? .min : Int64(g.nextInt(below: 40_000))) : Int64(by * 1_000 + bx))
      stars.append(noisy() ? Int64(1 + g.nextInt(below: 5)) : Int64(1 + bx % 5))
      big.append(q.x > 0 ? .max - Int64(g.nextInt(below: 1000)) : noisy() ? .min : -Int64(g.nextInt(below: 1 << 40)))
    }
    p.categories.append(("chain", chain))
    p.categories.append(("code", code))
    p.numbers.append(("price", price, 2))
    p.numbers.append(("stars", stars, 0))
    p.numbers.append(("big", big, 3))
    return p
  }

  /// A random filter of 1–2 clauses over ``regional(_:noise:seed:)``'s
  /// fields, with bounds inside their ranges.
  static func regionalClauses(_ g: inout SplitMix64) -> [ReferenceClause] {
    (0...g.nextInt(below: 2)).map { _ in
      switch g.nextInt(below: 7) {
      case 0:
        return .oneOf("chain", (0..<(1 + g.nextInt(below: 3))).map { _ in chains.compactMap { $0 }[g.nextInt(below: 10)] })
      case 1: return .oneOf("code", (0..<(1 + g.nextInt(below: 3))).map { _ in "c\(g.nextInt(below: 100))" })
      case 2: return .atMost("price", "\(g.nextInt(below: 250)).\(g.nextInt(below: 100))")
      case 3: return .atLeast("price", "\(g.nextInt(below: 250))")
      case 4: return .atLeast("stars", "\(1 + g.nextInt(below: 5))")
      case 5: return .oneOf("stars", ["\(1 + g.nextInt(below: 5))", "\(1 + g.nextInt(below: 5)).0"])
      default: return .oneOf("price", ["\(g.nextInt(below: 23)).0\(g.nextInt(below: 10))", "\(g.nextInt(below: 23))0.00"])
      }
    }
  }

  /// Views over `points` at zooms 0–19 (near points and across the
  /// antimeridian), plus the whole world at zooms 0–2.
  static func areas(over points: [Point], seed: UInt64) -> [VisibleArea] {
    MapFixtures.viewports(over: points, count: 24, seed: seed).map(\.visibleArea)
      + (0...2).map { VisibleArea(zoom: $0, rect: Rect(minX: -180, minY: -90, maxX: 180, maxY: 90)) }
  }
}

/// Clustering with a filter and aggregates (issue 43, item 4): for every
/// index and strategy, the markers are those of the linear scan over the
/// passing points alone, bit for bit, and the aggregates those of the
/// documented rule; a filter change rebuilds nothing.
@Suite struct FilteredClusteringTests {
  static let indexNames = allIndexTypes.map { $0.name }

  @Test(arguments: indexNames)
  func everyIndexAndStrategyEqualsTheLinearScanOnThePassingPoints(indexName: String) throws {
    guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
    let type = try #require(indexType(named: indexName))
    for (k, name) in ["copies", "edges", "clustered"].enumerated() {
      try check(type, name, seed: UInt64(60 + k))
    }
  }

  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  private func check<I: DescribedIndex>(_ type: I.Type, _ name: String, seed: UInt64) throws {
    let points = FilterFixtures.points(name)
    let reference = FilterFixtures.properties(points.count, seed: seed)
    let properties = try reference.pointProperties()
    var clusterer = try Clusterer<I>(points: points)
    var g = SplitMix64(seed: seed &* 31)
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    var failures = 0, nonEmpty = 0, aggregated = 0
    let areas = FilterFixtures.areas(over: points, seed: seed)
    for _ in 0..<8 {
      let clauses = FilterFixtures.clauses(&g), asked = FilterFixtures.aggregates(&g)
      let text = clauses.map { $0.text(quoteAll: g.nextUnit() < 0.3) }.joined(separator: " and ")
      let filter = try PointFilter(parsing: text)
      #expect(filter == clauses.map(\.filter).reduce(try PointFilter(parsing: ""), { $0.and($1) }),
              "\(text): the text and the typed form differ")
      let query = try PropertyQuery(filter: filter, aggregates: asked, properties: properties)
      let passing = points.indices.filter { ReferenceFiltering.passes($0, clauses, reference) }
      let matching = points.indices.filter { query.matches(Int32($0)) }
      #expect(matching == passing, "\(name) \(text): matches(_:) differs from the rule")
      for area in areas {
        let (expected, expectedValues) = try ReferenceFiltering.answer(
          points, passing: passing, area: area, asked: asked, reference)
        if !expected.isEmpty { nonEmpty += 1 }
        if expectedValues.contains(where: { !$0.isEmpty }) { aggregated += 1 }
        for strategy in ClusterStrategy.allCases {
          try clusterer.cluster(area, strategy: strategy, query: query, into: &markers, aggregates: &values)
          let texts = values.map(\.description)
          if (markers != expected || texts != expectedValues) && failures < 3 {
            failures += 1
            let extra = markers.filter { !expected.contains($0) }.prefix(3)
            let missing = expected.filter { !markers.contains($0) }.prefix(3)
            Issue.record("""
              \(I.name) \(strategy) \(name) \(area) filter \(text) aggregates \(asked.map(\.text)): \
              extra \(extra), missing \(missing); aggregates \(texts.prefix(6)) expected \(expectedValues.prefix(6))
              """)
          }
        }
      }
    }
    #expect(nonEmpty > 40, "\(name): too few views show a passing point")
    #expect(aggregated > 20, "\(name): too few views have an aggregate")
  }

  /// The cell tree answers `aggregate` from its summaries by node: on
  /// properties that follow the map, whole nodes pass and fail (and some
  /// are mixed: noise, a category with more values than a mask holds,
  /// missing values), on points with copies, at ±180°, the poles and cell
  /// edges. Its markers and aggregates are the linear scan's on the
  /// passing points, bit for bit, and so are the other strategies'.
  @Test(arguments: [0.0, 0.05])
  func theCellTreeAnswersWholeNodesAsTheLinearScan(noise: Double) throws {
    guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
    let sets = [
      Fixtures.clustered(3000, seed: 80) + Fixtures.uniform(1000, seed: 81) + FilterFixtures.points("edges"),
      FilterFixtures.points("copies") + FilterFixtures.points("edges"),
    ]
    var whole = 0
    for (k, points) in sets.enumerated() {
      let reference = FilterFixtures.regional(points, noise: noise, seed: 82 + UInt64(k))
      let properties = try reference.pointProperties()
      var clusterer = try Clusterer<CellTree>(points: points)
      var g = SplitMix64(seed: 84 + UInt64(k))
      var markers: [ClusterMarker] = [], values: [AggregateValue] = []
      let areas = FilterFixtures.areas(over: points, seed: 86 + UInt64(k))
      for round in 0..<10 {
        // every other filter walks the summaries however mixed its leaves
        clusterer._walkMixedLimit = round % 2 == 0 ? 0 : 16
        let clauses = FilterFixtures.regionalClauses(&g), asked = FilterFixtures.aggregates(&g)
        let text = clauses.map { $0.text() }.joined(separator: " and ")
        let query = try PropertyQuery(filter: PointFilter(parsing: text), aggregates: asked, properties: properties)
        let passing = points.indices.filter { ReferenceFiltering.passes($0, clauses, reference) }
        for area in areas {
          let (expected, expectedValues) = try ReferenceFiltering.answer(
            points, passing: passing, area: area, asked: asked, reference)
          for strategy in ClusterStrategy.allCases {
            var counters = WorkCounters()
            try clusterer.cluster(area, strategy: strategy, query: query, into: &markers, aggregates: &values,
                                  counters: &counters)
            #expect(markers == expected, "\(strategy) set \(k) \(area) \(text)")
            #expect(values.map(\.description) == expectedValues, "\(strategy) set \(k) \(area) \(text) \(asked)")
            if strategy == .aggregate {
              // points reported beyond those tested one by one came whole
              if counters.pointsReported > counters.pointsTested { whole += 1 }
            }
          }
        }
      }
    }
    // the views where whole nodes outweigh the points taken one by one
    #expect(whole > 20, "whole nodes were seldom taken")
  }

  /// A filtered step on the cell tree grows with the cells, not with the
  /// points: with 8 times the points, in regions of the tree's own grid,
  /// it visits about as many nodes and tests no more points, while it
  /// reports 8 times as many. The linear scan's filtered step tests every
  /// point.
  @Test func aFilteredStepOnTheCellTreeGrowsWithCellsNotPoints() throws {
    func work(_ n: Int, _ filter: String, aggregates: [ClusterAggregate]) throws -> (WorkCounters, WorkCounters) {
      let points = Fixtures.uniform(n, seed: 90, in: Rect(minX: -179, minY: -80, maxX: 179, maxY: 80))
      let properties = try FilterFixtures.regional(points, noise: 0, seed: 91).pointProperties()
      let query = try PropertyQuery(filter: PointFilter(parsing: filter), aggregates: aggregates, properties: properties)
      var tree = try Clusterer<CellTree>(points: points), scan = try Clusterer<LinearScanIndex>(points: points)
      var markers: [ClusterMarker] = [], values: [AggregateValue] = []
      var walked = WorkCounters(), scanned = WorkCounters()
      for zoom in 0...3 {
        let area = VisibleArea(zoom: zoom, rect: Rect(minX: -180, minY: -85, maxX: 180, maxY: 85))
        try tree.cluster(area, strategy: .aggregate, query: query, into: &markers, aggregates: &values, counters: &walked)
        try scan.cluster(area, strategy: .aggregate, query: query, into: &markers, aggregates: &values, counters: &scanned)
      }
      return (walked, scanned)
    }
    for (filter, aggregates) in [("chain = chain-3", []), ("stars >= 4", [ClusterAggregate.sum("price")]),
                                 ("price <= 100 and stars in (2, 3)", [.min("price"), .max("price")])] {
      let (small, smallScan) = try work(20_000, filter, aggregates: aggregates)
      let (large, largeScan) = try work(160_000, filter, aggregates: aggregates)
      #expect(large.pointsReported > 7 * small.pointsReported, "\(filter): \(small) \(large)")
      #expect(large.pointsTested <= small.pointsTested + 64, "\(filter): \(small) \(large)")
      #expect(large.nodesVisited < 2 * small.nodesVisited, "\(filter): \(small) \(large)")
      #expect(largeScan.pointsTested > 7 * smallScan.pointsTested, "\(filter): \(smallScan) \(largeScan)")
    }
  }

  /// The summaries are made once for each column and kept: a filter
  /// change on the cell tree grows nothing once its columns are summarised,
  /// and they are counted in the clusterer's memory.
  @Test func theCellTreesSummariesAreMadeOnceAndCounted() throws {
    let points = FilterFixtures.points("clustered")
    let properties = try FilterFixtures.properties(points.count, seed: 92).pointProperties()
    var clusterer = try Clusterer<CellTree>(points: points)
    // every filter walks the summaries: none is refused on the sample
    clusterer._walkMixedLimit = 0
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    let world = VisibleArea(zoom: 2, rect: Rect(minX: -180, minY: -90, maxX: 180, maxY: 90))
    let before = clusterer.memoryBytes(for: .aggregate)
    let all: [ClusterAggregate] = [.sum("price"), .sum("big"), .sum("stars"), .min("stars")]
    let warm = try PropertyQuery(filter: PointFilter(parsing: "chain in (chain-1, chain-2) and tag = x"),
                                 aggregates: all, properties: properties)
    try clusterer.cluster(world, strategy: .aggregate, query: warm, into: &markers, aggregates: &values)
    // a filter of one clause reads its column's totals by value
    for one in ["chain = chain-1", "tag = x", "price >= 1", "stars >= 1", "big >= 1"] {
      let query = try PropertyQuery(filter: PointFilter(parsing: one), aggregates: all, properties: properties)
      try clusterer.cluster(world, strategy: .aggregate, query: query, into: &markers, aggregates: &values)
    }
    let held = try #require(clusterer._summaryStorage).bytes
    #expect(held > 0 && clusterer.memoryBytes(for: .aggregate) >= before + held, "the summaries are counted")
    var g = SplitMix64(seed: 93)
    for _ in 0..<20 {
      let text = FilterFixtures.clauses(&g).map { $0.text() }.joined(separator: " and ")
      let query = try PropertyQuery(filter: PointFilter(parsing: text), aggregates: FilterFixtures.aggregates(&g),
                                    properties: properties)
      try clusterer.cluster(world, strategy: .aggregate, query: query, into: &markers, aggregates: &values)
    }
    #expect(clusterer._summaryStorage?.bytes == held)
  }

  /// A filter of several clauses is judged on the sampled leaves before
  /// any summary by node is made: one the sample refuses (properties that
  /// ignore the map) makes none, and the sample's verdict on each leaf is
  /// the one the summaries by node give it.
  @Test func theSampleJudgesAFilterBeforeItsSummaries() throws {
    let points = IndependentFixtures.points()
    let properties = try IndependentFixtures.properties(points.count, seed: 150).pointProperties()
    var clusterer = try Clusterer<CellTree>(points: points)
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    let world = VisibleArea(zoom: 2, rect: Rect(minX: -180, minY: -90, maxX: 180, maxY: 90))
    let mixed = try PropertyQuery(filter: PointFilter(parsing: "chain in (chain-1, chain-2) and stars >= 3"),
                                  aggregates: [.min("price")], properties: properties)
    try clusterer.cluster(world, strategy: .aggregate, query: mixed, into: &markers, aggregates: &values)
    let summaries = try #require(clusterer._summaryStorage)
    #expect(summaries.columns.isEmpty && summaries.sampleColumns.count == 2, "\(summaries.columns.count) columns")
    let tree = try CellTree(points: points)
    let check = _NodeSummaries(ids: tree.nodeOrderIDs, nodeCount: tree.nodeCount, tree.nodeShape)
    for text in ["chain in (chain-1, chain-2) and stars >= 3", "code = c3 and price <= 100", "chain = chain-40 and price in (0, 99.99)",
                 "stars = 2 and price >= -1", "chain in (chain-99) and stars <= 1"] {
      let query = try PropertyQuery(filter: PointFilter(parsing: text), properties: properties)
      let filter = check.filter(query, totals: UnsafeMutableBufferPointer(start: nil, count: 0), tree.nodeShape)
      var byNode = (mixed: 0, sampled: 0)
      for (leaf, count) in check.sample {
        byNode.sampled += count
        if filter.verdict(node: leaf) == .some { byNode.mixed += count }
      }
      let bySample = check.mixedShare(query, tree.nodeShape)
      #expect(bySample == byNode, "\(text)")
    }
  }

  /// A number column's summaries by node keep its least and greatest (16
  /// bytes a node) when a clause tests it, else only the one its
  /// aggregates ask (8 bytes a node for a `min` alone), until a sum of it
  /// is asked, then its whole totals (32), which serve the tests too; the
  /// answers are the linear scan's either way.
  @Test(arguments: [("tag = x and price >= 1", [16, 16, 32, 32]), ("", [8, 16, 32, 32])])
  func aNumbersNodeSummariesGrowOnlyAsAsked(filter: String, bytesANode: [Int]) throws {
    let points = FilterFixtures.points("clustered")
    let reference = FilterFixtures.properties(points.count, seed: 154)
    let properties = try reference.pointProperties()
    var clusterer = try Clusterer<CellTree>(points: points)
    clusterer._walkMixedLimit = 0
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    let area = VisibleArea(zoom: 2, rect: Rect(minX: -180, minY: -90, maxX: 180, maxY: 90))
    var held: [Int] = []
    for asked: [ClusterAggregate] in [[.min("price")], [.max("price"), .min("price")], [.sum("price")], [.min("price")]] {
      let query = try PropertyQuery(filter: PointFilter(parsing: filter), aggregates: asked, properties: properties)
      try clusterer.cluster(area, strategy: .aggregate, query: query, into: &markers, aggregates: &values)
      let passing = points.indices.filter { query.matches(Int32($0)) }
      let (expected, expectedValues) = try ReferenceFiltering.answer(points, passing: passing, area: area, asked: asked, reference)
      #expect(markers == expected, "\(asked)")
      #expect(values.map(\.description) == expectedValues)
      held.append(try #require(clusterer._summaryStorage).columns.first { !$0.isCategory }?.bytes ?? 0)
    }
    let n = try #require(clusterer._summaryStorage).nodeCount, bits = (n + 63) / 64 * 8
    #expect(held == bytesANode.map { $0 * n + bits }, "\(filter)")
  }

  /// A `min` whose least value is `Int64.max` (a valid value: only
  /// `Int64.min` is missing) is that value, not empty, where the cell tree
  /// keeps the least alone: by node (no clause), and by value (one
  /// clause). Found by `bench fuzz --seed 7` (case 1030), shrunk.
  @Test(arguments: ["", "c = x"])
  func aLeastOfTheGreatestValueIsNotEmpty(filter: String) throws {
    // enough points in one cell for nodes that keep totals by value
    let points = Fixtures.uniform(300, seed: 156, in: Rect(minX: 100, minY: -50, maxX: 101, maxY: -49))
    var properties = PointProperties()
    try properties.addNumber("n", units: [.min] + Array(repeating: .max, count: 299), scale: 2)
    try properties.addCategory("c", values: Array(repeating: "x", count: 300))
    let query = try PropertyQuery(filter: PointFilter(parsing: filter), aggregates: [.min("n")], properties: properties)
    var parameters = CellTree.Parameters()
    try parameters.set("leafSize", to: "1")
    var clusterer = try Clusterer(index: try CellTree(points: points, parameters: parameters), points: points)
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    let area = VisibleArea(zoom: 0, rects: [Rect(minX: 0, minY: -90, maxX: 180, maxY: 0)])
    try clusterer.cluster(area, strategy: .aggregate, query: query, into: &markers, aggregates: &values)
    #expect(markers.map(\.count) == [300])
    #expect(values.map(\.description) == ["92233720368547758.07"])
  }

  /// The worked example of docs/clustering.md, "Filters and aggregates".
  @Test func theGuidesExample() throws {
    let hotels = [Point(x: 2.29, y: 48.86), Point(x: 2.35, y: 48.85), Point(x: 2.30, y: 48.87), Point(x: 2.36, y: 48.88)]
    var clusterer = try Clusterer<KDTreeIndex>(points: hotels)
    let viewport = Viewport(center: Point(latitude: 48.8566, longitude: 2.3522), zoom: 5)
    let area = viewport.visibleArea

    var properties = PointProperties()
    try properties.addCategory("chain", values: ["Ritz", "Inn, The", "Ritz", "Ibis"])
    try properties.addNumber("stars", units: [5, 3, 4, 2], scale: 0)
    try properties.addNumber("price", units: [420_00, 89_50, .min, 61_00], scale: 2)  // .min: no price
    let query = try PropertyQuery(
      filter: PointFilter(parsing: #"stars >= 3 and chain in (Ritz, "Inn, The")"#),
      aggregates: [.sum("price"), .min("price"), .max("price")], properties: properties)
    var markers: [ClusterMarker] = [], aggregates: [AggregateValue] = []
    try clusterer.cluster(viewport, strategy: .aggregate, query: query, into: &markers, aggregates: &aggregates)

    #expect(clusterer.markers(for: area).map(\.count) == [4])  // one cell holds all four
    #expect(markers.map(\.count) == [3])
    #expect(markers == ReferenceClustering.markers(Array(hotels.prefix(3)), area: area))
    #expect(aggregates.map(\.description) == ["509.50", "89.50", "420.00"])
    // the bounds of the guide: never rounded to the cents
    for (filter, kept) in [("price >= 89.505", [0]), ("price <= 89.505", [1, 3]), ("price = 89.505", [])] {
      let q = try PropertyQuery(filter: PointFilter(parsing: filter), properties: properties)
      #expect((0..<4).filter { q.matches(Int32($0)) } == kept, "\(filter)")
    }
  }

  /// Sums of `big`'s units pass 64 bits in some cell: the data reach it.
  @Test func theDataSumBeyondSixtyFourBits() throws {
    let points = FilterFixtures.points("copies")
    var clusterer = try Clusterer<KDTreeIndex>(points: points)
    let query = try PropertyQuery(aggregates: [.sum("big")],
                                  properties: FilterFixtures.properties(points.count, seed: 60).pointProperties())
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    try clusterer.cluster(VisibleArea(zoom: 0, rect: Rect(minX: -180, minY: -90, maxX: 180, maxY: 90)),
                          strategy: .aggregate, query: query, into: &markers, aggregates: &values)
    // `big` is at scale 3: its units are the value × 1000
    #expect(values.contains { $0.value.map { abs($0) * 1000 > 0x1p64 } ?? false }, "\(values)")
  }

  /// Moved points are filtered where they now are.
  @Test func movedPointsAreFilteredWhereTheyAre() throws {
    guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
    var points = FilterFixtures.points("clustered")
    let reference = FilterFixtures.properties(points.count, seed: 70)
    var clusterer = try Clusterer<GridHashIndex>(points: points)
    var g = SplitMix64(seed: 71)
    for _ in 0..<300 {
      let id = g.nextInt(below: points.count)
      points[id] = Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -80, 80))
      try clusterer.move(id: Int32(id), to: points[id])
    }
    let clauses: [ReferenceClause] = [.atLeast("price", "10.005"), .oneOf("chain", ["chain-1", "Inn, The"])]
    let query = try PropertyQuery(filter: clauses.map(\.filter).reduce(PointFilter.field("stars", atLeast: "1"), { $0.and($1) }),
                                  aggregates: [.max("price")], properties: reference.pointProperties())
    let passing = points.indices.filter {
      ReferenceFiltering.passes($0, clauses + [.atLeast("stars", "1")], reference)
    }
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    for area in FilterFixtures.areas(over: points, seed: 72) {
      let (expected, expectedValues) = try ReferenceFiltering.answer(
        points, passing: passing, area: area, asked: [.max("price")], reference)
      for strategy in ClusterStrategy.allCases {
        try clusterer.cluster(area, strategy: strategy, query: query, into: &markers, aggregates: &values)
        #expect(markers == expected, "\(strategy) \(area)")
        #expect(values.map(\.description) == expectedValues, "\(strategy) \(area)")
      }
    }
  }

  /// The empty query gives the markers of a step without one; a filter no
  /// point passes gives none.
  @Test func emptyAndImpossibleFilters() throws {
    let points = FilterFixtures.points("clustered")
    let properties = try FilterFixtures.properties(points.count, seed: 73).pointProperties()
    var clusterer = try Clusterer<CellTree>(points: points)
    var markers: [ClusterMarker] = [], values: [AggregateValue] = [AggregateValue(units: 1, scale: 0)]
    let area = VisibleArea(zoom: 1, rect: Rect(minX: -180, minY: -90, maxX: 180, maxY: 90))
    for strategy in ClusterStrategy.allCases {
      try clusterer.cluster(area, strategy: strategy, query: PropertyQuery(properties: properties),
                            into: &markers, aggregates: &values)
      #expect(markers == clusterer.markers(for: area, strategy: strategy))
      #expect(values.isEmpty)
      try clusterer.cluster(area, strategy: strategy,
                            query: PropertyQuery(filter: PointFilter(parsing: "chain = nobody"), properties: properties),
                            into: &markers, aggregates: &values)
      #expect(markers.isEmpty)
    }
  }

  @Test func propertiesOfAnotherNumberOfPointsAreRefused() throws {
    var clusterer = try Clusterer<KDTreeIndex>(points: Fixtures.uniform(10, seed: 74))
    var p = PointProperties()
    try p.addNumber("x", units: [1, 2, 3], scale: 0)
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    #expect(throws: ClusteringError.invalidProperties("the properties describe 3 points, but the clusterer holds 10")) {
      try clusterer.cluster(VisibleArea(zoom: 0, rect: Rect(minX: -180, minY: -90, maxX: 180, maxY: 90)),
                            query: PropertyQuery(properties: p), into: &markers, aggregates: &values)
    }
  }

  /// A view too wide for the dense buffer takes the sparse path: the same
  /// markers and aggregates.
  @Test func viewsTooWideForTheDenseBuffer() throws {
    guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
    let points = FilterFixtures.points("copies") + Fixtures.uniform(300, seed: 75)
    let reference = FilterFixtures.properties(points.count, seed: 76)
    var clusterer = try Clusterer<KDTreeIndex>(points: points)
    let clauses: [ReferenceClause] = [.atMost("price", "300.001")]
    let asked: [ClusterAggregate] = [.sum("big"), .min("price")]
    let query = try PropertyQuery(filter: clauses[0].filter, aggregates: asked, properties: reference.pointProperties())
    let passing = points.indices.filter { ReferenceFiltering.passes($0, clauses, reference) }
    let area = VisibleArea(zoom: 14, rect: Rect(minX: -180, minY: -80, maxX: 180, maxY: 80))
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    try clusterer.cluster(area, strategy: .singlePass, query: query, into: &markers, aggregates: &values)
    let (expected, expectedValues) = try ReferenceFiltering.answer(points, passing: passing, area: area, asked: asked, reference)
    #expect(markers == expected)
    #expect(values.map(\.description) == expectedValues)
    #expect(markers.count > 100)
  }

  /// Once the buffers have grown to the widest view, new filters and
  /// aggregates change only the query: the clusterer holds no more memory.
  @Test func aFilterChangeGrowsNothingOnceWarm() throws {
    let points = FilterFixtures.points("clustered")
    let reference = FilterFixtures.properties(points.count, seed: 77)
    let properties = try reference.pointProperties()
    var clusterer = try Clusterer<KDTreeIndex>(points: points)
    var markers: [ClusterMarker] = [], values: [AggregateValue] = []
    let world = VisibleArea(zoom: 2, rect: Rect(minX: -180, minY: -90, maxX: 180, maxY: 90))
    let all: [ClusterAggregate] = [.sum("price"), .min("price"), .max("price"), .sum("big"), .max("big"), .min("stars")]
    let warm = try PropertyQuery(aggregates: all, properties: properties)
    for strategy in ClusterStrategy.allCases {
      try clusterer.cluster(world, strategy: strategy, query: warm, into: &markers, aggregates: &values)
    }
    let held = ClusterStrategy.allCases.map { clusterer.memoryBytes(for: $0) }
    let capacities = (markers.capacity, values.capacity)
    var g = SplitMix64(seed: 78)
    for _ in 0..<20 {
      let text = FilterFixtures.clauses(&g).map { $0.text() }.joined(separator: " and ")
      let query = try PropertyQuery(filter: PointFilter(parsing: text), aggregates: FilterFixtures.aggregates(&g),
                                    properties: properties)
      for strategy in ClusterStrategy.allCases {
        try clusterer.cluster(world, strategy: strategy, query: query, into: &markers, aggregates: &values)
      }
    }
    #expect(ClusterStrategy.allCases.map { clusterer.memoryBytes(for: $0) } == held)
    #expect(markers.capacity == capacities.0 && values.capacity == capacities.1)
  }
}
