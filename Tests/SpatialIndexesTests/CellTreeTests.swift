import _SeededRandom
import SpatialIndexes
import Testing
import _SpatialTestSupport

/// What is particular to the cell tree: its nodes are cells of the map's
/// grid, and summing a view by cell gives what binning its points gives,
/// for any cell size and zoom (the clustering suites check the markers).
@Suite struct CellTreeTests {
  /// A fixture's points with their map positions, projected once.
  struct Projected {
    var points: [Point]
    var map: [(x: Double, y: Double)]
    init(_ points: [Point]) {
      self.points = points
      map = points.map { (WebMercator.x(longitude: $0.x), WebMercator.y(latitude: $0.y)) }
    }
  }

  /// The totals of `rect` by cell of a grid, from the points the map shows,
  /// one by one: the reference `sumCells` must match. Map x 256 (+180°) is
  /// map x 0 (−180°): a point there is in column 0, summed at −180°.
  func binned(_ set: Projected, _ rect: Rect, _ window: CellWindow) -> [CellTotals] {
    var cells = [CellTotals](repeating: CellTotals(), count: window.width * (window.rowHi - window.rowLo + 1))
    let s = window.scale, c = window.cellSize
    for (i, p) in set.points.enumerated()
    where rect.contains(p) && abs(p.x) <= 180 && WebMercator.latitudeRange.contains(p.y) {
      let east = set.map[i].x == 256
      let col = MapCells.index(east ? 0 : set.map[i].x, scale: s, cellSize: c, inverse: 1 / c)
      let row = MapCells.index(set.map[i].y, scale: s, cellSize: c, inverse: 1 / c)
      let slot: Int
      if window.contains(col: col, row: row) {
        slot = window.slot(col: col, row: row)
      } else if col == 0 && window.columnZero >= 0 && row >= window.rowLo && row <= window.rowHi {
        slot = (row - window.rowLo) * window.width + window.columnZero
      } else {
        continue
      }
      cells[slot].add(Int32(i), lonE7: east ? -1_800_000_000 : MapCells.units(p.x), latE7: MapCells.units(p.y))
    }
    return cells
  }

  /// The window of `rect` at `zoom` with cells of `size` points: its
  /// columns, after column 0 when the rectangle reaches +180° and its
  /// columns do not hold column 0 (whose points at +180° are).
  func window(_ rect: Rect, zoom: Int, size: Double) -> CellWindow {
    let s = WebMercator.scale(zoom: zoom)
    func cell(_ m: Double) -> Int { MapCells.index(m, scale: s, cellSize: size, inverse: 1 / size) }
    let colLo = cell(WebMercator.x(longitude: rect.minX)), colHi = cell(WebMercator.x(longitude: rect.maxX))
    let rowLo = cell(WebMercator.y(latitude: rect.maxY)), rowHi = cell(WebMercator.y(latitude: rect.minY))
    let zero = rect.maxX == 180 && colLo > 0 ? 1 : 0
    return CellWindow(
      zoom: zoom, cellSize: size, rowLo: rowLo, rowHi: rowHi, colLo: colLo, colHi: colHi,
      width: colHi - colLo + 1 + zero, base: zero - colLo, columnZero: zero == 1 ? 0 : -1)
  }

  /// Counts and sums must agree; a one-point cell must name its point.
  func same(_ a: [CellTotals], _ b: [CellTotals]) -> Bool {
    zip(a, b).allSatisfy { x, y in
      x.count == y.count && x.sumLon == y.sumLon && x.sumLat == y.sumLat && (x.count != 1 || x.anyID == y.anyID)
    } && a.count == b.count
  }

  /// Views on the map: random boxes of every size, boxes whose edges lie
  /// exactly on points, the whole map, and boxes at the map's edges.
  static func views(over points: [Point], seed: UInt64) -> [Rect] {
    var g = SplitMix64(seed: seed)
    let top = WebMercator.latitude(y: 0), bottom = WebMercator.latitude(y: 256)
    var rects = [
      Rect(minX: -180, minY: bottom, maxX: 180, maxY: top),
      Rect(minX: 170, minY: 60, maxX: 180, maxY: top),
      Rect(minX: -180, minY: bottom, maxX: -170, maxY: -60),
      Rect(minX: 180, minY: bottom, maxX: 180, maxY: top),  // the antimeridian alone, either side
      Rect(minX: -180, minY: bottom, maxX: -180, maxY: top),
    ]
    for k in 0..<60 {
      if k % 3 == 0 && !points.isEmpty {  // corners on points: points on every edge
        let a = points[g.nextInt(below: points.count)], b = points[g.nextInt(below: points.count)]
        rects.append(Rect(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y)))
        continue
      }
      let w = g.nextDouble(in: 0.001, 200), h = g.nextDouble(in: 0.001, 100)
      let x = g.nextDouble(in: -180, 180 - w), y = g.nextDouble(in: bottom, top - h)
      rects.append(Rect(minX: x, minY: y, maxX: x + w, maxY: y + h))
    }
    return rects
  }

  static let fixtures: [Fixture] = [
    Fixture("clustered", Fixtures.clustered(4000, seed: 1)),
    Fixture("duplicates", Fixtures.identical(300) + Fixtures.identical(200, at: Point(x: -179.99, y: 0))),
    Fixture("lattice", Fixtures.lattice(seed: 2)),
    Fixture("map edges", [
      Point(x: -180, y: 0), Point(x: 180, y: 0), Point(x: 0, y: WebMercator.maxLatitude),
      Point(x: 0, y: -WebMercator.maxLatitude), Point(x: 10, y: 89), Point(x: 10, y: -89),
      Point(x: 180, y: WebMercator.maxLatitude), Point(x: -180, y: -WebMercator.maxLatitude),
      // +180° is −180° to a sum, whatever the zoom: copies either side, and the double below
      // 180, which projects to map x 256 too
      Point(x: 180, y: 40), Point(x: 180, y: 40), Point(x: -180, y: 40), Point(x: 180.0.nextDown, y: 40),
    ] + Fixtures.uniform(1000, seed: 3)),
  ]

  @Test(arguments: [1, 4, 16, 64])
  func cellSumsAreTheBinnedPointsAtEveryZoomAndCellSize(leafSize: Int) throws {
    for fixture in Self.fixtures {
      let projected = Projected(fixture.points)
      let tree = try CellTree(points: fixture.points, parameters: .init(leafSize: leafSize))
      #expect(tree._invariantViolations().isEmpty, "\(fixture)")
      for rect in Self.views(over: fixture.points, seed: UInt64(leafSize)) {
        // the default table's sides, and others: odd ones, a power of two, a large one
        for (zoom, size) in [(0, 88.0), (3, 88), (12, 88), (13, 64), (16, 32), (19, 16), (22, 88),
                             (27, 88), (30, 88), (5, 100), (9, 7), (14, 256), (2, 1)] {
          let w = window(rect, zoom: zoom, size: size)
          guard Double(w.width) * Double(w.rowHi - w.rowLo + 1) <= 200_000 else { continue }
          let cellCount = w.width * (w.rowHi - w.rowLo + 1)
          var got = [CellTotals](repeating: CellTotals(), count: cellCount)
          var none = NoCounters()
          got.withUnsafeMutableBufferPointer {
            tree.sumCells(in: rect, window: w, into: $0, counters: &none)
          }
          if !same(got, binned(projected, rect, w)) {
            Issue.record("\(fixture) leaf \(leafSize) zoom \(zoom) size \(size) \(rect)")
          }
        }
      }
    }
  }

  /// A walk queues its frames breadth first in a fixed ring and goes depth
  /// first once the queue is long: a deep tree (one point a leaf, points a
  /// few centimetres apart) cut along all four edges of a view, whose cut
  /// nodes at one depth far outnumber the ring, must still sum right, the
  /// walk keeping within its ring (a frame past it traps).
  @Test func aWalkAlongEdgesThroughADeepTreeSumsRight() throws {
    var g = SplitMix64(seed: 11)
    var points: [Point] = []
    for _ in 0..<20_000 {  // a square's outline, 1e-6° thick: every node near it is cut
      let t = g.nextDouble(in: 0, 1), side = g.nextInt(below: 4), jitter = g.nextDouble(in: -1e-6, 1e-6)
      let (x, y) = side < 2 ? (t, Double(side) + jitter) : (Double(side - 2) + jitter, t)
      points.append(Point(x: 2 + x, y: 48 + y))
    }
    let projected = Projected(points)
    let tree = try CellTree(points: points, parameters: .init(leafSize: 1))
    #expect(tree._invariantViolations().isEmpty)
    let rect = Rect(minX: 2, minY: 48, maxX: 3, maxY: 49)
    for zoom in [0, 6, 9, 12] {
      let w = window(rect, zoom: zoom, size: 88)
      var got = [CellTotals](repeating: CellTotals(), count: w.width * (w.rowHi - w.rowLo + 1))
      var counters = WorkCounters()
      got.withUnsafeMutableBufferPointer { tree.sumCells(in: rect, window: w, into: $0, counters: &counters) }
      #expect(same(got, binned(projected, rect, w)), "zoom \(zoom)")
      #expect(counters.nodesVisited > 10_000, "a walk of many cut nodes: \(counters.nodesVisited)")
    }
  }

  /// The build codes a point's row from an estimate of its map y, without
  /// `tan` and `log`, trusting it 2^-10 of a row from the row's edges: the
  /// estimate must stay far closer than that to the projection, and every
  /// code must be the projection's, at random latitudes and an ulp either
  /// side of rows' edges, at the equator and at the map's edges.
  @Test func theBuildsRowEstimateGivesTheProjectedRow() {
    var g = SplitMix64(seed: 21)
    var latitudes = (0..<200_000).map { _ in g.nextDouble(in: -85.06, 85.06) }
    for _ in 0..<30_000 {
      let edge = WebMercator.latitude(y: Double(g.nextInt(below: 195_225_786)) * 11 / 8_388_608)
      latitudes += [edge.nextDown, edge, edge.nextUp]
    }
    latitudes += [0, -0.0, 1e-300, 85, -85, 85.0.nextDown, -85.0.nextUp, WebMercator.maxLatitude,
                  -WebMercator.maxLatitude, WebMercator.latitudeRange.lowerBound, WebMercator.latitudeRange.upperBound]
    let scale = WebMercator.scale(zoom: 23)
    var worst = 0.0, wrong = 0
    for lat in latitudes {
      let y = WebMercator.y(latitude: lat)
      if abs(lat) < 85 { worst = max(worst, abs(CellTree.approximateRows(latitudes: SIMD4(repeating: lat))[0] - y * scale / 11)) }
      let row = MapCells.index(y, scale: scale, cellSize: 11, inverse: 1.0 / 11)
      for lon in [-180.0, 0, 179.9] {
        let x = MapCells.index(WebMercator.x(longitude: lon), scale: scale, cellSize: 11, inverse: 1.0 / 11)
        let code = CellTree.code(of: Point(x: lon, y: lat))
        if CellTree.compact(code >> 1) != UInt64(row) || CellTree.compact(code) != UInt64(x) { wrong += 1 }
      }
    }
    #expect(worst < 1e-5, "the estimate is off by up to \(worst) of a row")
    #expect(wrong == 0)
  }

  /// A view of the world at zoom 3 reads the nodes of its cells, not their
  /// points: far fewer points tested than points in view.
  @Test func aWideViewReadsCellsNotPoints() throws {
    let points = Fixtures.clustered(100_000, seed: 9)
    let tree = try CellTree(points: points)
    let rect = Rect(minX: -60, minY: -40, maxX: 60, maxY: 70)
    let w = window(rect, zoom: 3, size: 88)
    var cells = [CellTotals](repeating: CellTotals(), count: w.width * (w.rowHi - w.rowLo + 1))
    var counters = WorkCounters()
    cells.withUnsafeMutableBufferPointer { tree.sumCells(in: rect, window: w, into: $0, counters: &counters) }
    let inView = tree.count(in: rect)
    #expect(counters.pointsReported == inView)
    #expect(inView > 20_000)
    #expect(counters.pointsTested * 10 < inView, "tested \(counters.pointsTested) of \(inView)")
  }

  @Test func pointsOffTheMapAreFoundByRectanglesAndNeverSummed() throws {
    let points = [Point(x: 0, y: 89), Point(x: 0, y: -89.5), Point(x: 0, y: 0), Point(x: 170, y: 86)]
    let tree = try CellTree(points: points)
    #expect(tree.count == 4)
    #expect(Set(tree.ids(in: Rect(minX: -1, minY: 85.5, maxX: 171, maxY: 90))) == [0, 3])
    #expect(Set(tree.ids(in: .world)) == [0, 1, 2, 3])
    let rect = Rect(minX: -180, minY: -90, maxX: 180, maxY: 90)
    let w = window(rect, zoom: 0, size: 88)
    var cells = [CellTotals](repeating: CellTotals(), count: w.width * (w.rowHi - w.rowLo + 1))
    var none = NoCounters()
    cells.withUnsafeMutableBufferPointer { tree.sumCells(in: rect, window: w, into: $0, counters: &none) }
    #expect(cells.reduce(0) { $0 + Int($1.count) } == 1, "only the point on the map is in a view's cell")
  }

  @Test func theLeafSizeIsAParameter() throws {
    var p = CellTree.Parameters()
    #expect(p.leafSize == CellTree.Parameters.defaultLeafSize)
    try p.set("leafSize", to: "4")
    #expect(p.leafSize == 4)
    #expect(throws: IndexError.self) { try p.set("leafSize", to: "0") }
    #expect(throws: IndexError.self) { try p.set("nodeSize", to: "4") }
    #expect(throws: IndexError.invalidParameter(name: "leafSize", value: "0", reason: "must be in 1...65536")) {
      try CellTree(points: [], parameters: .init(leafSize: 0))
    }
    let small = try CellTree(points: Fixtures.uniform(3000, seed: 4), parameters: .init(leafSize: 4))
    let large = try CellTree(points: Fixtures.uniform(3000, seed: 4), parameters: .init(leafSize: 256))
    #expect(small.memoryBytes > large.memoryBytes, "more, smaller leaves: more nodes")
  }

  /// 300,000 points: the build's projection, gather and leaves run in
  /// chunks (on every core); the tree is the one a single pass would make,
  /// whatever the threads. Some points are off the map, so ids are not the
  /// sorted order.
  @Test func aBuildInChunksKeepsEveryInvariant() throws {
    var points = Fixtures.clustered(300_000, seed: 12)
      + (0..<100).map { Point(x: Double($0), y: 89.9) }
    // off the map by a hair, where the coding pass checks four at a time and
    // in a chunk's last few, and exactly on the map's edges (on the map)
    let limit = WebMercator.latitudeRange
    points[5] = Point(x: 180.0.nextUp, y: 10)
    points[150_002] = Point(x: (-180.0).nextDown, y: -10)
    points[11] = Point(x: 0, y: limit.upperBound.nextUp)
    points[7] = Point(x: 180, y: limit.upperBound)
    points[9] = Point(x: -180, y: limit.lowerBound)
    points.append(Point(x: 180.0.nextUp, y: 0))
    let projected = Projected(points)
    let tree = try CellTree(points: points), reference = try LinearScanIndex(points: points)
    #expect(tree._invariantViolations().isEmpty)
    #expect(tree.count == points.count)
    for (zoom, rect) in [(0, Rect.world), (3, Rect(minX: -30, minY: 10, maxX: 50, maxY: 60)),
                         (7, Rect(minX: 0, minY: 40, maxX: 8, maxY: 48))] {
      let w = window(rect, zoom: zoom, size: 88)
      var got = [CellTotals](repeating: CellTotals(), count: w.width * (w.rowHi - w.rowLo + 1))
      var none = NoCounters()
      got.withUnsafeMutableBufferPointer { tree.sumCells(in: rect, window: w, into: $0, counters: &none) }
      #expect(same(got, binned(projected, rect, w)), "zoom \(zoom)")
      #expect(tree.ids(in: rect).sorted() == reference.ids(in: rect).sorted(), "zoom \(zoom)")
    }
    let beyond = Rect(minX: -181, minY: -90, maxX: 181, maxY: 90)
    #expect(tree.ids(in: beyond).sorted() == reference.ids(in: beyond).sorted())
    #expect(tree.ids(in: beyond).count == points.count)
  }

  /// The build's passes run in the same chunks on any number of threads:
  /// one thread, two and more give the same tree, point order, node sums and
  /// boxes (seen through every answer and the work each query does), and the
  /// reports record the count.
  @Test(arguments: [2, 3, 8])
  func aBuildOnThreadsIsTheSingleThreadedOne(threads: Int) throws {
    let points = Fixtures.clustered(300_000, seed: 12) + Fixtures.identical(5_000)
      + (0..<100).map { Point(x: Double($0), y: 89.9) }
    let one = try CellTree(points: points, parameters: .init(leafSize: 16, threads: 1))
    let many = try CellTree(points: points, parameters: .init(leafSize: 16, threads: threads))
    #expect(many._invariantViolations().isEmpty)
    #expect(many.ids(in: .world) == one.ids(in: .world), "the same point order")
    #expect(many.parameterValues.contains(ParameterValue("threads", "\(threads)")))
    for (zoom, rect) in [(0, Rect.world), (5, Rect(minX: -30, minY: 10, maxX: 50, maxY: 60))] {
      let w = window(rect, zoom: zoom, size: 88)
      func sums(_ tree: CellTree) -> ([CellTotals], WorkCounters) {
        var got = [CellTotals](repeating: CellTotals(), count: w.width * (w.rowHi - w.rowLo + 1))
        var counters = WorkCounters()
        got.withUnsafeMutableBufferPointer { tree.sumCells(in: rect, window: w, into: $0, counters: &counters) }
        return (got, counters)
      }
      let (a, ca) = sums(one), (b, cb) = sums(many)
      #expect(same(a, b) && ca == cb, "zoom \(zoom)")
    }
    var p = CellTree.Parameters()
    try p.set("threads", to: "4")
    #expect(p.threads == 4)
    try p.set("threads", to: "auto")
    #expect(p.threads == nil)
    #expect(throws: IndexError.self) { try p.set("threads", to: "0") }
  }

  /// The build's sort orders the codes and keeps equal codes in their id
  /// order, on one thread or several: random codes, codes that share their
  /// top digits (a city: the buckets split again and again), runs of equal
  /// codes, and sizes around a cache bucket's.
  @Test(arguments: [1, 2])
  func theSortOrdersCodesAndKeepsTiesInIDOrder(threads: Int) {
    var g = SplitMix64(seed: 31)
    let mask: UInt64 = (1 << 56) - 1
    let cases: [(String, [UInt64])] = [
      ("random", (0..<200_000).map { _ in g.next() & mask }),
      ("one city", (0..<150_000).map { _ in 0x00AB_CD00_0000_0000 | (g.next() & 0xFFFF_FFFF) }),
      ("few codes", (0..<100_000).map { _ in (g.next() % 7) << 40 }),
      ("all equal", [UInt64](repeating: 42, count: 70_000)),
      ("a bucket and one", [UInt64](repeating: 1, count: 1 << 15) + [0]),
      ("small", (0..<300).map { _ in g.next() & mask }),
      ("one", [5]),
      ("none", []),
    ]
    for (name, codes) in cases {
      var keys = codes
      var values = (0..<Int32(codes.count)).map { $0 }
      CellTree.radixSort(&keys, &values, threads: threads)
      let expected = codes.indices.sorted { (codes[$0], $0) < (codes[$1], $1) }
      // the first place that differs, not two arrays of 200,000 in the log
      let wrongValue = values.indices.first { values[$0] != Int32(expected[$0]) }
      let wrongKey = keys.indices.first { keys[$0] != codes[expected[$0]] }
      #expect(values.count == codes.count && wrongValue == nil, "\(name): ties keep their order")
      #expect(keys.count == codes.count && wrongKey == nil, "\(name): the codes move with their values")
    }
  }

  @Test func theBuildIsDeterministic() throws {
    let points = Fixtures.clustered(5000, seed: 6) + Fixtures.identical(100)
    let a = try CellTree(points: points), b = try CellTree(points: points)
    #expect(a.ids(in: .world) == b.ids(in: .world))
    var ca = WorkCounters(), cb = WorkCounters()
    _ = a.count(in: Rect(minX: -10, minY: -10, maxX: 40, maxY: 40), counters: &ca)
    _ = b.count(in: Rect(minX: -10, minY: -10, maxX: 40, maxY: 40), counters: &cb)
    #expect(ca == cb)
  }
}
