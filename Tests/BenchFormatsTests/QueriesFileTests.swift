import SpatialIndexes
import Testing
import BenchFormats
import BenchWorkloads
import _SeededRandom

@Suite struct QueriesFileTests {
  @Test func readsQueriesWithZoom() throws {
    let file = try readQueries("min_lat,min_lon,max_lat,max_lon,zoom\n48.8,2.25,48.9,2.42,12\n-20,170,-10,-170,5.0\n")
    #expect(file.source == "queries.csv")
    #expect(file.queries == [
      GeoQuery(minLat: 48.8, minLon: 2.25, maxLat: 48.9, maxLon: 2.42, zoom: 12),
      GeoQuery(minLat: -20, minLon: 170, maxLat: -10, maxLon: -170, zoom: 5),
    ])
  }

  @Test func columnsInAnyOrderAnyCaseWithExtras() throws {
    let file = try readQueries("name, MAX_LON ,max_lat,Min_Lon,min_lat\nbox,10,20,-10,-20\n")
    #expect(file.queries == [GeoQuery(minLat: -20, minLon: -10, maxLat: 20, maxLon: 10)])
    #expect(file.queries[0].zoom == nil)
  }

  @Test func emptyZoomIsNil() throws {
    let file = try readQueries("min_lat,min_lon,max_lat,max_lon,zoom\n0,0,1,1,\n0,0,1,1,3\n")
    #expect(file.queries.map(\.zoom) == [nil, 3])
  }

  /// A `filter` column (any case) keeps each row's text as RFC 4180 reads
  /// it, a quoted comma and a doubled quote inside; an empty or blank field
  /// is no filter; each names its physical line. Without the column, none.
  @Test func aFilterColumnKeepsEachRowsText() throws {
    let file = try readQueries(
      "min_lat,min_lon,max_lat,max_lon,zoom, Filter \n0,0,1,1,3,\"chain in (a, \"\"b, c\"\")\"\n0,0,1,1,3,\n0,0,1,1,3,  \n"
        + "0,0,1,1,3,\"stars >= 4\nand price <= 9\"\n")
    #expect(file.filters == [
      RowFilter(text: #"chain in (a, "b, c")"#, line: 2, field: "Filter"), nil, nil,
      RowFilter(text: "stars >= 4\nand price <= 9", line: 5, field: "Filter"),
    ])
    let centres = try readQueries("center_lat,center_lon,zoom,filter\n0,0,3,x = 1\n1,1,4,\n")
    #expect(centres.filters == [RowFilter(text: "x = 1", line: 2), nil])
    #expect(try readQueries("min_lat,min_lon,max_lat,max_lon\n0,0,1,1\n").filters.isEmpty)
    let taps = try TapsFile(
      parsing: Array("lat,lon,zoom,filter\n1,2,3,\"c in (\"\"x,y\"\")\"\n".utf8), source: "t.csv")
    #expect(taps.filters == [RowFilter(text: #"c in ("x,y")"#, line: 2)])
  }

  @Test func headerOnlyIsEmpty() throws {
    #expect(try readQueries("min_lat,min_lon,max_lat,max_lon\n").queries.isEmpty)
  }

  @Test func degenerateBoxesAreValid() throws {
    let file = try readQueries("min_lat,min_lon,max_lat,max_lon\n5,5,5,5\n-90,-180,90,180\n")
    #expect(file.queries.count == 2)
  }

  @Test func minLatAboveMaxLatIsAnError() {
    expectBadData(
      queriesError("min_lat,min_lon,max_lat,max_lon\n0,0,1,1\n50,0,40,1\n"),
      "queries.csv:3: min_lat \"50\" is greater than max_lat \"40\"", line: 3, field: "min_lat")
  }

  @Test func missingColumn() {
    expectBadData(
      queriesError("min_lat,min_lon,max_lat,zoom\n0,0,1,2\n"),
      "queries.csv:1: no max_lon column (expected \"max_lon\"); columns found: \"min_lat\", \"min_lon\", \"max_lat\", \"zoom\"",
      line: 1, field: nil)
  }

  @Test func duplicateColumn() {
    expectBadData(
      queriesError("min_lat,min_lon,max_lat,max_lon,MIN_LAT\n0,0,1,1,0\n"),
      "queries.csv:1: two min_lat columns: \"min_lat\" (column 1) and \"MIN_LAT\" (column 5)",
      line: 1, field: nil)
  }

  @Test func sameNumberAndRangeRules() {
    expectBadData(
      queriesError("min_lat,min_lon,max_lat,max_lon\n0,abc,1,1\n"),
      "queries.csv:2: min_lon \"abc\" is not a number", line: 2, field: "min_lon")
    expectBadData(
      queriesError("min_lat,min_lon,max_lat,max_lon\n0,0,91,1\n"),
      "queries.csv:2: max_lat \"91\" is outside [-90, 90]", line: 2, field: "max_lat")
    expectBadData(
      queriesError("min_lat,min_lon,max_lat,max_lon\n0,0,1,181\n"),
      "queries.csv:2: max_lon \"181\" is outside [-180, 180]", line: 2, field: "max_lon")
    expectBadData(
      queriesError("min_lat,min_lon,max_lat,max_lon,zoom\n0,0,1,1,inf\n"),
      "queries.csv:2: zoom \"inf\" is not a number", line: 2, field: "zoom")
    expectBadData(
      queriesError("min_lat,min_lon,max_lat,max_lon\n0,0,1\n"),
      "queries.csv:2: max_lon is missing: too few fields: 3, but the header has 4", line: 2,
      field: "max_lon")
    expectBadData(queriesError(""), "queries.csv:1: empty file, no header", line: 1, field: nil)
  }

  @Test func aZoomIsAWholeLevelInTheMapsRange() throws {
    #expect(try readQueries("min_lat,min_lon,max_lat,max_lon,zoom\n0,0,1,1,30\n0,0,1,1,0.0\n")
      .queries.map(\.zoom) == [30, 0])
    for (zoom, why) in [("12.5", "12.5"), ("31", "31"), ("-1", "-1"), ("1e3", "1e3")] {
      expectBadData(
        queriesError("min_lat,min_lon,max_lat,max_lon,zoom\n0,0,1,1,\(zoom)\n"),
        "queries.csv:2: zoom \"\(why)\" is not a whole zoom level in 0...30", line: 2, field: "zoom")
    }
  }

  @Test func centresAreTheOtherForm() throws {
    let file = try readQueries("zoom,CENTER_LON,center_lat,name\n12,2.3522,48.8566,paris\n3,-179.5,0,fiji\n")
    #expect(file.queries.isEmpty && file.hasZooms && file.count == 2)
    #expect(file.centres == [
      ZoomedPosition(latitude: 48.8566, longitude: 2.3522, zoom: 12),
      ZoomedPosition(latitude: 0, longitude: -179.5, zoom: 3),
    ])
  }

  /// Positions: `lat` and `lon` (a points file's names) without the box
  /// or centre columns, each row a place to search near, read exactly.
  @Test func positionsAreTheThirdForm() throws {
    let file = try readQueries("name,LNG,latitude\nparis,2.3522,48.8566\nx,-112.2303721236431,-4.154661995336989\n")
    #expect(file.queries.isEmpty && file.centres.isEmpty && !file.hasZooms && file.count == 2)
    #expect(file.positions == [Point(x: 2.3522, y: 48.8566), Point(x: -112.2303721236431, y: -4.154661995336989)])
    #expect(try readQueries("lat,lon\n").positions == [])
    #expect(try readQueries("min_lat,min_lon,max_lat,max_lon,lat,lon\n0,0,1,1,5,5\n").positions == nil,
            "with the box columns, lat and lon are other columns")
    expectBadData(
      queriesError("lat,lon\n0,0\n91,0\n"), "queries.csv:3: lat \"91\" is outside [-90, 90]", line: 3,
      field: "lat")
    expectBadData(
      queriesError("lat,zoom\n0,3\n"),
      "queries.csv:1: no longitude column (expected \"lon\", \"lng\" or \"longitude\"); columns found: \"lat\", \"zoom\"",
      line: 1, field: nil)
  }

  @Test func centresNeedAZoomAndTheirOwnColumns() {
    expectBadData(
      queriesError("center_lat,center_lon\n1,2\n"),
      "queries.csv:1: no zoom column (expected \"zoom\"); columns found: \"center_lat\", \"center_lon\"",
      line: 1, field: nil)
    expectBadData(
      queriesError("center_lat,center_lon,zoom\n1,2,\n"),
      "queries.csv:2: zoom is empty", line: 2, field: "zoom")
    expectBadData(
      queriesError("center_lat,center_lon,zoom\n91,2,3\n"),
      "queries.csv:2: center_lat \"91\" is outside [-90, 90]", line: 2, field: "center_lat")
  }

  @Test func aFileHasOneForm() {
    expectBadData(
      queriesError("min_lat,min_lon,max_lat,max_lon,center_lat,center_lon,zoom\n0,0,1,1,0,0,3\n"),
      "queries.csv:1: has the box column \"min_lat\" and the centre column \"center_lat\": a queries file has one form",
      line: 1, field: nil)
  }

  @Test func readsFromAFile() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = try dir.write("q.csv", "\u{FEFF}min_lat,min_lon,max_lat,max_lon\r\n1,2,3,4\r\n")
    let file = try QueriesFile(contentsOf: path)
    #expect(file.queries == [GeoQuery(minLat: 1, minLon: 2, maxLat: 3, maxLon: 4)])
    #expect(file.source == path)
  }
}

@Suite struct GeoQueryTests {
  @Test func ordinaryBoxIsOneRect() {
    let q = GeoQuery(minLat: 10, minLon: 20, maxLat: 30, maxLon: 40)
    #expect(!q.crossesAntimeridian)
    #expect(q.rects() == [Rect(minX: 20, minY: 10, maxX: 40, maxY: 30)])
    #expect(q.contains(lat: 10, lon: 40))
    #expect(!q.contains(lat: 10, lon: 41))
    #expect(!q.contains(lat: 31, lon: 30))
  }

  @Test func boxAcrossTheAntimeridianSplitsInTwo() {
    let q = GeoQuery(minLat: -20, minLon: 170, maxLat: -10, maxLon: -170)
    #expect(q.crossesAntimeridian)
    #expect(q.rects() == [
      Rect(minX: 170, minY: -20, maxX: 180, maxY: -10),
      Rect(minX: -180, minY: -20, maxX: -170, maxY: -10),
    ])
    #expect(q.contains(lat: -15, lon: 175))
    #expect(q.contains(lat: -15, lon: -175))
    #expect(q.contains(lat: -15, lon: 180))
    #expect(q.contains(lat: -15, lon: -180))
    #expect(q.contains(lat: -15, lon: 170) && q.contains(lat: -15, lon: -170))
    #expect(!q.contains(lat: -15, lon: 0))
    #expect(!q.contains(lat: -15, lon: 169.9))
    #expect(!q.contains(lat: 0, lon: 175))
  }

  /// `contains` and the rectangles agree on random places, so an index
  /// queried with `rects()` answers exactly what `contains` says.
  @Test func containsAgreesWithRects() {
    var g = SplitMix64(seed: 2024)
    for _ in 0..<2000 {
      let a = g.nextDouble(in: -90, 90), b = g.nextDouble(in: -90, 90)
      let q = GeoQuery(
        minLat: min(a, b), minLon: g.nextDouble(in: -180, 180),
        maxLat: max(a, b), maxLon: g.nextDouble(in: -180, 180))
      let rects = q.rects()
      for _ in 0..<20 {
        let lat = g.nextDouble(in: -90, 90), lon = g.nextDouble(in: -180, 180)
        #expect(q.contains(lat: lat, lon: lon) == rects.contains { $0.contains(x: lon, y: lat) })
      }
    }
  }
}

/// A taps file: a map position and a zoom a row.
@Suite struct TapsFileTests {
  func taps(_ text: String) throws(DataError) -> TapsFile {
    try TapsFile(parsing: Array(text.utf8), source: "taps.csv")
  }

  func tapsError(_ text: String) -> DataError? { dataError { () throws(DataError) in try taps(text) } }

  @Test func readsTapsInAnyColumnOrder() throws {
    let file = try taps("zoom,lng,latitude,note\n14,2.35,48.85,a\n9,178.065,-17.7134,b\n")
    #expect(file.taps == [
      ZoomedPosition(latitude: 48.85, longitude: 2.35, zoom: 14),
      ZoomedPosition(latitude: -17.7134, longitude: 178.065, zoom: 9),
    ])
    #expect(try taps("lat,lon,zoom\n").taps.isEmpty)
  }

  @Test func everyColumnIsRequiredAndChecked() {
    expectBadData(
      tapsError("lat,lon\n1,2\n"),
      "taps.csv:1: no zoom column (expected \"zoom\"); columns found: \"lat\", \"lon\"", line: 1, field: nil)
    expectBadData(tapsError("lat,lon,zoom\n1,200,3\n"), "taps.csv:2: lon \"200\" is outside [-180, 180]", line: 2, field: "lon")
    expectBadData(
      tapsError("lat,lon,zoom\n1,2,3.5\n"), "taps.csv:2: zoom \"3.5\" is not a whole zoom level in 0...30",
      line: 2, field: "zoom")
    expectBadData(tapsError("lat,lon,zoom\n1,2,\n"), "taps.csv:2: zoom is empty", line: 2, field: "zoom")
  }
}
