import _SeededRandom
import SpatialIndexes
import Testing
import _SpatialTestSupport
@testable import MapClustering

/// `aggregate` over an index that forms no groups (the linear scan, a
/// dynamic index after a move) adds whole zoom-7 cells from the clusterer's
/// own totals and reads only the points along a view's edges: the markers
/// are a single pass's, bit for bit, before and after moves.
@Suite struct CellPyramidTests {
  /// Clustered points, points on cell edges (zoom 7's among them), the poles,
  /// ±180°, latitudes off the map, duplicates.
  static let points: [Point] = {
    var p = Fixtures.clustered(4000, blobs: 8, seed: 7) + Fixtures.cellEdges() + Fixtures.identical(30)
    p += [Point(x: 180, y: 0), Point(x: -180, y: 0), Point(x: 0, y: 90), Point(x: 0, y: -90),
          Point(x: 10, y: WebMercator.maxLatitude), Point(x: 10, y: -WebMercator.maxLatitude),
          Point(x: 10, y: 89), Point(x: -10, y: -87)]
    let c = ClusterCellTable.default.cellSize(zoom: 7)
    for col in [0, 1, 100, 186, 371, 372] {
      for row in [0, 1, 150, 200, 371] {
        if let lon = Fixtures.edgeLongitude(column: col, zoom: 7, cellSize: c),
           let lat = Fixtures.edgeLatitude(row: row, zoom: 7, cellSize: c) {
          p.append(Point(x: lon, y: lat))
        }
      }
    }
    return p
  }()

  /// Seeded views at zooms 0–8, antimeridian views, and views whose edges
  /// lie exactly on zoom-7 cell edges.
  static let views: [VisibleArea] = {
    var g = SplitMix64(seed: 99)
    var views: [VisibleArea] = []
    for _ in 0..<120 {
      let zoom = g.nextInt(below: 9)
      let center = Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -80, 80))
      views.append(Viewport(center: center, zoom: zoom, width: 1200, height: 800).visibleArea)
    }
    views.append(Viewport(center: Point(x: 180, y: 0), zoom: 3, width: 1200, height: 800).visibleArea)
    views.append(Viewport(center: Point(x: 0, y: 0), zoom: 0, width: 4096, height: 4096).visibleArea)
    let c = ClusterCellTable.default.cellSize(zoom: 7)
    // exactly on the edge where a double lies there, else the nearest
    let lon = { (col: Int) in
      Fixtures.edgeLongitude(column: col, zoom: 7, cellSize: c) ?? WebMercator.longitude(x: Double(col) * c / 128)
    }
    let lat = { (row: Int) in
      Fixtures.edgeLatitude(row: row, zoom: 7, cellSize: c) ?? WebMercator.latitude(y: Double(row) * c / 128)
    }
    for zoom in [2, 5, 7] {
      views.append(VisibleArea(zoom: zoom, rect: Rect(minX: lon(100), minY: lat(200), maxX: lon(186), maxY: lat(150))))
      views.append(VisibleArea(zoom: zoom, east: Rect(minX: lon(371), minY: lat(371), maxX: 180, maxY: lat(1)),
                               west: Rect(minX: -180, minY: lat(371), maxX: lon(1), maxY: lat(1))))
    }
    return views
  }()

  func expectAggregateIsSinglePass<I: DescribedIndex>(_ clusterer: inout Clusterer<I>, _ what: String) {
    for (v, view) in Self.views.enumerated() {
      let expected = clusterer.markers(for: view, strategy: .singlePass)
      #expect(clusterer.markers(for: view, strategy: .aggregate) == expected, "\(what), view \(v): \(view)")
    }
  }

  /// The grids of the default cells: zoom z has (372 >> (7 − z)) + 1 columns,
  /// the partial last one holding +180°; zooms 4 and 7 are kept.
  @Test func theDefaultCellsNestZoomByZoom() {
    #expect(_CellPyramid.nests(.default))
    #expect(_CellPyramid.columns(.default) == [3, 6, 12, 24, 47, 94, 187, 373])
    #expect(_CellPyramid.bytes(table: .default) == (47 * 47 + 373 * 373) * 24)
  }

  @Test func theLinearScanAddsWholeCellsExactly() throws {
    var clusterer = try Clusterer<LinearScanIndex>(points: Self.points)
    expectAggregateIsSinglePass(&clusterer, "linear")
  }

  @Test func movesKeepTheTotalsExact() throws {
    try check(LinearScanIndex.self, .init())
    try check(GridHashIndex.self, .init())
    try check(BucketQuadtree.self, .init(bounds: .world))

    func check<I: DynamicSpatialIndex & DescribedIndex>(_ type: I.Type, _ parameters: I.Parameters) throws {
      var clusterer = try Clusterer<I>(points: Self.points, parameters: parameters)
      _ = clusterer.markers(for: Self.views[0], strategy: .aggregate)  // the totals exist before the moves
      let copy = clusterer
      var g = SplitMix64(seed: 5)
      var moves: [PointMove] = []
      for _ in 0..<3000 {
        let id = Int32(g.nextInt(below: Self.points.count)), p = Self.points[Int(id)]
        let to: Point = switch g.nextInt(below: 6) {
        case 0: Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -85, 85))  // another cell
        case 1: Point(x: p.x, y: 88)  // off the map, then maybe back
        case 2: Self.points[g.nextInt(below: Self.points.count)]  // onto another point, an edge
        default: Point(x: min(180, max(-180, p.x + g.nextDouble(in: -0.001, 0.001))), y: p.y)
        }
        moves.append(PointMove(id: id, to: to))
      }
      // a lone point that leaves its cell empty and another that is left alone in one
      moves += [PointMove(id: 0, to: Point(x: -170, y: -60)), PointMove(id: 1, to: Point(x: -170.5, y: -60))]
      try clusterer.move(moves)
      expectAggregateIsSinglePass(&clusterer, "\(I.name) after moves")
      var fresh = try Clusterer<LinearScanIndex>(points: clusterer.points)
      for view in Self.views {
        #expect(clusterer.markers(for: view, strategy: .aggregate) == fresh.markers(for: view, strategy: .singlePass))
      }
      // the copy taken before the moves has its own totals
      var old = copy, original = try Clusterer<LinearScanIndex>(points: Self.points)
      for view in Self.views {
        #expect(old.markers(for: view, strategy: .aggregate) == original.markers(for: view, strategy: .singlePass))
      }
    }
  }

  /// The work follows the view's edges, not its points: a view of the world
  /// over 50,000 points reads a few hundred of them (deterministic counters).
  @Test func aWorldViewReadsOnlyItsEdges() throws {
    var clusterer = try Clusterer<GridHashIndex>(points: Fixtures.clustered(50_000, seed: 3))
    _ = try clusterer.move(id: 0, to: Point(x: 1, y: 1))  // no groups after a move
    #expect(clusterer.index.groupOrder.isEmpty)
    for zoom in 0...3 {
      let view = Viewport(center: Point(x: 10, y: 30), zoom: zoom, width: 1200, height: 800).visibleArea
      var single = WorkCounters(), aggregate = WorkCounters()
      var markers: [ClusterMarker] = [], again: [ClusterMarker] = []
      clusterer.cluster(view, strategy: .singlePass, into: &markers, counters: &single)
      clusterer.cluster(view, strategy: .aggregate, into: &again, counters: &aggregate)
      #expect(again == markers)
      #expect(single.pointsReported > 20_000, "zoom \(zoom)")
      #expect(aggregate.pointsReported * 20 < single.pointsReported, "zoom \(zoom): \(aggregate) against \(single)")
    }
  }

  /// Another cell table: 60-point cells nest as 88-point cells do, so they
  /// have a pyramid; 88 then 60 points from zoom 4 do not, and take a single pass.
  @Test(arguments: [false, true])
  func anotherCellTable(nests: Bool) throws {
    let table = nests
      ? try ClusterCellTable(otherwise: 60, bands: [])
      : try ClusterCellTable(otherwise: 60, bands: [(zooms: 0...3, size: 88)])
    var clusterer = try Clusterer(index: LinearScanIndex(points: Self.points), points: Self.points, cellTable: table)
    let before = clusterer.memoryBytes(for: .aggregate)  // counted before it is made
    #expect((clusterer._pyramid() != nil) == nests)
    #expect(_CellPyramid.nests(table) == nests)
    #expect(before - clusterer.memoryBytes(for: .singlePass) == (nests ? _CellPyramid.bytes(table: table) : 0))
    expectAggregateIsSinglePass(&clusterer, "cells of 60 points")
  }
}
