import BenchFormats
import MapClustering
import SpatialIndexes
import Testing

@testable import BenchWorkloads

/// Tests as `bench fuzz` prints them (`RegressionTest`), for the linear
/// scan on cases it answers right: they compile and pass, and
/// `FuzzTests.thePrintedTestsAreThePrintersOutput` checks that the printer
/// still writes them, character for character. Printed for a failure of a
/// strategy of the linear scan (the kind `bench fuzz` reports), one test a
/// workload.
enum FuzzPrintedTests {
  static let sourcePath = #filePath

  static let cases = ["viewport", "cluster", "tap", "nearest", "live", "filters"]

  /// The case and the failure the test named `name` was printed from.
  static func fuzzCase(named name: String) -> (FuzzCase, FuzzFailure)? {
    func failure(_ workload: String, _ variant: String) -> FuzzFailure {
      FuzzFailure(.init(kind: .index, index: LinearScanIndex.name, workload: workload, variant: variant), step: 0,
                  detail: "a golden copy")
    }
    func step(box: GeoQuery, tap: Point = Point(x: 0, y: 0), tapZoom: Int = 0, position: Point = Point(x: 0, y: 0),
              moves: [PointMove] = []) -> FuzzCase.Step {
      FuzzCase.Step(box: box, tap: tap, tapZoom: tapZoom, position: position, moves: moves)
    }
    switch name {
    case "viewport":  // across the antimeridian: both of its meridians
      let box = GeoQuery(minLat: 50, minLon: 179, maxLat: 70, maxLon: -179, zoom: 3)
      return (FuzzCase(points: [Point(x: -180, y: 60), Point(x: 180, y: 60), Point(x: 10, y: 10)], steps: [step(box: box)]),
              failure(ViewportWorkload.name, ""))
    case "cluster":  // zoom 13: +180° and -180° in one cell
      let box = GeoQuery(minLat: -1, minLon: 179.99, maxLat: 1, maxLon: -179.99, zoom: 13)
      return (FuzzCase(points: [Point(x: 180, y: 0), Point(x: -180, y: -0.0001), Point(x: -170, y: 10)], steps: [step(box: box)]),
              failure(ClusterWorkload.name, "per-cell"))
    case "tap":  // beside duplicates at -180°, across the antimeridian
      let points = Array(repeating: Point(x: -180, y: 60), count: 3) + [Point(x: 179.9, y: 60)]
      let box = GeoQuery(minLat: 0, minLon: 0, maxLat: 0, maxLon: 0, zoom: 0)
      return (FuzzCase(points: points, steps: [step(box: box, tap: Point(x: 179.9999999, y: 60), tapZoom: 10)]),
              failure(TapWorkload.name, "nearest"))
    case "nearest":  // docs/formats.md's worked example: ties to the earlier points
      let points = [Point(x: -1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 0)]
      let box = GeoQuery(minLat: 0, minLon: 0, maxLat: 0, maxLon: 0, zoom: 0)
      return (FuzzCase(points: points, steps: [step(box: box)], ks: [2]), failure(NearestWorkload.name, "k=2"))
    case "live":  // a point moved across the antimeridian, the index rebuilt
      let box = GeoQuery(minLat: -1, minLon: 170, maxLat: 1, maxLon: -170, zoom: 4)
      let points = [Point(x: 179.9, y: 0), Point(x: 10, y: 10)]
      return (FuzzCase(points: points, steps: [step(box: box, moves: [PointMove(id: 0, to: Point(x: -180, y: 0))])]),
              failure(LiveWorkload.name, "rebuild"))
    case "filters":  // ±180° in one cell; copies with other values, missing ones, quoted categories
      let box = GeoQuery(minLat: 0, minLon: 170, maxLat: 20, maxLon: -170, zoom: 3)
      let points = [Point(x: -180, y: 10), Point(x: 180, y: 10), Point(x: 180, y: 10), Point(x: 5, y: 5)]
      let properties = PropertyTable(columns: [
        .decimal(DecimalColumn(name: "n0", scale: 2, units: [150, -7, DecimalColumn.missing, 0])),
        .category(CategoryColumn(name: "c0", values: ["a,b", "\"q\"", "a,b", nil])),
      ])
      var s = step(box: box)
      s.filter = #"n0 <= 150 and c0 in ("a,b", """q""")"#
      return (FuzzCase(points: points, steps: [s], properties: properties, aggregates: [.sum("n0"), .min("n0"), .max("n0")]),
              failure(FilterSessionWorkload.name, "aggregate"))
    default:
      return nil
    }
  }
}

// The tests as printed (seed 3, case 0):

/// Found by `bench fuzz --seed 3` (case 0), shrunk.
/// linear viewport differs from the linear scan: a golden copy
@Test func fuzzLinearViewportSeed3Case0() throws {
  let points: [Point] = [
    Point(x: -180.0, y: 60.0),
    Point(x: 180.0, y: 60.0),
    Point(x: 10.0, y: 10.0),
  ]
  let index = try LinearScanIndex(points: points)
  var ids: [Int32] = []
  let rects = [
    Rect(minX: 179.0, minY: 50.0, maxX: 180.0, maxY: 70.0),
    Rect(minX: -180.0, minY: 50.0, maxX: -179.0, maxY: 70.0),
  ]
  for rect in rects { index.query(in: rect, into: &ids) }
  #expect(ids.sorted() == [0, 1])
}

/// Found by `bench fuzz --seed 3` (case 0), shrunk.
/// linear cluster per-cell differs from the linear scan: a golden copy
@Test func fuzzLinearClusterPerCellSeed3Case0() throws {
  let points: [Point] = [
    Point(x: 180.0, y: 0.0),
    Point(x: -180.0, y: -0.0001),
    Point(x: -170.0, y: 10.0),
  ]
  let index = try LinearScanIndex(points: points)
  var clusterer = try Clusterer(index: index, points: points)
  let area = VisibleArea(zoom: 13, rects: [
    Rect(minX: 179.99, minY: -1.0, maxX: 180.0, maxY: 1.0),
    Rect(minX: -180.0, minY: -1.0, maxX: -179.99, maxY: 1.0),
  ])
  let markers = clusterer.markers(for: area, strategy: ClusterStrategy(rawValue: "per-cell")!)
  #expect(markers.map(\.key) == [MarkerKey(zoom: 13, column: 0, row: 16384, count: 2)])
  #expect(markers.map(\.latitudeE7) == [-500])
  #expect(markers.map(\.longitudeE7) == [-1800000000])
  #expect(markers.map(\.id) == [nil])
}

/// Found by `bench fuzz --seed 3` (case 0), shrunk.
/// linear tap nearest differs from the linear scan: a golden copy
@Test func fuzzLinearTapNearestSeed3Case0() throws {
  let points: [Point] = [
    Point(x: -180.0, y: 60.0),
    Point(x: -180.0, y: 60.0),
    Point(x: -180.0, y: 60.0),
    Point(x: 179.9, y: 60.0),
  ]
  let index = try LinearScanIndex(points: points)
  let tap = Tap(at: Point(x: 179.9999999, y: 60.0), zoom: 10)
  var buffer = NearestBuffer()
  var counters = NoCounters()
  let hit = index.nearestByNeighbours(to: tap, points: points, buffer: &buffer, counters: &counters)
  #expect(hit?.id == 0)
}

/// Found by `bench fuzz --seed 3` (case 0), shrunk.
/// linear nearest k=2 differs from the linear scan: a golden copy
@Test func fuzzLinearNearestK2Seed3Case0() throws {
  let points: [Point] = [
    Point(x: -1.0, y: 0.0),
    Point(x: 0.0, y: 1.0),
    Point(x: 1.0, y: 0.0),
  ]
  let index = try LinearScanIndex(points: points)
  var neighbours: [Neighbor] = []
  index.nearest(
    to: Point(x: 0.0, y: 0.0), k: 2, maxDistance: .infinity, into: &neighbours)
  #expect(neighbours.map(\.id) == [0, 1])
}

/// Found by `bench fuzz --seed 3` (case 0), shrunk.
/// linear live rebuild differs from the linear scan: a golden copy
@Test func fuzzLinearLiveRebuildSeed3Case0() throws {
  let points: [Point] = [
    Point(x: 179.9, y: 0.0),
    Point(x: 10.0, y: 10.0),
  ]
  let parameters = LinearScanIndex.Parameters()
  let index = try LinearScanIndex(points: points, parameters: parameters)
  var clusterer = try Clusterer(index: index, points: points)
  let frames: [[PointMove]] = [
    [PointMove(id: 0, to: Point(x: -180.0, y: 0.0))],
  ]
  let boxes: [[Rect]] = [
    [
      Rect(minX: 170.0, minY: -1.0, maxX: 180.0, maxY: 1.0),
      Rect(minX: -180.0, minY: -1.0, maxX: -170.0, maxY: 1.0),
    ],
  ]
  let zooms = [4]
  var ids: [Int32] = []
  var markers: [ClusterMarker] = []
  for (frame, moves) in frames.enumerated() {
    try clusterer.move(moves, rebuildingWith: parameters)
    ids.removeAll()
    for rect in boxes[frame] { clusterer.index.query(in: rect, into: &ids) }
    markers = clusterer.markers(
      for: VisibleArea(zoom: zooms[frame], rects: boxes[frame]), strategy: .aggregate)
  }
  #expect(ids.sorted() == [0])
  #expect(markers.map(\.key) == [MarkerKey(zoom: 4, column: 0, row: 23, count: 1)])
  #expect(markers.map(\.latitudeE7) == [0])
  #expect(markers.map(\.longitudeE7) == [-1800000000])
  #expect(markers.map(\.id) == [0])
}

/// Found by `bench fuzz --seed 3` (case 0), shrunk.
/// linear filters aggregate differs from the linear scan: a golden copy
@Test func fuzzLinearFiltersAggregateSeed3Case0() throws {
  let points: [Point] = [
    Point(x: -180.0, y: 10.0),
    Point(x: 180.0, y: 10.0),
    Point(x: 180.0, y: 10.0),
    Point(x: 5.0, y: 5.0),
  ]
  var properties = PointProperties()
  try properties.addNumber("n0", units: [
    150,
    -7,
    .min,
    0,
  ], scale: 2)
  try properties.addCategory("c0", values: [
    "a,b",
    "\"q\"",
    "a,b",
    nil,
  ])
  let query = try PropertyQuery(
    filter: PointFilter(parsing: "n0 <= 150 and c0 in (\"a,b\", \"\"\"q\"\"\")"),
    aggregates: [.sum("n0"), .min("n0"), .max("n0")], properties: properties)
  let index = try LinearScanIndex(points: points)
  var clusterer = try Clusterer(index: index, points: points)
  let area = VisibleArea(zoom: 3, rects: [
    Rect(minX: 170.0, minY: 0.0, maxX: 180.0, maxY: 20.0),
    Rect(minX: -180.0, minY: 0.0, maxX: -170.0, maxY: 20.0),
  ])
  var markers: [ClusterMarker] = []
  var aggregates: [AggregateValue] = []
  try clusterer.cluster(area, strategy: ClusterStrategy(rawValue: "aggregate")!, query: query, into: &markers, aggregates: &aggregates)
  #expect(markers.map(\.key) == [MarkerKey(zoom: 3, column: 0, row: 10, count: 2)])
  #expect(markers.map(\.latitudeE7) == [100000000])
  #expect(markers.map(\.longitudeE7) == [-1800000000])
  #expect(markers.map(\.id) == [nil])
  #expect(aggregates.map(\.description) == [
    "1.43",
    "-0.07",
    "1.50",
  ])
}
