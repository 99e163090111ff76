import Testing
import SpatialIndexes
import BenchFormats
import BenchWorkloads

// The GeoJSON points reader (RFC 7946 FeatureCollections of Points), as a
// specification: what it reads, every error word for word, and that it reads
// a stream in pieces of any size.

/// Parses `text` as GeoJSON named `places.geojson`.
func readGeoJSON(
  _ text: String, source: String = "places.geojson"
) throws(DataError) -> PointsFile {
  try GeoJSONPoints.parse(Array(text.utf8), source: source)
}

/// The error reading `text` as GeoJSON throws, if any.
func geoJSONError(_ text: String) -> DataError? {
  do {
    _ = try readGeoJSON(text)
    return nil
  } catch {
    return error
  }
}

/// A FeatureCollection with one feature per line: feature `k` is on line
/// `k + 2`, so the line numbers in messages can be read off the call.
func featureCollection(_ features: [String]) -> String {
  "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n")
    + "\n]}\n"
}

/// A Feature whose geometry is written as given.
func feature(geometry: String) -> String {
  #"{"type": "Feature", "properties": {}, "geometry": \#(geometry)}"#
}

/// A Point feature whose `coordinates` are written as given (`"[2.35, 48.85]"`).
func pointFeature(_ coordinates: String) -> String {
  feature(geometry: #"{"type": "Point", "coordinates": \#(coordinates)}"#)
}

/// Hands out `bytes` in pieces whose sizes cycle through `sizes` (each cut to
/// the room the reader offers), as a pipe or a socket might.
struct PieceSource: ByteSource {
  let bytes: [UInt8]
  let sizes: [Int]
  var offset = 0
  var turn = 0

  init(_ bytes: [UInt8], sizes: [Int]) {
    precondition(sizes.allSatisfy { $0 > 0 }, "a piece of 0 bytes would mean the end")
    self.bytes = bytes
    self.sizes = sizes
  }

  mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int {
    let n = min(sizes[turn % sizes.count], buffer.count, bytes.count - offset)
    turn += 1
    for i in 0..<n { buffer[i] = bytes[offset + i] }
    offset += n
    return n
  }
}

/// Good files: what is read, and everything that is skipped.
@Suite struct GeoJSONPointsTests {
  @Test func readsAFeatureCollectionOfPointsWithFeaturePositionsAsIds() throws {
    let file = try readGeoJSON(
      featureCollection([
        pointFeature("[2.3522, 48.8566]"), pointFeature("[-0.1276, 51.5072]"),
        pointFeature("[139.6917, 35.6895]"),
      ]))
    #expect(file.source == "places.geojson")
    #expect(file.count == 3)
    #expect(file.ids == [0, 1, 2])
    #expect(
      file.points == [
        Point(x: 2.3522, y: 48.8566), Point(x: -0.1276, y: 51.5072), Point(x: 139.6917, y: 35.6895),
      ])
  }

  @Test func coordinatesAreLongitudeThenLatitude() throws {
    let file = try readGeoJSON(featureCollection([pointFeature("[120, -30]")]))
    #expect(file.points[0].x == 120)  // the longitude
    #expect(file.points[0].y == -30)  // the latitude
    #expect(file.points[0] == Point(latitude: -30, longitude: 120))
  }

  @Test func anAltitudeAndFurtherNumbersAreAcceptedAndIgnored() throws {
    let file = try readGeoJSON(
      featureCollection([pointFeature("[2, 48, 35.5]"), pointFeature("[3, 49, -12, 7, 1e3]")]))
    #expect(file.points == [Point(x: 2, y: 48), Point(x: 3, y: 49)])
  }

  @Test func keysComeInAnyOrder() throws {
    let text = #"""
      {"features": [
        {"geometry": {"coordinates": [1, 2], "type": "Point"}, "type": "Feature"},
        {"properties": {"a": 1}, "geometry": {"type": "Point", "coordinates": [3, 4]},
         "type": "Feature"},
        {"type": "Feature", "geometry": {"coordinates": [5, 6], "bbox": [5, 6, 5, 6],
         "type": "Point"}}
      ], "type": "FeatureCollection"}
      """#
    let file = try readGeoJSON(text)
    #expect(file.points == [Point(x: 1, y: 2), Point(x: 3, y: 4), Point(x: 5, y: 6)])
    #expect(file.ids == [0, 1, 2])
  }

  @Test func otherMembersOfAnyShapeAreSkipped() throws {
    // properties, bbox, id and foreign members, at every level, holding
    // every kind of value: nested objects and arrays, escapes, literals.
    let text = #"""
      {"type": "FeatureCollection", "bbox": [-180, -90, 180, 90],
       "name": "caf\u00e9s \"open\" \\ late \ud83d\ude00", "crs": null, "count": -1.5e-3,
       "meta": {"deep": [[[{"a": [{}, [], "", true, false, null, 0]}]]], "empty": {}},
       "\ud83d\ude00 \"key\" \u00e9\\": "keys are unescaped, so these escapes are read",
       "features": [
        {"type": "Feature", "id": "a\/b", "bbox": [2, 48, 2, 48],
         "properties": {"name": "Caf\u00e9 \"Flore\"", "tags": ["x", ["y", {"z": [1, 2]}]],
                        "emoji": "\ud83d\ude00", "esc": "\b\f\n\r\t\/\\", "none": null},
         "geometry": {"type": "Point", "coordinates": [2.3327, 48.8541],
                      "bbox": [2, 48, 2, 48], "extra": {"k": ["v"]}},
         "foreign": [{"a": {"b": {"c": [true]}}}]},
        {"id": 12, "type": "Feature", "properties": null,
         "geometry": {"type": "Point", "coordinates": [-73.9857, 40.7484]}}
       ]}
      """#
    let file = try readGeoJSON(text)
    #expect(file.points == [Point(x: 2.3327, y: 48.8541), Point(x: -73.9857, y: 40.7484)])
    // A feature's own `id` (here "a/b" and 12) is not the point's id.
    #expect(file.ids == [0, 1])
  }

  @Test func deeplyNestedValuesAreSkippedWithoutRecursion() throws {
    // 100,000 levels: a recursive skip would overflow the stack long before.
    let depth = 100_000
    let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let objects =
      String(repeating: #"{"a": "#, count: depth) + "1" + String(repeating: "}", count: depth)
    let text = featureCollection([
      #"{"type": "Feature", "properties": {"a": \#(arrays), "o": \#(objects)},"#
        + #" "geometry": {"type": "Point", "coordinates": [1, 2], "bbox": \#(arrays)}}"#
    ])
    #expect(try readGeoJSON(text).points == [Point(x: 1, y: 2)])
    // Nested arrays as coordinates are reported, not followed.
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[" + arrays + ", 2]")])),
      "places.geojson:2: features[0].geometry.coordinates[0] is an array, not a number",
      line: 2, field: "features[0].geometry.coordinates[0]")
  }

  @Test func longKeysAreNotMistakenForDuplicates() throws {
    // Keys are kept to 1,024 bytes; two that differ only after that are
    // still two keys.
    let long = String(repeating: "k", count: 2000)
    let text = #"{"type": "FeatureCollection", "\#(long)1": 1, "\#(long)2": 2, "features": []}"#
    #expect(try readGeoJSON(text).points.isEmpty)
  }

  @Test func numbersAreReadUpTo1024Characters() throws {
    let longest = "0." + String(repeating: "0", count: 1021) + "5"
    #expect(longest.utf8.count == 1024)
    let file = try readGeoJSON(featureCollection([pointFeature("[\(longest), 0]")]))
    #expect(file.points[0].x == Double(longest))
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[0\(longest), 0]")])),
      "places.geojson:2: invalid JSON: a number longer than 1024 characters", line: 2, field: nil)
  }

  @Test func keysAndNamesAreComparedAfterUnescaping() throws {
    let text = #"""
      {"\u0074ype": "Feature\u0043ollection", "feat\u0075res": [
        {"type": "Fe\u0061ture", "geometr\u0079": {"type": "P\u006fint", "coordinates": [1, 2]}}
      ]}
      """#
    #expect(try readGeoJSON(text).points == [Point(x: 1, y: 2)])
  }

  @Test func anEmptyFeaturesArrayGivesNoPoints() throws {
    for text in [
      #"{"type": "FeatureCollection", "features": []}"#,
      "{\"type\":\"FeatureCollection\",\"features\":[ \r\n\t ]}\n\n",
      #"{"features": [], "type": "FeatureCollection", "bbox": []}"#,
    ] {
      let file = try readGeoJSON(text)
      #expect(file.points.isEmpty && file.ids.isEmpty)
    }
  }

  @Test func whitespaceAndCRLFAreAllowedBetweenAnyTokens() throws {
    let compact = #"{"type":"FeatureCollection","features":[{"type":"Feature","#
      + #""geometry":{"type":"Point","coordinates":[1.5,-2]}}]}"#
    // The same with whitespace around every token (not inside strings and
    // numbers, where it would change them).
    let space = " \r\n\t\r\n "
    var spread = ""
    var inString = false
    for c in compact {
      if c == "\"" {
        spread += inString ? "\"" + space : space + "\""
        inString.toggle()
      } else {
        spread += !inString && "{}[]:,".contains(c) ? space + String(c) + space : String(c)
      }
    }
    #expect(try readGeoJSON(compact).points == [Point(x: 1.5, y: -2)])
    #expect(try readGeoJSON(spread).points == [Point(x: 1.5, y: -2)])
    #expect(try readGeoJSON("\r\n\t  " + compact + "\r\n\t  ").points == [Point(x: 1.5, y: -2)])
  }

  @Test func aByteOrderMarkAtTheStartIsSkipped() throws {
    let text = featureCollection([pointFeature("[7, 8]")])
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
    let file = try GeoJSONPoints.parse(bytes, source: "bom.geojson")
    #expect(file.points == [Point(x: 7, y: 8)])
  }

  @Test(arguments: [
    "-0", "0", "-0.0", "1e2", "1E-2", "0.5", "1E+2", "-1.5e1", "0.1", "12.345e-1", "90", "-90",
    "48.856614", "4.9e-324", "2.2250738585072014e-308", "1234567890123456789e-17",
    "0.30000000000000004", "89.99999999999999", "7e-10", "1.00000000000000011102230246251565",
    "0.000000000000000000000000000000000000000001", "1e-400", "-1e-400",
  ])
  func numbersAreExactlyTheDoublesSwiftParses(text: String) throws {
    let expected = try #require(Double(text))
    // as the latitude too when it is one (100 is not)
    let lat = abs(expected) <= 90 ? text : "0"
    let file = try readGeoJSON(featureCollection([pointFeature("[\(text), \(lat)]")]))
    #expect(file.points[0].x.bitPattern == expected.bitPattern)
    #expect(file.points[0].y.bitPattern == (abs(expected) <= 90 ? expected : 0).bitPattern)
  }

  @Test func negativeZeroKeepsItsSign() throws {
    let file = try readGeoJSON(featureCollection([pointFeature("[-0, -0.0e5]")]))
    #expect(file.points[0].x.sign == .minus && file.points[0].x == 0)
    #expect(file.points[0].y.sign == .minus && file.points[0].y == 0)
  }

  @Test func rangeEdgesAreValid() throws {
    let file = try readGeoJSON(
      featureCollection([
        pointFeature("[180, 90]"), pointFeature("[-180, -90]"), pointFeature("[-1.8e2, 9E1]"),
      ]))
    #expect(file.points == [Point(x: 180, y: 90), Point(x: -180, y: -90), Point(x: -180, y: 90)])
  }

  @Test func errorsNameTheSourceAsGiven() {
    let bytes = Array(featureCollection([pointFeature("[2]")]).utf8)
    do {
      _ = try GeoJSONPoints.parse(bytes, source: "data/2026/hotels.geojson")
      Issue.record("read a position without a latitude")
    } catch {
      #expect(error.file == "data/2026/hotels.geojson")
      #expect(error.description.hasPrefix("data/2026/hotels.geojson:2: "))
    }
  }
}

/// Every bad-data error, with its exact message, line and field.
@Suite struct GeoJSONPointsErrorTests {
  @Test(arguments: [
    ("LineString", #"{"type": "LineString", "coordinates": [[2, 48], [3, 49]]}"#),
    ("LineString", #"{"coordinates": [[2, 48], [3, 49]], "type": "LineString"}"#),
    ("MultiPoint", #"{"type": "MultiPoint", "coordinates": [[2, 48]]}"#),
    ("GeometryCollection",
     #"{"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [2, 48]}]}"#),
    ("Polygon", #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}"#),
    ("point", #"{"type": "point", "coordinates": [2, 48]}"#),
  ])
  func anotherGeometryTypeIsRefused(type: String, geometry: String) {
    // The type is reported even when the coordinates come first and, read
    // as a Point's, would be wrong: the type says what they were meant to be.
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[2, 48]"), feature(geometry: geometry)])),
      "places.geojson:3: features[1].geometry.type \"\(type)\" is not \"Point\""
        + " (only Point features hold points)",
      line: 3, field: "features[1].geometry.type")
  }

  @Test func aNullGeometryIsRefused() {
    expectBadData(
      geoJSONError(featureCollection([feature(geometry: "null")])),
      "places.geojson:2: features[0].geometry is null: a point needs a position",
      line: 2, field: "features[0].geometry")
  }

  @Test func aMissingGeometryIsRefused() {
    expectBadData(
      geoJSONError(featureCollection([#"{"type": "Feature", "properties": {"name": "x"}}"#])),
      "places.geojson:2: features[0] has no \"geometry\"", line: 2, field: "features[0]")
  }

  @Test func aGeometryThatIsNotAnObjectIsRefused() {
    expectBadData(
      geoJSONError(featureCollection([feature(geometry: "[2, 48]")])),
      "places.geojson:2: features[0].geometry is an array, not a geometry object",
      line: 2, field: "features[0].geometry")
    expectBadData(
      geoJSONError(featureCollection([feature(geometry: #""POINT (2 48)""#)])),
      "places.geojson:2: features[0].geometry is a string, not a geometry object",
      line: 2, field: "features[0].geometry")
  }

  @Test func aGeometryNeedsATypeAndCoordinates() {
    expectBadData(
      geoJSONError(featureCollection([feature(geometry: #"{"coordinates": [2, 48]}"#)])),
      "places.geojson:2: features[0].geometry has no \"type\"",
      line: 2, field: "features[0].geometry")
    expectBadData(
      geoJSONError(featureCollection([feature(geometry: #"{"type": "Point"}"#)])),
      "places.geojson:2: features[0].geometry has no \"coordinates\"",
      line: 2, field: "features[0].geometry")
    expectBadData(
      geoJSONError(featureCollection([feature(geometry: #"{"type": 1, "coordinates": [2, 48]}"#)])),
      "places.geojson:2: features[0].geometry.type is a number, not a string",
      line: 2, field: "features[0].geometry.type")
  }

  @Test func nestedCoordinatesAreNotAPoint() {
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[[2, 48]]")])),
      "places.geojson:2: features[0].geometry.coordinates[0] is an array, not a number",
      line: 2, field: "features[0].geometry.coordinates[0]")
  }

  @Test func numbersWrittenAsStringsAreRefused() {
    expectBadData(
      geoJSONError(featureCollection([pointFeature(#"["2.35", "48.85"]"#)])),
      "places.geojson:2: features[0].geometry.coordinates[0] is a string, not a number",
      line: 2, field: "features[0].geometry.coordinates[0]")
    expectBadData(
      geoJSONError(featureCollection([pointFeature(#"[2.35, 48.85, "35 m"]"#)])),
      "places.geojson:2: features[0].geometry.coordinates[2] is a string, not a number",
      line: 2, field: "features[0].geometry.coordinates[2]")
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[2.35, null]")])),
      "places.geojson:2: features[0].geometry.coordinates[1] is null, not a number",
      line: 2, field: "features[0].geometry.coordinates[1]")
  }

  @Test func aPositionNeedsTwoNumbers() {
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[2.35]")])),
      "places.geojson:2: features[0].geometry.coordinates has 1 number:"
        + " a position needs a longitude and a latitude",
      line: 2, field: "features[0].geometry.coordinates")
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[]")])),
      "places.geojson:2: features[0].geometry.coordinates has 0 numbers:"
        + " a position needs a longitude and a latitude",
      line: 2, field: "features[0].geometry.coordinates")
  }

  @Test(arguments: [
    ("2.35", "a number"), ("null", "null"), (#""2.35 48.85""#, "a string"), ("{}", "an object"),
  ])
  func coordinatesThatAreNotAnArrayAreRefused(value: String, kind: String) {
    expectBadData(
      geoJSONError(featureCollection([pointFeature(value)])),
      "places.geojson:2: features[0].geometry.coordinates is \(kind), not an array of numbers",
      line: 2, field: "features[0].geometry.coordinates")
  }

  @Test func aLongitudeOutsideTheRangeIsRefused() {
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[181, 0]")])),
      "places.geojson:2: features[0].geometry.coordinates[0] longitude 181.0"
        + " is outside [-180, 180]",
      line: 2, field: "features[0].geometry.coordinates[0]")
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[-180.000001, 0]")])),
      "places.geojson:2: features[0].geometry.coordinates[0] longitude -180.000001"
        + " is outside [-180, 180]",
      line: 2, field: "features[0].geometry.coordinates[0]")
  }

  @Test func aLatitudeOutsideTheRangeIsRefused() {
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[0, -91]")])),
      "places.geojson:2: features[0].geometry.coordinates[1] latitude -91.0 is outside [-90, 90]",
      line: 2, field: "features[0].geometry.coordinates[1]")
    // A position written [lat, lon] by mistake is caught when the longitude
    // read as a latitude is beyond 90.
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[48.85, 122.35]")])),
      "places.geojson:2: features[0].geometry.coordinates[1] latitude 122.35 is outside [-90, 90]",
      line: 2, field: "features[0].geometry.coordinates[1]")
  }

  @Test func aNumberBeyondTheLargestDoubleIsRefused() {
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[1e400, 0]")])),
      "places.geojson:2: features[0].geometry.coordinates[0] is not a finite number",
      line: 2, field: "features[0].geometry.coordinates[0]")
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[0, -1E+400]")])),
      "places.geojson:2: features[0].geometry.coordinates[1] is not a finite number",
      line: 2, field: "features[0].geometry.coordinates[1]")
  }

  @Test func aFeatureMustHaveTheTypeFeature() {
    let point = #"{"type": "Point", "coordinates": [2, 48]}"#
    expectBadData(
      geoJSONError(featureCollection([#"{"type": "feature", "geometry": \#(point)}"#])),
      "places.geojson:2: features[0].type \"feature\" is not \"Feature\"",
      line: 2, field: "features[0].type")
    expectBadData(
      geoJSONError(featureCollection([#"{"geometry": \#(point)}"#])),
      "places.geojson:2: features[0] has no \"type\"", line: 2, field: "features[0]")
    expectBadData(
      geoJSONError(featureCollection([#"{"type": ["Feature"], "geometry": null}"#])),
      "places.geojson:2: features[0].type is an array, not a string",
      line: 2, field: "features[0].type")
  }

  @Test func aFeatureThatIsNotAnObjectIsRefused() {
    for (value, kind) in [
      ("[2, 48]", "an array"), ("null", "null"), (#""Paris""#, "a string"), ("7", "a number"),
    ] {
      expectBadData(
        geoJSONError(featureCollection([pointFeature("[2, 48]"), value])),
        "places.geojson:3: features[1] is \(kind), not a Feature object",
        line: 3, field: "features[1]")
    }
  }

  @Test func theTopLevelMustBeAnObject() {
    expectBadData(
      geoJSONError("[\n" + pointFeature("[2, 48]") + "\n]"),
      "places.geojson:1: the top level is an array, not a FeatureCollection object",
      line: 1, field: nil)
    expectBadData(
      geoJSONError("\n\n  \"FeatureCollection\""),
      "places.geojson:3: the top level is a string, not a FeatureCollection object",
      line: 3, field: nil)
  }

  @Test func theTopLevelMustBeAFeatureCollection() {
    // A single Feature is valid GeoJSON, but not a collection of points.
    expectBadData(
      geoJSONError(pointFeature("[2, 48]")),
      "places.geojson:1: type \"Feature\" is not \"FeatureCollection\"", line: 1, field: "type")
    expectBadData(
      geoJSONError(#"{"type": "Point", "coordinates": [2, 48]}"#),
      "places.geojson:1: type \"Point\" is not \"FeatureCollection\"", line: 1, field: "type")
    expectBadData(
      geoJSONError(#"{"features": []}"#), "places.geojson:1: the top level has no \"type\"",
      line: 1, field: nil)
    expectBadData(
      geoJSONError(#"{"type": 1, "features": []}"#),
      "places.geojson:1: type is a number, not a string",
      line: 1, field: "type")
  }

  @Test func theFeatureCollectionNeedsAFeaturesArray() {
    expectBadData(
      geoJSONError(#"{"type": "FeatureCollection"}"#),
      "places.geojson:1: the FeatureCollection has no \"features\"", line: 1, field: nil)
    expectBadData(
      geoJSONError("{\"type\": \"FeatureCollection\",\n \"features\": {}}"),
      "places.geojson:2: features is an object, not an array", line: 2, field: "features")
    expectBadData(
      geoJSONError(#"{"type": "FeatureCollection", "features": null}"#),
      "places.geojson:1: features is null, not an array", line: 1, field: "features")
  }

  @Test func aKeyGivenTwiceIsRefused() {
    expectBadData(
      geoJSONError(#"{"type": "FeatureCollection", "features": [], "type": "FeatureCollection"}"#),
      "places.geojson:1: the top level has \"type\" twice", line: 1, field: nil)
    expectBadData(
      // the same key, escaped
      geoJSONError(#"{"type": "FeatureCollection", "features": [], "\u0074ype": "Feature"}"#),
      "places.geojson:1: the top level has \"type\" twice", line: 1, field: nil)
    expectBadData(
      geoJSONError(#"{"type": "FeatureCollection", "bbox": [], "features": [], "bbox": []}"#),
      "places.geojson:1: the top level has \"bbox\" twice", line: 1, field: nil)
    expectBadData(
      geoJSONError(featureCollection([
        #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2, 48]},"#
          + #" "geometry": null}"#
      ])),
      "places.geojson:2: features[0] has \"geometry\" twice", line: 2, field: nil)
    expectBadData(
      geoJSONError(featureCollection([pointFeature("[2, 48], \"coordinates\": [3, 49]")])),
      "places.geojson:2: features[0].geometry has \"coordinates\" twice", line: 2, field: nil)
  }

  @Test(arguments: [
    // trailing commas
    (pointFeature("[2, 48,]"), 2, #"expected a value, found "]""#),
    (pointFeature("[2, 48]") + ",", 3, #"expected a value, found "]""#),
    (#"{"type": "Feature", "properties": null,}"#, 2, #"expected a quoted key, found "}""#),
    // single quotes
    ("{'type': 'Feature'}", 2, #"expected a quoted key, found "'""#),
    (#"{"type": 'Feature'}"#, 2, #"expected a value, found "'""#),
    (pointFeature("[2, '48']"), 2, #"expected a value, found "'""#),
    // numbers JSON does not have
    (pointFeature("[02, 48]"), 2, #""02" is not a JSON number"#),
    (pointFeature("[2, -048.5]"), 2, #""-048.5" is not a JSON number"#),
    (pointFeature("[+2, 48]"), 2, #"expected a value, found "+""#),
    (pointFeature("[2, 48e+]"), 2, #""48e+" is not a JSON number"#),
    (pointFeature("[2., 48]"), 2, #""2." is not a JSON number"#),
    (pointFeature("[.5, 48]"), 2, #"expected a value, found ".""#),
    (pointFeature("[-, 48]"), 2, #""-" is not a JSON number"#),
    (pointFeature("[NaN, 48]"), 2, #"expected a value, found "N""#),
    (pointFeature("[2, Infinity]"), 2, #"expected a value, found "I""#),
    (pointFeature("[2, -Infinity]"), 2, #""-" is not a JSON number"#),
    (pointFeature("[0x10, 48]"), 2, #"expected "," or "]" after a coordinate, found "x""#),
    // broken strings, literals and punctuation
    (#"{"type": "Feature", "properties": {"a": "\x"}, "geometry": null}"#, 2,
     #"an unknown escape \x"#),
    (#"{"type": "Feature", "properties": {"a": "\u12G4"}}"#, 2,
     #"\u needs four hex digits, found "G""#),
    (#"{"type": "Feature", "properties": {"a": "\ud83d"}}"#, 2, #"a lone surrogate \ud83d"#),
    (#"{"type": "Feature", "properties": {"a": "\ude00"}}"#, 2, #"a lone surrogate \ude00"#),
    (#"{"type": "Feature", "properties": {"a": "\ud83d\u0041"}}"#, 2, #"a lone surrogate \ud83d"#),
    ("{\"type\": \"Feature\", \"properties\": {\"a\": \"tab\there\"}}", 2,
     "a control character (byte 0x09) inside a string"),
    (#"{"type": "Feature", "properties": {"a": tru}}"#, 2, "expected true"),
    (#"{"type": "Feature", "properties": {"a": nul}}"#, 2, "expected null"),
    (#"{"type": "Feature", "properties": {"a" 1}}"#, 2,
     #"expected ":" after an object key, found "1""#),
    (#"{"type": "Feature", "properties": {"a": 1 "b": 2}}"#, 2,
     #"expected "," or "}" after an object member, found a quote"#),
    (#"{"type": "Feature", "properties": [1 2]}"#, 2,
     #"expected "," or "]" after an array element, found "2""#),
    (pointFeature("[2 48]"), 2, #"expected "," or "]" after a coordinate, found "4""#),
    (#"{"type": "Feature" "geometry": null}"#, 2,
     #"expected "," or "}" after a member of features[0], found a quote"#),
  ])
  func invalidJSONIsRefused(feature: String, line: Int, message: String) {
    expectBadData(
      geoJSONError(featureCollection([feature])),
      "places.geojson:\(line): invalid JSON: \(message)",
      line: line, field: nil)
  }

  @Test func anUnterminatedStringIsReportedWhereItOpened() {
    expectBadData(
      geoJSONError(
        "{\"type\": \"FeatureCollection\",\n \"features\": [],\n \"name\": \"Caf\\u00e9"),
      "places.geojson:3: invalid JSON: a string that never ends", line: 3, field: nil)
    expectBadData(
      geoJSONError("{\"type\": \"FeatureCollection\", \"features\": [], \"name\": \"Caf\\"),
      "places.geojson:1: invalid JSON: a string that never ends", line: 1, field: nil)
  }

  @Test func aLineBreakInsideAStringIsReportedOnTheStringsLine() {
    expectBadData(
      geoJSONError("{\"type\": \"FeatureCollection\", \"name\": \"two\nlines\", \"features\": []}"),
      "places.geojson:1: invalid JSON: a control character (byte 0x0A) inside a string",
      line: 1, field: nil)
  }

  @Test func anUnterminatedDocumentIsRefused() {
    expectBadData(
      geoJSONError(
        "{\"type\": \"FeatureCollection\", \"features\": [\n" + pointFeature("[2, 48]") + "\n"),
      "places.geojson:3: invalid JSON: expected \",\" or \"]\" after a feature,"
        + " found the end of the file",
      line: 3, field: nil)
    expectBadData(
      geoJSONError("{\"type\": \"FeatureCollection\", \"features\": [\n"
        + #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2, 48"#),
      "places.geojson:2: invalid JSON: expected \",\" or \"]\" after a coordinate,"
        + " found the end of the file",
      line: 2, field: nil)
    expectBadData(
      geoJSONError(#"{"type": "FeatureCollection", "features": [], "bbox": [[1, 2], [3"#),
      "places.geojson:1: invalid JSON: expected \",\" or \"]\" after an array element,"
        + " found the end of the file",
      line: 1, field: nil)
    expectBadData(
      geoJSONError(#"{"type": "FeatureCollection", "features": []"#),
      "places.geojson:1: invalid JSON: expected \",\" or \"}\" after a member of the top level,"
        + " found the end of the file",
      line: 1, field: nil)
    expectBadData(
      geoJSONError(#"{"type": "FeatureCollection", "features": "#),
      "places.geojson:1: invalid JSON: expected a value, found the end of the file",
      line: 1, field: nil)
  }

  @Test func anEmptyFileIsRefused() {
    expectBadData(
      geoJSONError(""),
      "places.geojson:1: invalid JSON: expected a value, found the end of the file",
      line: 1, field: nil)
    expectBadData(
      geoJSONError(" \n\r\n"),
      "places.geojson:3: invalid JSON: expected a value, found the end of the file",
      line: 3, field: nil)
  }

  @Test func textAfterTheClosingBraceIsRefused() {
    let valid = featureCollection([pointFeature("[2, 48]")])  // ends with "]}\n": line 4 is next
    expectBadData(
      geoJSONError(valid + "x"),
      "places.geojson:4: invalid JSON: \"x\" after the FeatureCollection's closing brace",
      line: 4, field: nil)
    expectBadData(
      geoJSONError(valid + "\n" + valid),
      "places.geojson:5: invalid JSON: \"{\" after the FeatureCollection's closing brace",
      line: 5, field: nil)
    expectBadData(
      geoJSONError(valid + "\0"),
      "places.geojson:4: invalid JSON: byte 0x00 after the FeatureCollection's closing brace",
      line: 4, field: nil)
  }

  @Test func aBrokenByteOrderMarkIsRefused() {
    let bytes: [UInt8] = [0xEF, 0xBB, 0x7B, 0x7D]
    let error = DataError.badData(
      file: "bom.geojson", line: 1, field: nil,
      message: "invalid JSON: a broken byte-order mark at the start")
    #expect(throws: error) {
      try GeoJSONPoints.parse(bytes, source: "bom.geojson")
    }
  }

  /// Each error names the physical line of the token at fault, not the line
  /// where its member or its feature began.
  @Test func theLineIsTheOffendingTokensLine() throws {
    func document(_ coordinates: String, geometry: String? = nil) -> String {
      let g = geometry ?? """
            {"type": "Point",
             "coordinates": \(coordinates)}
        """
      return """
        {"type": "FeatureCollection",
         "features": [
          {"type": "Feature", "properties": {"name": "ok"},
           "geometry": {"type": "Point", "coordinates": [2, 48]}},
          {"type": "Feature",
           "geometry":
        \(g)
          }
        ]}
        """
    }
    // A position's numbers, one per line (lines 9, 10 and 11).
    let numbers = "[\n    2,\n    48,\n    35\n  ]"
    #expect(try readGeoJSON(document(numbers)).points == [Point(x: 2, y: 48), Point(x: 2, y: 48)])
    let field = "features[1].geometry.coordinates"
    expectBadData(
      geoJSONError(document("[\n    200,\n    48\n  ]")),
      "places.geojson:9: \(field)[0] longitude 200.0 is outside [-180, 180]",
      line: 9, field: field + "[0]")
    expectBadData(
      geoJSONError(document("[\n    2,\n    95\n  ]")),
      "places.geojson:10: \(field)[1] latitude 95.0 is outside [-90, 90]",
      line: 10, field: field + "[1]")
    expectBadData(
      geoJSONError(document("[\n    2,\n    \"48\"\n  ]")),
      "places.geojson:10: \(field)[1] is a string, not a number", line: 10, field: field + "[1]")
    expectBadData(
      geoJSONError(document("[\n    2,\n    1e999\n  ]")),
      "places.geojson:10: \(field)[1] is not a finite number", line: 10, field: field + "[1]")
    expectBadData(
      geoJSONError(document("[\n    2,\n    048\n  ]")),
      "places.geojson:10: invalid JSON: \"048\" is not a JSON number", line: 10, field: nil)
    // A whole-position problem is on the line of its opening bracket.
    expectBadData(
      geoJSONError(document("\n    [2\n    ]")),
      "places.geojson:9: \(field) has 1 number: a position needs a longitude and a latitude",
      line: 9, field: field)
    expectBadData(
      geoJSONError(document("\n    \"2 48\"")),
      "places.geojson:9: \(field) is a string, not an array of numbers", line: 9, field: field)
    // A geometry on the line after its key.
    expectBadData(
      geoJSONError(document("", geometry: "    null")),
      "places.geojson:7: features[1].geometry is null: a point needs a position",
      line: 7, field: "features[1].geometry")
    expectBadData(
      geoJSONError(document("", geometry: "    {\n \"coordinates\": [2, 48]}")),
      "places.geojson:7: features[1].geometry has no \"type\"",
      line: 7, field: "features[1].geometry")
    expectBadData(
      geoJSONError(
        document("", geometry: "    {\"type\":\n\n \"MultiPoint\", \"coordinates\": []}")),
      "places.geojson:9: features[1].geometry.type \"MultiPoint\" is not \"Point\""
        + " (only Point features hold points)",
      line: 9, field: "features[1].geometry.type")
    // A key given twice, on the line after the comma.
    expectBadData(
      geoJSONError(document("[2, 48],\n  \"type\": \"Point\"")),
      "places.geojson:9: features[1].geometry has \"type\" twice", line: 9, field: nil)
    // Lines are counted once per CRLF.
    expectBadData(
      geoJSONError(
        document("[\n    2,\n    95\n  ]").split(separator: "\n").joined(separator: "\r\n")),
      "places.geojson:10: \(field)[1] latitude 95.0 is outside [-90, 90]",
      line: 10, field: field + "[1]")
  }

  @Test func theFirstErrorInTheFileWins() {
    expectBadData(
      geoJSONError(featureCollection([
        pointFeature("[2, 95]"), feature(geometry: #"{"type": "LineString", "coordinates": []}"#),
      ])),
      "places.geojson:2: features[0].geometry.coordinates[1] latitude 95.0 is outside [-90, 90]",
      line: 2, field: "features[0].geometry.coordinates[1]")
    // Within a position, the first element at fault.
    expectBadData(
      geoJSONError(featureCollection([pointFeature(#"[2, "48", [3]]"#)])),
      "places.geojson:2: features[0].geometry.coordinates[1] is a string, not a number",
      line: 2, field: "features[0].geometry.coordinates[1]")
  }
}

/// A FeatureCollection of `count` Point features made as it is read, handed
/// out in pieces whose sizes cycle through `sizes`: only the feature being
/// handed out is held, never the document. Features vary in key order,
/// number form (`-12.345`, `-12345e-3`, `-12345E-3`), skipped members,
/// escapes and whitespace, so the pieces cut every kind of token. Feature
/// `k` is on line `k + 2`, its position is ``position(_:)``.
struct GeneratedCollection: ByteSource {
  let count: Int
  let sizes: [Int]
  /// A feature written in place of feature `replaced.k`, to put an error
  /// deep into the stream.
  var replaced: (k: Int, text: String)? = nil
  private var pending: [UInt8] = Array("{\"type\": \"FeatureCollection\", \"features\": [\n".utf8)
  private var taken = 0
  private var next = 0
  private var closed = false
  private var turn = 0

  init(count: Int, sizes: [Int], replaced: (k: Int, text: String)? = nil) {
    precondition(sizes.allSatisfy { $0 > 0 }, "a piece of 0 bytes would mean the end")
    self.count = count
    self.sizes = sizes
    self.replaced = replaced
  }

  /// Feature `k`'s position in thousandths of a degree, spread over the
  /// whole range, both edges included.
  static func milli(_ k: Int) -> (lon: Int, lat: Int) {
    ((k &* 7919) % 360_001 - 180_000, (k &* 104_729) % 180_001 - 90_000)
  }

  /// The point feature `k` holds: each text form of a thousandth is read as
  /// the double nearest to it, which is what this division gives.
  static func position(_ k: Int) -> Point {
    let m = milli(k)
    return Point(x: Double(m.lon) / 1000, y: Double(m.lat) / 1000)
  }

  static func text(_ k: Int) -> String {
    let m = milli(k)
    let p = position(k)
    switch k % 4 {
    case 0:
      return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(p.x),\#(p.y)]},"#
        + #""properties":{"k":\#(k)}}"#
    case 1:
      return #"{"geometry":{"coordinates":[\#(m.lon)e-3,\#(m.lat)e-3,12.5],"type":"Point"},"#
        + #""type":"Feature","id":"f\u00e9\#(k)"}"#
    case 2:
      return #" {"type" : "Feature" ,"properties" : {"name" : "a \"q\" \\ \ud83d\ude00","#
        + #" "tags" : [1, [2, {}], null, true, false]},  "geometry" :"#
        + "\t{ \"type\" : \"Point\" , \"coordinates\" : [ \(p.x) ,\t\(p.y) ] } }\t"
    default:
      return #"{"type":"Feature","bbox":[\#(p.x),\#(p.y),\#(p.x),\#(p.y)],"properties":null,"#
        + #""geometry":{"bbox":[],"type":"Point","coordinates":[\#(m.lon)E-3,\#(m.lat)E-3]}}"#
    }
  }

  mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int {
    let want = min(sizes[turn % sizes.count], buffer.count)
    turn += 1
    var n = 0
    while n < want {
      if taken == pending.count {
        guard refill() else { break }
      }
      let m = min(want - n, pending.count - taken)
      for i in 0..<m { buffer[n + i] = pending[taken + i] }
      n += m
      taken += m
    }
    return n
  }

  /// The next feature's bytes in `pending`; `false` after the closing brace.
  private mutating func refill() -> Bool {
    pending.removeAll(keepingCapacity: true)
    taken = 0
    if next < count {
      // odd features end their line with CRLF, even ones with LF
      if next > 0 { pending += Array((next % 2 == 0 ? ",\r\n" : ",\n").utf8) }
      let text = replaced?.k == next ? replaced!.text : Self.text(next)
      pending += Array(text.utf8)
      next += 1
    } else if !closed {
      pending = Array("\n]}\n".utf8)
      closed = true
    } else {
      return false
    }
    return true
  }
}

/// An order-sensitive digest of every bit of every point (FNV-1a over the
/// coordinates' bit patterns).
func checksum<S: Sequence<Point>>(_ points: S) -> UInt64 {
  var h: UInt64 = 0xcbf2_9ce4_8422_2325
  for p in points {
    h = (h ^ p.x.bitPattern) &* 0x100_0000_01b3
    h = (h ^ p.y.bitPattern) &* 0x100_0000_01b3
  }
  return h
}

/// Reading a stream: pieces of any size, tokens cut anywhere.
@Suite struct GeoJSONStreamingTests {
  /// Features in the longest stream: a million in an optimized build. A
  /// debug build reads about 50,000 features a second, so it reads a tenth
  /// to stay within a few seconds.
  #if DEBUG
  static let longest = 100_000
  #else
  static let longest = 1_000_000
  #endif

  /// Piece sizes, and how many features to generate with them: small pieces
  /// cost a call per few bytes, so they get fewer features. 100,000 bytes is
  /// more than the reader's 64 KiB chunk asks for: it gets what fits.
  static let pieces: [(sizes: [Int], count: Int)] = [
    ([100_000], longest),
    ([4096], longest / 4),
    ([7], longest / 10),
    ([1], longest / 50),
    ([1, 7, 4096, 100_000, 3, 65_535, 2], longest / 4),
  ]

  @Test(arguments: pieces)
  func aGeneratedStreamIsReadExactlyWhateverThePieceSizes(sizes: [Int], count: Int) throws {
    let file = try GeoJSONPoints.read(
      from: GeneratedCollection(count: count, sizes: sizes), source: "generated.geojson")
    #expect(file.source == "generated.geojson")
    #expect(file.count == count)
    #expect(file.ids.count == count && file.ids.first == 0 && file.ids.last == UInt64(count - 1))
    #expect(file.points.first == GeneratedCollection.position(0))
    #expect(file.points.last == GeneratedCollection.position(count - 1))
    #expect(checksum(file.points) == checksum((0..<count).lazy.map(GeneratedCollection.position)))
  }

  @Test func theGeneratorCoversTheRangeEdges() {
    // 360,000 and 180,000 steps reach both edges, so a stream of this
    // length holds ±180 and ±90 somewhere.
    let points = (0..<400_000).map(GeneratedCollection.position)
    #expect(points.contains { $0.x == 180 } && points.contains { $0.x == -180 })
    #expect(points.contains { $0.y == 90 } && points.contains { $0.y == -90 })
  }

  @Test func anErrorDeepInTheStreamNamesItsLine() {
    let count = 20_000
    for (k, sizes) in [(count - 1, [4096]), (13_337, [1, 4096, 7, 100_000])] {
      let line = feature(geometry: #"{"type": "LineString", "coordinates": [[2, 48], [3, 49]]}"#)
      let source = GeneratedCollection(count: count, sizes: sizes, replaced: (k, line))
      do {
        _ = try GeoJSONPoints.read(from: source, source: "generated.geojson")
        Issue.record("read a LineString")
      } catch {
        expectBadData(
          error,
          "generated.geojson:\(k + 2): features[\(k)].geometry.type \"LineString\" is not \"Point\""
            + " (only Point features hold points)",
          line: k + 2, field: "features[\(k)].geometry.type")
      }
    }
  }

  /// A small document with every kind of token: a BOM, long numbers, keys,
  /// escapes (`\"`, `\\`, `\u00e9`, a surrogate pair), literals, CRLF.
  static let tokens =
    "\u{FEFF}{\"type\": \"FeatureCollection\",\r\n \"name\": \"caf\\u00e9 \\\"\\\\\\ud83d\\ude00\","
    + " \"features\": [\r\n"
    + #"  {"type": "Feature", "properties": {"ok": true, "no": false, "none": null},"# + "\r\n"
    + #"   "geometry": {"type": "Point", "coordinates": [-123.4567890123456e-1, 0.000012345678]}},"#
    + "\n"
    + #"  {"geometry": {"coordinates": [179.99999999999997, -89.99999999999999, 1E+2],"#
    + #" "type": "Point"}, "type": "Feature", "id": "\ud83d\ude00"}"# + "\n]}\n"

  /// The outcome of reading `bytes` cut into pieces of `sizes`.
  func outcome(_ bytes: [UInt8], _ sizes: [Int]) -> Result<[Point], DataError> {
    Result { () throws(DataError) in
      try GeoJSONPoints.read(from: PieceSource(bytes, sizes: sizes), source: "cut.geojson").points
    }
  }

  @Test(arguments: [
    ("a valid document", tokens),
    // errors at the end, after every kind of token: a bad latitude, an
    // escape the next piece breaks, an unterminated string
    ("a bad latitude", tokens.replacing("-89.99999999999999", with: "-90.0000001")),
    ("a lone surrogate", tokens.replacing(#""\ud83d\ude00"}"#, with: #""\ud83d\u0041"}"#)),
    ("an unterminated string", String(tokens.dropLast(6))),
  ])
  func tokensCutAtAnyByteReadTheSame(_ what: String, text: String) throws {
    let bytes = Array(text.utf8)
    let whole = outcome(bytes, [bytes.count])
    if what == "a valid document" {
      #expect(
        try whole.get() == [
          Point(x: -12.34567890123456, y: 0.000012345678),
          Point(x: 179.99999999999997, y: -89.99999999999999),
        ])
    } else {
      #expect(throws: DataError.self) { try whole.get() }
    }
    #expect(outcome(bytes, [1]) == whole)
    for cut in 1..<bytes.count {
      // the first piece ends inside whatever token is at `cut`
      #expect(outcome(bytes, [cut, bytes.count]) == whole, "cut at byte \(cut)")
    }
  }

  @Test func tokensCutAtTheReadersChunkBoundaryReadTheSame() throws {
    // Whitespace before the document moves each token of interest across
    // the 64 KiB boundary of the reader's own chunks, one byte at a time.
    let text = Self.tokens
    let bytes = Array(text.utf8)
    let expected = try GeoJSONPoints.parse(bytes, source: "chunk.geojson").points
    for token in ["-123.4567890123456e-1", "\"coordinates\"", "\\u00e9", "\\ud83d\\ude00", "true"] {
      let start = try #require(text.utf8.firstRange(of: token.utf8)).lowerBound
      let offset = text.utf8.distance(from: text.utf8.startIndex, to: start)
      for inside in 1..<token.utf8.count {
        let padding = [UInt8](repeating: UInt8(ascii: " "), count: 65_536 - offset - inside)
        // the BOM must stay first, so the padding goes after it
        let padded = Array(bytes[..<3]) + padding + Array(bytes[3...])
        let file = try GeoJSONPoints.parse(padded, source: "chunk.geojson")
        #expect(file.points == expected, "\(token) cut after \(inside) bytes")
      }
    }
  }
}

/// Files on disk, and the formats the extension selects.
@Suite struct GeoJSONFileTests {
  static let paris = featureCollection([
    pointFeature("[2.3522, 48.8566]"), pointFeature("[4.8357, 45.764]"),
  ])
  static let parisPoints = [Point(x: 2.3522, y: 48.8566), Point(x: 4.8357, y: 45.764)]

  @Test func readsAFileOnDisk() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = try dir.write("cities.geojson", Self.paris)
    let file = try GeoJSONPoints.read(path)
    #expect(file.source == path)
    #expect(file.points == Self.parisPoints)
    #expect(file.ids == [0, 1])
  }

  @Test func readsAFileOfManyChunks() throws {
    // 20,000 features, about 2.8 MB: dozens of 64 KiB reads from the file.
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let count = 20_000
    var source = GeneratedCollection(count: count, sizes: [1 << 20])
    var bytes: [UInt8] = []
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 16) { block in
      while case let n = try source.read(into: block), n > 0 {
        bytes += UnsafeBufferPointer(rebasing: block[..<n])
      }
    }
    #expect(bytes.count > 32 * (1 << 16))
    let file = try GeoJSONPoints.read(try dir.write("generated.geojson", bytes))
    #expect(file.count == count)
    #expect(checksum(file.points) == checksum((0..<count).lazy.map(GeneratedCollection.position)))
  }

  @Test func errorsNameThePathAsGiven() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = try dir.write(
      "bad.geojson", featureCollection([pointFeature("[2, 48]"), pointFeature("[2, 91]")]))
    // (a switch: an array of the three typed-throws functions crashes Swift 6.3's SILGen)
    for reader in 0..<3 {
      do {
        switch reader {
        case 0: _ = try GeoJSONPoints.read(path)
        case 1: _ = try Datasets.readPoints(path)
        default: _ = try PointFileFormat.read(path)
        }
        Issue.record("read latitude 91")
      } catch {
        expectBadData(
          error,
          "\(path):3: features[1].geometry.coordinates[1] latitude 91.0 is outside [-90, 90]",
          line: 3, field: "features[1].geometry.coordinates[1]")
      }
    }
  }

  @Test func aMissingFileIsUnreadable() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = dir.path + "/nope.geojson"
    #expect(throws: DataError.unreadable(file: path, reason: "no such file")) {
      try GeoJSONPoints.read(path)
    }
    #expect(throws: DataError.unreadable(file: path, reason: "no such file")) {
      try Datasets.readPoints(path)
    }
  }

  @Test(arguments: [
    "a.geojson", "a.json", "A.GEOJSON", "b.GeoJSON", "c.JSON", "d.Json", "e.csv.json",
  ])
  func geoJSONAndJSONExtensionsSelectGeoJSONInAnyCase(name: String) throws {
    #expect(PointFileFormat(path: name) == .geoJSON)
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = try dir.write(name, Self.paris)
    #expect(try PointFileFormat.read(path).points == Self.parisPoints)
    let file = try Datasets.readPoints(path)
    #expect(file.points == Self.parisPoints)
    #expect(file.source == path)
    #expect(Datasets.isFile(name))
  }

  @Test func otherExtensionsAreReadAsCSV() throws {
    #expect(PointFileFormat(path: "a.csv") == .csv)
    #expect(PointFileFormat(path: "a.CSV") == .csv)
    #expect(PointFileFormat(path: "a.geojson.csv") == .csv)
    #expect(PointFileFormat(path: "a.txt") == nil)
    #expect(PointFileFormat(path: "geojson") == nil)
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    // Without a known extension a file is CSV, even when it holds GeoJSON.
    let csv = try dir.write("points.txt", "lat,lon\n48.8566,2.3522\n")
    #expect(try Datasets.readPoints(csv).points == [Point(x: 2.3522, y: 48.8566)])
    let geoJSONAsCSV = try dir.write("points.CSV", Self.paris)
    #expect(throws: DataError.self) { try PointFileFormat.read(geoJSONAsCSV) }
  }
}
