import Testing
import BenchFormats
import SpatialIndexes

/// Reads `text` as a points file named `places.csv`, keeping `properties`.
private func read(_ text: String, _ properties: [PropertyRequest]) throws(DataError) -> PointsFile {
  try PointsFile(parsing: Array(text.utf8), source: "places.csv", properties: properties)
}

private func readError(_ text: String, _ properties: [PropertyRequest]) -> DataError? {
  dataError { () throws(DataError) in try read(text, properties) }
}

/// Reads `text` as GeoJSON named `hotels.geojson`, keeping `properties`.
private func readGeoJSON(_ text: String, _ properties: [PropertyRequest]) throws(DataError) -> PointsFile {
  try GeoJSONPoints.parse(Array(text.utf8), source: "hotels.geojson", properties: properties)
}

private func geoJSONError(_ text: String, _ properties: [PropertyRequest]) -> DataError? {
  dataError { () throws(DataError) in try readGeoJSON(text, properties) }
}

/// A FeatureCollection of points at (i, i), one feature a line after the
/// first, each with the `properties` text given.
private func features(_ properties: [String]) -> String {
  "{\"type\":\"FeatureCollection\",\"features\":[\n"
    + properties.enumerated().map { i, p in
      "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(i),\(i)]},\"properties\":\(p)}"
    }.joined(separator: ",\n") + "\n]}\n"
}

@Suite struct CSVPropertiesTests {
  static let places = """
    id,lat,lon,name,cc,population
    1,48.85,2.35,Paris,FR,2138551
    2,33.66,-95.55,"Paris, TX",US,24171
    3,52.52,13.40,Berlin,DE,
    4,43.77,11.25,Florence,"",382258.5

    """

  @Test func keepsOnlyTheNamedColumns() throws {
    let file = try read(Self.places, [.category("cc"), .number("population")])
    #expect(file.properties.names == ["cc", "population"])
    #expect(file.properties.category("cc")?.values == ["FR", "US", "DE"])
    #expect(file.properties.category("cc")?.codes == [0, 1, 2, CategoryColumn.missing])
    let population = try #require(file.properties.decimal("population"))
    #expect(population.scale == 1)
    #expect(population.units == [21_385_510, 241_710, DecimalColumn.missing, 3_822_585])
    #expect(file.points.count == 4 && file.ids == [1, 2, 3, 4])
  }

  @Test func withoutNamesNothingIsKept() throws {
    #expect(try read(Self.places, []).properties == .none)
    #expect(try readPoints(Self.places).properties == .none)
  }

  @Test func theRunDecidesTheKind() throws {
    let file = try read(Self.places, [.category("population"), .category("name")])
    #expect(file.properties.category("population")?.value(at: 3) == "382258.5")
    #expect(file.properties.category("name")?.value(at: 1) == "Paris, TX", "a quoted category holding a comma")
  }

  @Test func aQuotedCategoryHoldsCommasQuotesAndLineBreaksExactly() throws {
    let text = "lat,lon,chain\n1,2,\"A, \"\"B\"\"\nC\"\n3,4, A\n"
    let chain = try #require(read(text, [.category("chain")]).properties.category("chain"))
    #expect(chain.values == ["A, \"B\"\nC", " A"], "kept as written: nothing trimmed")
  }

  @Test func negativeZeroAndEqualValues() throws {
    let file = try read("lat,lon,p\n0,0,-0.00\n0,0,1.5\n0,0,1.50\n0,0,  \n", [.number("p")])
    let p = try #require(file.properties.decimal("p"))
    #expect(p.units == [0, 150, 150, DecimalColumn.missing])
    #expect(p.text(at: 0) == "0.00")
  }

  @Test func nineFractionalDigits() throws {
    let p = try read("lat,lon,p\n0,0,0.000000001\n0,0,9223372036\n", [.number("p")]).properties.decimal("p")
    #expect(p?.scale == 9)
    #expect(p?.units == [1, 9_223_372_036_000_000_000])
  }

  @Test func aBadNumberNamesTheFileTheLineAndTheField() {
    expectBadData(
      readError(Self.places, [.number("cc")]),
      "places.csv:2: cc \"FR\" is not a decimal number (-?digits[.digits], no exponent)", line: 2, field: "cc")
    expectBadData(
      readError("lat,lon,p\n0,0,1\n0,0,1e3\n", [.number("p")]),
      "places.csv:3: p \"1e3\" is not a decimal number (-?digits[.digits], no exponent)", line: 3, field: "p")
    expectBadData(
      readError("lat,lon,p\n0,0,0.1234567891\n", [.number("p")]),
      "places.csv:2: p \"0.1234567891\" has more than 9 fractional digits", line: 2, field: "p")
  }

  @Test func aValueBeyondSixtyFourBitsIsABadValue() {
    expectBadData(
      readError("lat,lon,p\n0,0,9223372036854775808\n", [.number("p")]),
      "places.csv:2: p \"9223372036854775808\" does not fit in 64-bit fixed point", line: 2, field: "p")
    expectBadData(
      readError("lat,lon,p\n0,0,0.5\n0,0,922337203685477580\n0,0,922337203685477581\n", [.number("p")]),
      "places.csv:4: p \"922337203685477581\" does not fit in 64-bit fixed point at 1 fractional digit",
      line: 4, field: "p")
  }

  @Test func aFinerScaleThatOverflowsNamesTheEarlierValuesLine() {
    expectBadData(
      readError("lat,lon,p\n0,0,1\n0,0,922337203685477580\n0,0,2\n0,0,0.01\n", [.number("p")]),
      "places.csv:5: p \"0.01\" needs 2 fractional digits, and at that scale 922337203685477580 (line 3)"
        + " does not fit in 64-bit fixed point", line: 5, field: "p")
  }

  @Test func lineNumbersArePhysicalAfterAMultiLineField() {
    expectBadData(
      readError("lat,lon,name,p\n0,0,\"two\nlines\",1\n0,0,x,y\n", [.number("p")]),
      "places.csv:4: p \"y\" is not a decimal number (-?digits[.digits], no exponent)", line: 4, field: "p")
  }

  @Test func aNamedPropertyAbsentFromTheHeaderIsAnError() {
    expectBadData(
      readError(Self.places, [.number("pop")]),
      "places.csv:1: pop is not a column of the header (columns: \"id\", \"lat\", \"lon\", \"name\", \"cc\", \"population\")",
      line: 1, field: "pop")
    expectBadData(
      readError(Self.places, [.category("CC")]), "places.csv:1: CC is not a column of the header "
        + "(columns: \"id\", \"lat\", \"lon\", \"name\", \"cc\", \"population\")", line: 1, field: "CC")
  }

  @Test func aNameTwiceIsAnError() {
    expectBadData(
      readError(Self.places, [.category("cc"), .number("cc")]), "places.csv:1: cc is named twice", line: 1,
      field: "cc")
    expectBadData(
      readError("lat,lon,x,x\n0,0,1,2\n", [.category("x")]), "places.csv:1: x is the name of two columns (3 and 4)",
      line: 1, field: "x")
  }

  @Test func aBinaryFileHasNoProperties() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = try dir.write("p.f64", BinaryPoints.bytes([Point(x: 1, y: 2)]))
    #expect(throws: DataError.self) { try PointFileFormat.read(path, properties: [.number("p")]) }
    #expect(try PointFileFormat.read(path).count == 1)
  }
}

@Suite struct GeoJSONPropertiesTests {
  @Test func keepsTheNamedPropertiesOfEachFeature() throws {
    let text = features([
      "{\"stars\":4,\"price\":\"120.5\",\"chain\":\"chain-1\",\"name\":\"A\"}",
      "null",
      "{\"price\":99,\"stars\":null,\"chain\":\"\"}",
      "{\"stars\":\"4\",\"chain\":true,\"price\":-0.00}",
    ])
    let file = try readGeoJSON(text, [.category("stars"), .number("price"), .category("chain")])
    #expect(file.properties.category("stars")?.values == ["4"])
    #expect(file.properties.category("stars")?.codes == [0, CategoryColumn.missing, CategoryColumn.missing, 0])
    #expect(file.properties.decimal("price")?.units == [12050, DecimalColumn.missing, 9900, 0])
    #expect(file.properties.decimal("price")?.scale == 2)
    #expect(file.properties.category("chain")?.values == ["chain-1", "true"])
    #expect(file.points.count == 4)
  }

  @Test func numbersAsWrittenMakeCategories() throws {
    let file = try readGeoJSON(features(["{\"s\":4.50}", "{\"s\":4.5}"]), [.category("s")])
    #expect(file.properties.category("s")?.values == ["4.50", "4.5"])
  }

  @Test func aBadValueNamesTheFeature() {
    expectBadData(
      geoJSONError(features(["{\"price\":1}", "{\"price\":1e3}"]), [.number("price")]),
      "hotels.geojson:3: features[1].properties.price \"1e3\" is not a decimal number (-?digits[.digits], no exponent)",
      line: 3, field: "features[1].properties.price")
    expectBadData(
      geoJSONError(features(["{\"price\":true}"]), [.number("price")]),
      "hotels.geojson:2: features[0].properties.price is a boolean, not a number",
      line: 2, field: "features[0].properties.price")
    expectBadData(
      geoJSONError(features(["{\"chain\":[1]}"]), [.category("chain")]),
      "hotels.geojson:2: features[0].properties.chain is an array, not a property value",
      line: 2, field: "features[0].properties.chain")
    expectBadData(
      geoJSONError(features(["[]"]), [.category("chain")]),
      "hotels.geojson:2: features[0].properties is an array, not an object",
      line: 2, field: "features[0].properties")
  }

  @Test func aPropertyNoFeatureHasIsAnError() {
    expectBadData(
      geoJSONError(features(["{\"price\":1}", "null"]), [.number("prize")]),
      "hotels.geojson:1: prize is a property of no feature (of 2)", line: 1, field: "prize")
  }

  @Test func propertiesAreSkippedUnlessNamed() throws {
    // a properties member of any kind, unread, as before
    let file = try readGeoJSON(features(["[1,2]", "\"x\""]), [])
    #expect(file.count == 2 && file.properties == .none)
  }
}

/// What `bench export` writes, the readers read back identically.
@Suite struct PropertiesRoundTripTests {
  static let points = [Point(x: 2.35, y: 48.85), Point(x: -179.5, y: -16.9), Point(x: 0, y: 0)]
  static let table = PropertyTable(columns: [
    .category(CategoryColumn(name: "name", values: ["Paris, \"TX\"", nil, "Ziggurat\nline two"])),
    .decimal(DecimalColumn(name: "price", scale: 2, units: [12_050, -5, DecimalColumn.missing])),
    .category(CategoryColumn(name: "cc", values: ["FR", "FJ", "FR"])),
    .decimal(DecimalColumn(name: "stars", scale: 0, units: [4, DecimalColumn.missing, 0])),
  ])

  @Test(arguments: [PointFileFormat.csv, .geoJSON])
  func writtenAndReadBack(_ format: PointFileFormat) throws {
    let bytes = format.bytes(points: Self.points, ids: [7, 8, 9], properties: Self.table)
    let requests = Self.table.requests
    let file = format == .csv
      ? try PointsFile(parsing: bytes, source: "x.csv", properties: requests)
      : try GeoJSONPoints.parse(bytes, source: "x.geojson", properties: requests)
    #expect(file.properties == Self.table)
    #expect(file.points == Self.points)
  }

  @Test func csvColumnsFollowTheCoordinates() {
    let bytes = PointFileFormat.csv.bytes(points: [Point(x: 1, y: 2)], ids: [5], properties: Self.table.gathering([0]))
    #expect(String(decoding: bytes, as: UTF8.self) == "id,lat,lon,name,price,cc,stars\n5,2.0,1.0,\"Paris, \"\"TX\"\"\",120.50,FR,4\n")
  }
}
