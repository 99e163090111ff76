import SpatialIndexes
import Testing
import BenchFormats
import BenchWorkloads

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
