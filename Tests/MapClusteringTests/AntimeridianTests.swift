import SpatialIndexes
import _SeededRandom
import Testing
import _SpatialTestSupport
@testable import MapClustering

/// +180° is −180° at every zoom: a point at +180° is in `cell_x` 0 and
/// averaged at −180°, whatever the zoom, the box, the index or the strategy.
/// Which points are in view is still decided on their own coordinates.
@Suite struct AntimeridianTests {
  static let indexNames = allIndexTypes.map { $0.name }

  /// Zooms 0–19, beyond them up to the clusterer's last (30), and two it
  /// takes into that range.
  static let zooms = Array(0...19) + [20, 23, 26, 27, 30, -1, 31]

  /// The largest longitude west of map x 256: in the world's last column.
  static let westOfTheAntimeridian = 180.0.nextDown.nextDown

  /// Points at ±180° (alone, together, duplicated), their neighbours,
  /// points at and beyond the latitude limit and the poles, and points on
  /// cell edges next to the antimeridian at every zoom 0–19.
  static func points(table: ClusterCellTable = .default) -> [Point] {
    let limit = WebMercator.maxLatitude
    var points = [
      // one place written five times: three at +180, two at −180
      Point(x: 180, y: 10.3), Point(x: -180, y: 10.3), Point(x: 180, y: 10.3), Point(x: 180, y: 10.3),
      Point(x: -180, y: 10.3),
      Point(x: 180, y: -40), Point(x: -180, y: 0),  // alone
      Point(x: 180, y: -60), Point(x: 180, y: -60),  // copies, only at +180
      // the latitude limit, and beyond it (never shown)
      Point(x: 180, y: limit), Point(x: -180, y: limit), Point(x: 180, y: -limit),
      Point(x: 180, y: limit.nextUp), Point(x: 180, y: 90), Point(x: -180, y: -90),
      Point(x: Double(180).nextUp, y: 10.3), Point(x: Double(-180).nextDown, y: 0),
      // neighbours
      Point(x: 179.999_999_9, y: 10.3), Point(x: 179.5, y: 10.3), Point(x: -179.999_999_9, y: 10.3),
      Point(x: -179.5, y: 10.3), Point(x: 179.999_999_99, y: -40), Point(x: -179.999_999_99, y: 0),
      // the double below 180, whose map x is 256 as well, and the one below that
      Point(x: 180.0.nextDown, y: 10.3), Point(x: 180.0.nextDown.nextDown, y: 10.3),
    ]
    points += MapFixtures.antimeridian(60, seed: 91)
    // on the edges of the world's last column and of column 1, and on row edges at ±180
    for zoom in 0...19 {
      let c = table.cellSize(zoom: zoom)
      let row = ReferenceClustering.cell(of: Point(x: 0, y: 10.3), zoom: zoom, table: table).row
      let last = ReferenceClustering.cell(of: Point(x: westOfTheAntimeridian, y: 0), zoom: zoom, table: table).column
      let lat = Fixtures.edgeLatitude(row: row, zoom: zoom, cellSize: c)
      for column in [last, 1] {
        guard let lon = Fixtures.edgeLongitude(column: column, zoom: zoom, cellSize: c) else { continue }
        points.append(Point(x: lon, y: 10.3))
        if let lat { points.append(Point(x: lon, y: lat)) }
      }
      if let lat {
        points += [Point(x: 180, y: lat), Point(x: -180, y: lat), Point(x: 180, y: lat)]
      }
    }
    return points
  }

  /// Boxes a few cells wide at `zoom` (the per-cell strategy asks a query a
  /// cell): east edge +180° (not reaching −180°), the meridian +180° alone,
  /// west edge −180°, the meridian −180° alone, both sides (two
  /// rectangles), boxes starting or ending on a column's edge; each in
  /// bands of rows around the data and at the top and bottom of the map
  /// (reaching past the limit to the poles, cut to the map).
  static func areas(zoom: Int, table: ClusterCellTable = .default) -> [VisibleArea] {
    let z = min(30, max(0, zoom))
    let s = WebMercator.scale(zoom: z), c = table.cellSize(zoom: z)
    // under 180°, so the two rectangles across the antimeridian never overlap
    let span = min(179, 2.5 * c / (256 * s) * 360)
    func band(_ lat: Double) -> (Double, Double) {
      let y = WebMercator.y(latitude: lat) * s
      return (WebMercator.latitude(y: (y + 1.5 * c) / s), WebMercator.latitude(y: (y - 1.5 * c) / s))
    }
    let bands = [band(10.3), band(-40), band(0), band(-60),
                 (WebMercator.latitude(y: 2.5 * c / s), 90.0),
                 (-90.0, WebMercator.latitude(y: 256 - 2.5 * c / s))]
    let last = ReferenceClustering.cell(of: Point(x: westOfTheAntimeridian, y: 0), zoom: z, table: table).column
    let lastEdge = Fixtures.edgeLongitude(column: last, zoom: z, cellSize: c) ?? 180 - span
    let firstEdge = Fixtures.edgeLongitude(column: 1, zoom: z, cellSize: c) ?? -180 + span
    var areas: [VisibleArea] = []
    for (south, north) in bands {
      func box(_ west: Double, _ east: Double) -> Rect { Rect(minX: west, minY: south, maxX: east, maxY: north) }
      areas += [
        VisibleArea(zoom: zoom, rect: box(180 - span, 180)),
        VisibleArea(zoom: zoom, rect: box(180, 180)),
        VisibleArea(zoom: zoom, rect: box(-180, -180 + span)),
        VisibleArea(zoom: zoom, rect: box(-180, -180)),
        VisibleArea(zoom: zoom, east: box(180 - span, 180), west: box(-180, -180 + span)),
        VisibleArea(zoom: zoom, east: box(180, 180), west: box(-180, -180)),
        VisibleArea(zoom: zoom, rect: box(lastEdge, 180)),
        VisibleArea(zoom: zoom, rect: box(-180, firstEdge)),
      ]
      if firstEdge < lastEdge {  // two columns or more: the rectangles do not overlap
        areas.append(VisibleArea(zoom: zoom, east: box(lastEdge, 180), west: box(-180, firstEdge)))
      }
    }
    if span >= 179 { areas.append(VisibleArea(zoom: zoom, rect: .world)) }
    if z >= 16 {  // more cells than the dense buffer holds: every strategy sums them sparsely
      let wide = Rect(minX: 0, minY: -70, maxX: 180, maxY: 70)
      areas += [VisibleArea(zoom: zoom, rect: wide),
                VisibleArea(zoom: zoom, east: wide, west: Rect(minX: -180, minY: -70, maxX: -1, maxY: 70))]
    }
    return areas
  }

  /// The longitudes on the map that the clusterer takes as +180° are those
  /// whose map x is 256, the world's east end: +180° and the double just
  /// below it.
  @Test func theAntimeridianIsMapX256() {
    for lon in [180, 180.0.nextDown, 180.0.nextDown.nextDown, 179.999_999_9, -180, 0] {
      #expect(MapCells.isAntimeridian(lon) == (WebMercator.x(longitude: lon) == 256), "\(lon)")
    }
    #expect(MapCells.isAntimeridian(180) && MapCells.isAntimeridian(180.0.nextDown))
    #expect(!MapCells.isAntimeridian(180.0.nextDown.nextDown) && !MapCells.isAntimeridian(-180))
    #expect(MapCells.binX(longitude: 180) == 0 && MapCells.binUnits(longitude: 180) == -1_800_000_000)
  }

  /// Every index and strategy gives the reference's markers at every zoom.
  @Test(arguments: indexNames)
  func everyIndexAndStrategyAtEveryZoom(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try check(type, table: .default)
  }

  /// The same with a table whose cells divide the world at zooms 0–3 (128
  /// points) and nowhere else, and whose other zooms are no multiple of 11.
  @Test(arguments: indexNames)
  func aCustomCellTable(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    let table = try ClusterCellTable(otherwise: 40, bands: [(zooms: 0...3, size: 128), (zooms: 10...12, size: 24)])
    try check(type, table: table)
  }

  private func check<I: DescribedIndex>(_ type: I.Type, table: ClusterCellTable) throws {
    let points = Self.points(table: table)
    var clusterer = try Clusterer<I>(points: points, cellTable: table)
    var markers: [ClusterMarker] = [], wrong: Set<Int> = [], shown = 0
    for zoom in Self.zooms {
      for area in Self.areas(zoom: zoom, table: table) {
        let expected = ReferenceClustering.markers(points, area: area, table: table)
        shown += expected.isEmpty ? 0 : 1
        for strategy in ClusterStrategy.allCases {
          clusterer.cluster(area, strategy: strategy, into: &markers)
          if markers != expected {
            if wrong.isEmpty {
              Issue.record("\(I.name) \(strategy) \(area): \(markers), expected \(expected)")
            }
            wrong.insert(zoom)
          }
        }
      }
    }
    #expect(wrong.isEmpty, "\(I.name): wrong markers at zooms \(wrong.sorted())")
    #expect(shown > 500, "most areas show points")
  }

  /// What the reference says, stated without it: at every zoom, +180° and
  /// −180° share `cell_x` 0 and the mean counts +180° as −180°, whichever
  /// side of the antimeridian the box lies on.
  @Test(arguments: indexNames)
  func plusAndMinus180ShareColumnZero(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try checkColumnZero(type)
  }

  private func checkColumnZero<I: DescribedIndex>(_ type: I.Type) throws {
    let points = [Point(x: 180, y: 10.3), Point(x: -180, y: 10.3), Point(x: 180, y: 10.3),
                  Point(x: 180, y: -40), Point(x: 20, y: 0)]
    var clusterer = try Clusterer<I>(points: points)
    for zoom in 0...30 {
      let c = ClusterCellTable.default.cellSize(zoom: zoom)
      let w = c / WebMercator.worldSize(zoom: zoom) * 360  // a cell's width in degrees
      #expect(clusterer.cell(of: Point(x: 180, y: 10.3), zoom: zoom).column == 0)
      #expect(clusterer.cell(of: Point(x: 180, y: 10.3), zoom: zoom) == clusterer.cell(of: Point(x: -180, y: 10.3), zoom: zoom))
      let both = VisibleArea(zoom: zoom, east: Rect(minX: 180 - w, minY: 10.29, maxX: 180, maxY: 10.31),
                             west: Rect(minX: -180, minY: 10.29, maxX: -180 + w, maxY: 10.31))
      let east = VisibleArea(zoom: zoom, rect: Rect(minX: 180 - w, minY: 10.29, maxX: 180, maxY: 10.31))
      let west = VisibleArea(zoom: zoom, rect: Rect(minX: -180, minY: 10.29, maxX: -180 + w, maxY: 10.31))
      let lone = VisibleArea(zoom: zoom, rect: Rect(minX: 179, minY: -41, maxX: 180, maxY: -39))
      for strategy in ClusterStrategy.allCases {
        let what = "zoom \(zoom) \(strategy)"
        let a = clusterer.markers(for: both, strategy: strategy)
        #expect(a.map(\.key.column) == [0] && a.map(\.count) == [3], "\(what)")
        #expect(a.map(\.longitudeE7) == [-1_800_000_000], "\(what)")
        // the box stops at +180: its two points there, in column 0, at −180
        let b = clusterer.markers(for: east, strategy: strategy)
        #expect(b.map(\.key.column) == [0] && b.map(\.count) == [2], "\(what)")
        #expect(b.map(\.longitudeE7) == [-1_800_000_000], "\(what)")
        // the box starts at −180: the point stored at −180 only
        let d = clusterer.markers(for: west, strategy: strategy)
        #expect(d.map(\.key.column) == [0] && d.map(\.id) == [1], "\(what)")
        #expect(d.first?.coordinate == Point(x: -180, y: 10.3), "\(what)")
        // a lone point at +180 is a marker at −180 that names it
        let e = clusterer.markers(for: lone, strategy: strategy)
        #expect(e.map(\.key.column) == [0] && e.map(\.id) == [3], "\(what)")
        #expect(e.first?.coordinate == Point(x: -180, y: -40) && e.first?.longitudeE7 == -1_800_000_000, "\(what)")
      }
    }
  }

  /// Points moved onto +180° and −180° and off again: the markers stay the
  /// reference's over the new positions, for each index that moves points
  /// (and `aggregate` through the clusterer's own totals by cell); a diff of
  /// steps over the antimeridian adds and removes exactly what the
  /// reference's markers say.
  @Test func movesOntoTheAntimeridianAndTheMarkerDiff() throws {
    let world = BucketQuadtree.Parameters(bounds: .world)
    try check(LinearScanIndex.self, .init())
    try check(BucketQuadtree.self, world)
    try check(GridHashIndex.self, .init())
    try check(BufferedIndex<KDTreeIndex>.self, BufferedParameters(base: .init(), rebuildShare: 0.02))
    try check(BufferedIndex<CellTree>.self, BufferedParameters(base: .init(), rebuildShare: 0.02))

    func check<I: DynamicSpatialIndex & DescribedIndex>(_ type: I.Type, _ parameters: I.Parameters) throws {
      // on the map: the quadtree's bounds are the world
      let start = (Self.points() + Fixtures.clustered(300, blobs: 3, seed: 92)).filter { Rect.world.contains($0) }
      var clusterer = try Clusterer<I>(points: start, parameters: parameters)
      for strategy in ClusterStrategy.allCases { _ = clusterer.markers(for: Self.areas(zoom: 0)[0], strategy: strategy) }
      var g = SplitMix64(seed: 93)
      var wrong: Set<Int> = [], wrongDiffs: Set<Int> = []
      for round in 0..<3 {
        // some points onto ±180 (lone, or onto a place at the other side), some off
        for _ in 0..<40 {
          let id = Int32(g.nextInt(below: start.count))
          let lat = [10.3, -40, 0, -60, g.nextDouble(in: -80, 80)][g.nextInt(below: 5)]
          let lon = [180.0, -180, 180, g.nextDouble(in: 179, 180), g.nextDouble(in: -180, -179)][g.nextInt(below: 5)]
          #expect(try clusterer.move(id: id, to: Point(x: lon, y: lat)))
        }
        var diff = MarkerDiff()
        var previous: [ClusterMarker] = []
        for zoom in 0...19 {
          for area in Self.areas(zoom: zoom) {
            let expected = ReferenceClustering.markers(clusterer.points, area: area)
            for strategy in ClusterStrategy.allCases {
              let markers = clusterer.markers(for: area, strategy: strategy)
              if markers != expected {
                if wrong.isEmpty { Issue.record("\(I.name) round \(round) \(strategy) \(area): \(markers), expected \(expected)") }
                wrong.insert(zoom)
              }
            }
            diff.update(with: clusterer.markers(for: area, strategy: .aggregate))
            let before = Set(previous.map(\.key)), after = Set(expected.map(\.key))
            if Set(diff.added.map(\.key)) != after.subtracting(before)
              || Set(diff.removed.map(\.key)) != before.subtracting(after) || diff.current != expected {
              if wrongDiffs.isEmpty { Issue.record("\(I.name) round \(round) diff \(area): \(diff.current), expected \(expected)") }
              wrongDiffs.insert(zoom)
            }
            previous = expected
          }
        }
      }
      #expect(wrong.isEmpty, "\(I.name): wrong markers after moves at zooms \(wrong.sorted())")
      #expect(wrongDiffs.isEmpty, "\(I.name): wrong diffs at zooms \(wrongDiffs.sorted())")
    }
  }
}
