import SpatialIndexes
import Testing
import _SpatialTestSupport
@testable import MapClustering

/// The clustering library takes whatever a map app passes, unnormalised,
/// and answers or throws; it never traps (a trap would end this test run).
@Suite struct LibraryInputTests {
  static let points = Fixtures.clustered(3000, seed: 61) + Fixtures.identical(50, at: Point(x: 179.9, y: 10))

  /// Raw centres: a pan that went round the world any number of times lands
  /// where it would after wrapping, bit for bit.
  @Test(arguments: [0, 5, 12])
  func rawCentresClusterAsTheirWrappedCentre(zoom: Int) throws {
    var clusterer = try Clusterer<KDTreeIndex>(points: Self.points)
    for (raw, wrapped) in [(190.0, -170.0), (540.0, -180.0), (-190.0, 170.0), (1e6 * 360 + 10, 10.0),
                           (-725.0, -5.0)] {
      let a = clusterer.markers(for: Viewport(center: Point(x: raw, y: 20), zoom: zoom))
      let b = clusterer.markers(for: Viewport(center: Point(x: wrapped, y: 20), zoom: zoom))
      #expect(a == b, "centre \(raw) at zoom \(zoom)")
      #expect(a == ReferenceClustering.markers(Self.points, viewport: Viewport(center: Point(x: wrapped, y: 20), zoom: zoom)))
    }
  }

  /// Zooms beyond the map's are its ends; a NaN or infinite centre, or a
  /// negative or NaN screen, shows nothing; an infinite screen shows the world.
  @Test func outlandishViewportsAnswerWithoutTrapping() throws {
    var clusterer = try Clusterer<KDTreeIndex>(points: Self.points)
    let centre = Point(x: 10, y: 30)
    #expect(clusterer.markers(for: Viewport(center: centre, zoom: 31))
            == clusterer.markers(for: Viewport(center: centre, zoom: 30)))
    #expect(clusterer.markers(for: Viewport(center: centre, zoom: -4))
            == clusterer.markers(for: Viewport(center: centre, zoom: 0)))
    #expect(clusterer.markers(for: Viewport(center: centre, zoom: Int.max))
            == clusterer.markers(for: Viewport(center: centre, zoom: 30)))
    _ = clusterer.markers(for: Viewport(center: centre, zoom: Int.min))
    for bad in [Viewport(center: Point(x: .nan, y: 0), zoom: 3), Viewport(center: Point(x: 0, y: .nan), zoom: 3),
                Viewport(center: Point(x: .infinity, y: 0), zoom: 3),
                Viewport(center: centre, zoom: 3, width: -10, height: 100),
                Viewport(center: centre, zoom: 3, width: .nan, height: 100)] {
      #expect(clusterer.markers(for: bad).isEmpty, "\(bad)")
    }
    let world = clusterer.markers(for: Viewport(center: centre, zoom: 3, width: .infinity, height: .infinity))
    #expect(world.reduce(0) { $0 + $1.count } == Self.points.count)
  }

  /// Boxes as a file gives them: inverted, NaN, beyond the map, or the
  /// whole world at zoom 30 (2^76 cells: too many for the dense buffer, so
  /// the sparse path answers, with the markers of the reference).
  @Test func anyBoxAtAnyZoomAnswers() throws {
    for strategy in ClusterStrategy.allCases {
      var clusterer = try Clusterer<KDTreeIndex>(points: Self.points)
      var markers: [ClusterMarker] = []
      for rect in [Rect(minX: 10, minY: 10, maxX: 0, maxY: 0), Rect(minX: .nan, minY: 0, maxX: 1, maxY: 1),
                   Rect(minX: 0, minY: 86, maxX: 10, maxY: 90), Rect(minX: 190, minY: 0, maxX: 200, maxY: 10)] {
        clusterer.cluster(VisibleArea(zoom: 5, rect: rect), strategy: strategy, into: &markers)
        #expect(markers.isEmpty, "\(rect)")
      }
      clusterer.cluster(VisibleArea(zoom: 5, rects: []), strategy: strategy, into: &markers)
      #expect(markers.isEmpty)
      for zoom in [19, 30] {
        let area = VisibleArea(zoom: zoom, rect: .world)
        clusterer.cluster(area, strategy: strategy, into: &markers)
        #expect(markers == ReferenceClustering.markers(Self.points, area: area), "\(strategy) zoom \(zoom)")
        #expect(markers.reduce(0) { $0 + $1.count } == Self.points.count)
      }
    }
  }

  /// The cell of a NaN or infinite point is a defined cell, not a trap (no
  /// view shows such a point: it is in no rectangle).
  @Test func theCellOfANaNPointIsNoTrap() throws {
    let clusterer = try Clusterer<KDTreeIndex>(points: Self.points)
    let nan = clusterer.cell(of: Point(x: .nan, y: .nan), zoom: 12)
    // west of the map; a NaN latitude is clamped like any other, to the south edge
    #expect(nan.column < 0, "\(nan)")
    #expect(nan.row == clusterer.cell(of: Point(x: 0, y: -90), zoom: 12).row, "\(nan)")
    let east = clusterer.cell(of: Point(x: .infinity, y: -.infinity), zoom: 30)
    #expect(east.column > 1 << 34, "\(east)")  // past the world's 2^34 columns at zoom 30
    #expect(MapCells.index(.nan, scale: 1, cellSize: 88, inverse: 1.0 / 88) < 0)
  }

  @Test func aMismatchedIndexOrTableIsAnError() throws {
    let index = try KDTreeIndex(points: Self.points)
    #expect(throws: ClusteringError.indexDoesNotMatchPoints(indexCount: Self.points.count, pointCount: 10)) {
      try Clusterer(index: index, points: Array(Self.points.prefix(10)))
    }
    #expect(throws: ClusteringError.invalidCellSize(0)) { try ClusterCellTable(otherwise: 0, bands: []) }
    #expect(throws: ClusteringError.invalidCellSize(1.5)) {
      try ClusterCellTable(otherwise: 88, bands: [(zooms: 1...2, size: 1.5)])
    }
    #expect(throws: ClusteringError.invalidBandZooms(-1...3)) {
      try ClusterCellTable(otherwise: 88, bands: [(zooms: -1...3, size: 64)])
    }
    #expect(throws: ClusteringError.invalidBandZooms(20...31)) {
      try ClusterCellTable(otherwise: 88, bands: [(zooms: 20...31, size: 64)])
    }
  }
}
