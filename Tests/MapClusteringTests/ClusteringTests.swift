import SpatialIndexes
import Testing
import _SpatialTestSupport
@testable import MapClustering
import _SeededRandom

/// Seeded viewports and point sets for the clustering and tap tests.
enum MapFixtures {
  /// A viewport whose centre is `p` moved by up to `spread` screen points.
  static func viewport(near p: Point, zoom: Int, spread: Double, size: (Double, Double),
                       _ g: inout SplitMix64) -> Viewport {
    let s = WebMercator.scale(zoom: zoom)
    let x = WebMercator.x(longitude: p.x) * s + g.nextDouble(in: -spread, spread)
    let y = WebMercator.y(latitude: p.y) * s + g.nextDouble(in: -spread, spread)
    var lon = WebMercator.longitude(x: x / s)
    lon -= ((lon + 180) / 360).rounded(.down) * 360
    return Viewport(center: Point(x: lon, y: WebMercator.latitude(y: y / s)), zoom: zoom,
                    width: size.0, height: size.1)
  }

  /// Viewports over `points` at zooms 0–19: near data points, across the
  /// antimeridian, and a few of odd sizes (wider than the world at low zooms).
  static func viewports(over points: [Point], count: Int, seed: UInt64) -> [Viewport] {
    var g = SplitMix64(seed: seed)
    var result: [Viewport] = []
    for k in 0..<count {
      let zoom = k < 20 ? k : g.nextInt(below: 20)
      var size = Viewport.phone
      if k % 7 == 3 { size = (g.nextDouble(in: 100, 1200), g.nextDouble(in: 100, 1000)) }
      let anchor: Point
      if k % 5 == 1 || points.isEmpty {  // across the antimeridian
        anchor = Point(x: g.nextUnit() < 0.5 ? 180 : -180, y: g.nextDouble(in: -60, 60))
      } else {
        anchor = points[g.nextInt(below: points.count)]
      }
      result.append(viewport(near: anchor, zoom: zoom, spread: 300, size: size, &g))
    }
    return result
  }

  /// A blob of points straddling the antimeridian.
  static func antimeridian(_ n: Int, seed: UInt64) -> [Point] {
    var g = SplitMix64(seed: seed)
    return (0..<n).map { _ in
      var lon = 180 + 0.5 * g.nextGaussian()
      if lon > 180 { lon -= 360 }
      return Point(x: lon, y: 10 + 0.5 * g.nextGaussian())
    }
  }

  static let sets: [Fixture] = [
    Fixture("uniform", Fixtures.uniform(3000, seed: 21)),
    Fixture("clustered", Fixtures.clustered(3000, seed: 22) + antimeridian(300, seed: 23)),
    Fixture("duplicates", (0..<2500).map { i in
      Point(x: Double(i % 5) * 0.001 + 2.35, y: Double(i % 3) * 0.001 + 48.85)
    } + Fixtures.identical(200, at: Point(x: -179.5, y: -20))),
    Fixture("cell-edges", Fixtures.cellEdges()),
  ]
}

@Suite struct ClusteringTests {
  static let indexNames = allIndexTypes.map { $0.name }

  @Test(arguments: indexNames)
  func sameMarkersForEveryIndexAndStrategy(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    for fixture in MapFixtures.sets {
      try check(type, fixture)
    }
  }

  private func check<I: DescribedIndex>(_ type: I.Type, _ fixture: Fixture) throws {
    var clusterer = try Clusterer<I>(points: fixture.points)
    // per-cell and single-pass without the per-point table, as above
    // `_tablePointLimit` points: each cell and sum from the point itself
    var tableless = try Clusterer<I>(points: fixture.points)
    tableless._tablePointLimit = 0
    var markers: [ClusterMarker] = []
    var failures = 0
    let viewports = MapFixtures.viewports(over: fixture.points, count: 60, seed: 31)
    var nonEmpty = 0
    for v in viewports {
      let expected = ReferenceClustering.markers(fixture.points, viewport: v)
      if !expected.isEmpty { nonEmpty += 1 }
      for strategy in ClusterStrategy.allCases {
        clusterer.cluster(v, strategy: strategy, into: &markers)
        if markers != expected && failures < 3 {
          failures += 1
          let extra = markers.filter { !expected.contains($0) }.prefix(3)
          let missing = expected.filter { !markers.contains($0) }.prefix(3)
          Issue.record("\(I.name) \(strategy) \(fixture) \(v): extra \(extra), missing \(missing)")
        }
      }
      for strategy in [ClusterStrategy.perCell, .singlePass] {
        tableless.cluster(v, strategy: strategy, into: &markers)
        if markers != expected && failures < 3 {
          failures += 1
          Issue.record("\(I.name) \(strategy) without the table \(fixture) \(v): \(markers.count) markers, expected \(expected.count)")
        }
      }
    }
    #expect(tableless._tableStorage == nil, "the steps made no table")
    #expect(nonEmpty > viewports.count / 2, "\(fixture): too few viewports show anything")
  }

  /// Views whose edges run exactly through points (a point on an edge is
  /// inside), views reaching the map's latitude limit and past it to the
  /// poles (cut to the map), with points on the limit, beyond it and at
  /// ±180: every index and strategy gives the reference's markers.
  @Test(arguments: indexNames)
  func pointsOnViewEdgesAndAtTheLatitudeLimit(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try checkEdgesAndLimits(type)
  }

  private func checkEdgesAndLimits<I: DescribedIndex>(_ type: I.Type) throws {
    let limit = WebMercator.maxLatitude
    var points = Fixtures.clustered(1500, seed: 41) + MapFixtures.antimeridian(100, seed: 42)
    for lon in [-180.0, -179.5, 0, 90, 180] {
      for lat in [limit, -limit, limit.nextDown, -limit.nextDown, limit.nextUp, 89, 90, -90, 0] {
        points.append(Point(x: lon, y: lat))
      }
    }
    // boxes with two points for corners: any two at zooms 0-5; at 6-19, a
    // point and a companion added up to 1,000 screen points away (a box
    // of thousands of cells would take the per-cell strategy minutes here)
    var g = SplitMix64(seed: 43)
    var corners: [(zoom: Int, Point, Point)] = []
    for k in 0..<80 {
      let zoom = k % 20, p = points[g.nextInt(below: points.count)]
      if zoom <= 5 {
        corners.append((zoom, p, points[g.nextInt(below: points.count)]))
        continue
      }
      let s = WebMercator.scale(zoom: zoom)
      let x = WebMercator.x(longitude: p.x) * s + g.nextDouble(in: -1000, 1000)
      let y = WebMercator.y(latitude: p.y) * s + g.nextDouble(in: -1000, 1000)
      let q = Point(x: max(-180, min(180, WebMercator.longitude(x: x / s))),
                    y: WebMercator.latitude(y: y / s))
      points.append(q)
      corners.append((zoom, p, q))
    }
    var areas = corners.map { zoom, p, q in
      VisibleArea(zoom: zoom, rect: Rect(minX: min(p.x, q.x), minY: min(p.y, q.y),
                                         maxX: max(p.x, q.x), maxY: max(p.y, q.y)))
    }
    for zoom in 0...4 {
      // the map's whole height (and a box to the poles, cut to it), one edge on a point
      let p = points[g.nextInt(below: points.count)]
      areas.append(VisibleArea(zoom: zoom, rect: Rect(minX: p.x, minY: -limit, maxX: 180, maxY: limit)))
      areas.append(VisibleArea(zoom: zoom, rect: Rect(minX: -180, minY: -90, maxX: p.x, maxY: 90)))
    }
    var clusterer = try Clusterer<I>(points: points)
    var tableless = try Clusterer<I>(points: points)
    tableless._tablePointLimit = 0
    var markers: [ClusterMarker] = [], failures = 0, onEdges = 0
    for area in areas {
      let expected = ReferenceClustering.markers(points, area: area)
      onEdges += expected.isEmpty ? 0 : 1
      for strategy in ClusterStrategy.allCases {
        clusterer.cluster(area, strategy: strategy, into: &markers)
        if markers != expected && failures < 3 {
          failures += 1
          Issue.record("\(I.name) \(strategy) \(area): \(markers.count) markers, expected \(expected.count)")
        }
      }
      for strategy in [ClusterStrategy.perCell, .singlePass] {
        tableless.cluster(area, strategy: strategy, into: &markers)
        if markers != expected && failures < 3 {
          failures += 1
          Issue.record("\(I.name) \(strategy) without the table \(area): \(markers.count) markers, expected \(expected.count)")
        }
      }
    }
    #expect(tableless._tableStorage == nil, "the steps made no table")
    #expect(onEdges > areas.count * 3 / 4, "most of these views show points")
  }

  /// A viewport read back from a file is its rectangles and its zoom: the
  /// markers must be the viewport's own.
  @Test func rectanglesAndZoomClusterAsTheViewport() throws {
    let points = Fixtures.clustered(3000, seed: 3) + MapFixtures.antimeridian(200, seed: 5)
    var clusterer = try Clusterer<KDTreeIndex>(points: points)
    for v in MapFixtures.viewports(over: points, count: 300, seed: 4) {
      let area = VisibleArea(zoom: v.zoom, rects: v.rects)
      #expect(area == v.visibleArea, "\(v)")
      #expect(clusterer.markers(for: area) == clusterer.markers(for: v), "\(v)")
    }
  }

  @Test func antimeridianRangesThatShareACell() throws {
    // zoom 1: the world is 512 points wide, 88-point cells: columns 0...5;
    // a 500-point viewport across the antimeridian sees column 3 from both sides
    var g = SplitMix64(seed: 8)
    let points = (0..<2000).map { _ in
      Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -80, 80))
    }
    var clusterer = try Clusterer<KDTreeIndex>(points: points)
    for lon in [-179.0, -170, 175, 179.5, 180] {
      let v = Viewport(center: Point(x: lon, y: 0), zoom: 1, width: 500, height: 300)
      #expect(v.rects.count == 2)
      let expected = ReferenceClustering.markers(points, viewport: v)
      for strategy in ClusterStrategy.allCases {
        #expect(clusterer.markers(for: v, strategy: strategy) == expected, "\(strategy) \(v)")
      }
    }
  }

  @Test func pointsOnCellEdgesBelongToTheCellEastAndSouth() throws {
    let table = ClusterCellTable.default
    var checked = 0
    for z in [0, 3, 12, 13, 16, 19] {
      let c = table.cellSize(zoom: z)
      let s = WebMercator.scale(zoom: z)
      let places = [Point(x: 10, y: 45), Point(x: -120, y: -33), Point(x: 139.7, y: 35.7)]
      for place in places {
        let col = Int((WebMercator.x(longitude: place.x) * s / c).rounded(.down))
        let row = Int((WebMercator.y(latitude: place.y) * s / c).rounded(.down))
        guard let lon = Fixtures.edgeLongitude(column: col, zoom: z, cellSize: c),
              let lat = Fixtures.edgeLatitude(row: row, zoom: z, cellSize: c) else { continue }
        let p = Point(x: lon, y: lat)
        let clusterer = try Clusterer<LinearScanIndex>(points: [p])
        #expect(clusterer.cell(of: p, zoom: z) == (col, row))
        // one marker for the point, in that cell, whichever strategy
        var c2 = clusterer
        let v = Viewport(center: p, zoom: z)
        for strategy in ClusterStrategy.allCases {
          let markers = c2.markers(for: v, strategy: strategy)
          #expect(markers.map(\.key) == [MarkerKey(zoom: z, column: col, row: row, count: 1)])
        }
        checked += 1
      }
    }
    #expect(checked >= 10)  // 12 of 18 have exactly representable edges
  }

  @Test func edgeFixtureHasEnoughPoints() {
    #expect(Fixtures.cellEdges().count >= 150)
  }

  @Test func everyVisiblePointIsCountedOnce() throws {
    let points = Fixtures.cellEdges()
    var clusterer = try Clusterer<KDTreeIndex>(points: points)
    let index = try LinearScanIndex(points: points)
    for v in MapFixtures.viewports(over: points, count: 80, seed: 12) {
      let visible = Set(v.rects.flatMap { index.ids(in: $0) }).count
      for strategy in ClusterStrategy.allCases {
        let total = clusterer.markers(for: v, strategy: strategy).reduce(0) { $0 + $1.count }
        #expect(total == visible, "\(strategy) \(v)")
      }
    }
  }

  @Test func markerSideFormula() {
    #expect(ClusterMarker.markerSide(count: 1) == 25)
    #expect(ClusterMarker.markerSide(count: 2) == 26)  // 44 / (1 + e^-0.396) = 26.30
    #expect(ClusterMarker.markerSide(count: 10) == 30)  // 29.92
    #expect(ClusterMarker.markerSide(count: 100) == 38)  // 38.24
    #expect(ClusterMarker.markerSide(count: 500) == 43)  // 42.83
    #expect(ClusterMarker.markerSide(count: 855) == 43)  // 43.49999
    #expect(ClusterMarker.markerSide(count: 856) == 44)
    #expect(ClusterMarker.markerSide(count: 1000) == 44)
    #expect(ClusterMarker.markerSide(count: 100_000_000) == 44)
    for n in 0..<5000 {
      #expect(ClusterMarker.markerSide(count: n) == ClusterMarker.markerSideFormula(count: n))
    }
  }

  @Test func cellTableDefaultsAndCustom() throws {
    let t = ClusterCellTable.default
    for z in 0...12 { #expect(t.cellSize(zoom: z) == 88) }
    for z in 13...15 { #expect(t.cellSize(zoom: z) == 64) }
    for z in 16...18 { #expect(t.cellSize(zoom: z) == 32) }
    #expect(t.cellSize(zoom: 19) == 16)
    #expect(t.cellSize(zoom: 20) == 88)
    #expect(t.cellSize(zoom: -1) == 88)
    let custom = try ClusterCellTable(otherwise: 100, bands: [(zooms: 3...5, size: 50), (zooms: 5...5, size: 20)])
    #expect([2, 3, 4, 5, 6, 25].map { custom.cellSize(zoom: $0) } == [100, 50, 50, 20, 100, 100])
  }

  @Test func customTableChangesTheGrid() throws {
    let points = Fixtures.clustered(2000, seed: 40)
    // three families of nested grids (odd parts 5, 1 and 3): the clusterer stores
    // cell numbers for two, so zooms 10–12 take the computed path
    let table = try ClusterCellTable(
      otherwise: 40, bands: [(zooms: 0...3, size: 128), (zooms: 10...12, size: 24)])
    var clusterer = try Clusterer<KDTreeIndex>(points: points, cellTable: table)
    for v in MapFixtures.viewports(over: points, count: 30, seed: 41) {
      let expected = ReferenceClustering.markers(points, viewport: v, table: table)
      for strategy in ClusterStrategy.allCases {
        #expect(clusterer.markers(for: v, strategy: strategy) == expected)
      }
    }
  }

  @Test func singlePointMarkerIsThePoint() throws {
    let p = Point(x: 2.352_221_9, y: 48.856_613_4)  // not a multiple of 1e-7
    let points = [Point(x: -70, y: -30), p]
    var clusterer = try Clusterer<KDTreeIndex>(points: points)
    let markers = clusterer.markers(for: Viewport(center: p, zoom: 12))
    #expect(markers.count == 1)
    #expect(markers.first?.id == 1)
    #expect(markers.first?.coordinate == p)
    #expect(markers.first?.side == 25)
  }

  @Test func meanIsTheRoundedFixedPointMean() throws {
    let cases: [([Point], Point)] = [
      ([Point(x: 1, y: 2), Point(x: 3, y: 4)], Point(x: 2, y: 3)),
      ([Point(x: 0.1, y: 0.2), Point(x: 0.2, y: 0.4)], Point(x: 0.15, y: 0.3)),
      // 70 / 3 and 7 / 3 in 1e-7° units, rounded
      ([Point(x: 10, y: 1), Point(x: 20, y: 2), Point(x: 40, y: 4)], Point(x: 23.333_333_3, y: 2.333_333_3)),
      // halves round away from zero: −0.00000015 is −1.5 units
      ([Point(x: -0.000_000_1, y: 0.000_000_1), Point(x: -0.000_000_2, y: 0.000_000_2)],
       Point(x: -0.000_000_2, y: 0.000_000_2)),
      (Array(repeating: Point(x: -3.25, y: 7.5), count: 5), Point(x: -3.25, y: 7.5)),
    ]
    for (points, mean) in cases {
      var clusterer = try Clusterer<LinearScanIndex>(points: points)
      for strategy in ClusterStrategy.allCases {
        let markers = clusterer.markers(for: Viewport(center: Point(x: 0, y: 0), zoom: 0),
                                        strategy: strategy)
        #expect(markers.count == 1)
        #expect(markers.first?.coordinate == mean)
        #expect(markers.first?.count == points.count)
        #expect(markers.first?.id == nil)
      }
    }
  }

  @Test func markersComeOutInKeyOrderAndTheBufferIsReused() throws {
    let points = Fixtures.uniform(5000, seed: 50)
    var clusterer = try Clusterer<KDTreeIndex>(points: points)
    var markers: [ClusterMarker] = []
    for v in MapFixtures.viewports(over: points, count: 40, seed: 51) {
      clusterer.cluster(v, strategy: .singlePass, into: &markers)
      #expect(zip(markers, markers.dropFirst()).allSatisfy { $0.key < $1.key })
    }
  }
}
