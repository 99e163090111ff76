import Testing
import SpatialIndexes
@testable import BenchFormats

/// Valid files, including the odd corners of RFC 4180.
@Suite struct PointsFileTests {
  @Test func readsIdsAndCoordinates() throws {
    let file = try readPoints("id,lat,lon,name\n12,32.05908,48.86752,Takht\n38,-1.5,-179.25,X\n")
    #expect(file.source == "places.csv")
    #expect(file.points == [Point(x: 48.86752, y: 32.05908), Point(x: -179.25, y: -1.5)])
    #expect(file.ids == [12, 38])
    #expect(file.count == 2)
  }

  @Test func withoutIdColumnIdsAreRowNumbers() throws {
    let file = try readPoints("lat,lon\n1,2\n3,4\n5,6\n")
    #expect(file.ids == [0, 1, 2])
    #expect(file.points.map(\.y) == [1, 3, 5])
  }

  @Test func headerOnlyIsAnEmptyDataset() throws {
    for text in ["id,lat,lon\n", "id,lat,lon", "id,lat,lon\r\n", "id,lat,lon\n\n\n"] {
      let file = try readPoints(text)
      #expect(file.points.isEmpty && file.ids.isEmpty)
    }
  }

  @Test func crlfLineEndings() throws {
    let file = try readPoints("id,lat,lon\r\n1,10,20\r\n2,30,40\r\n")
    #expect(file.ids == [1, 2])
    #expect(file.points == [Point(x: 20, y: 10), Point(x: 40, y: 30)])
    // Lines are still counted one per CRLF.
    expectBadData(
      pointsError("id,lat,lon\r\n1,10,20\r\n2,x,40\r\n"), "places.csv:3: lat \"x\" is not a number",
      line: 3, field: "lat")
  }

  @Test func byteOrderMarkIsSkipped() throws {
    let file = try PointsFile(parsing: [0xEF, 0xBB, 0xBF] + Array("id,lat,lon\n7,1,2\n".utf8), source: "bom.csv")
    #expect(file.ids == [7])
    #expect(file.points == [Point(x: 2, y: 1)])
  }

  @Test func lastRecordNeedsNoNewline() throws {
    let file = try readPoints("id,lat,lon\n1,2,3")
    #expect(file.ids == [1])
  }

  @Test func trailingBlankLinesAreIgnored() throws {
    #expect(try readPoints("id,lat,lon\n1,2,3\n\n\n").ids == [1])
    #expect(try readPoints("id,lat,lon\r\n1,2,3\r\n\r\n").ids == [1])
  }

  @Test func quotedFieldsWithCommasQuotesAndLineBreaks() throws {
    let text =
      "id,lat,lon,name\n"  // line 1
      + "1,1,1,\"Washington, D.C.\"\n"  // line 2
      + "2,2,2,\"say \"\"hi\"\"\"\n"  // line 3
      + "3,\"3.5\",3,\"two\nlines\"\n"  // lines 4-5
      + "4,4,4,\"three\r\nlines\rwith a lone CR\"\n"  // lines 6-7
      + "5,5,5,\"\"\n"  // line 8
      + "6,x,6,after\n"  // line 9
    expectBadData(pointsError(text), "places.csv:9: lat \"x\" is not a number", line: 9, field: "lat")
    let valid = try readPoints(String(text.dropLast("6,x,6,after\n".utf8.count)))
    #expect(valid.ids == [1, 2, 3, 4, 5])
    #expect(valid.points[2] == Point(x: 3, y: 3.5))
  }

  @Test func scannerUnescapesQuotedFields() throws {
    let bytes = Array("a,\"b,c\",\"d \"\"e\"\"\",\"f\ng\",\"\"\nh\n".utf8)
    try bytes.withUnsafeBufferPointer { p throws in
      var scanner = _CSVScanner(p)
      var fields: [_CSVField] = []
      #expect(try scanner.nextRecord(into: &fields) == 1)
      #expect(fields.map { scanner.text(of: $0) } == ["a", "b,c", "d \"e\"", "f\ng", ""])
      #expect(try scanner.nextRecord(into: &fields) == 3)
      #expect(fields.map { scanner.text(of: $0) } == ["h"])
      #expect(try scanner.nextRecord(into: &fields) == nil)
    }
  }

  @Test func unquotedQuoteIsData() throws {
    let file = try readPoints("id,lat,lon,name\n1,2,3,5'11\" tall\n")
    #expect(file.ids == [1])
  }

  @Test func idsWithLeadingZeros() throws {
    let file = try readPoints("id,lat,lon\n00501,40.8154,-73.0451\n00000000000000000000000042,0,0\n+7,0,0\n")
    #expect(file.ids == [501, 42, 7])
  }

  @Test func largestIdFits() throws {
    #expect(try readPoints("id,lat,lon\n18446744073709551615,0,0\n").ids == [UInt64.max])
  }

  @Test func columnsInAnyOrderWithExtras() throws {
    let file = try readPoints("name,lon,extra,id,lat,more\nParis,2.35,x,9,48.85,y\n")
    #expect(file.ids == [9])
    #expect(file.points == [Point(x: 2.35, y: 48.85)])
  }

  @Test(arguments: [
    "latitude,longitude", "Latitude,Longitude", "LAT,LNG", " lat , lon ", "lat,lng", "\tLat\t,\"Lon\"",
  ])
  func columnNameVariants(header: String) throws {
    let file = try readPoints("\(header)\n1,2\n")
    #expect(file.points == [Point(x: 2, y: 1)])
  }

  @Test func spacesAroundNumbersAreIgnored() throws {
    let file = try readPoints("id,lat,lon\n 5 , 1.5 ,\t-2\t\n")
    #expect(file.ids == [5])
    #expect(file.points == [Point(x: -2, y: 1.5)])
  }

  @Test func rangeEdgesAreValid() throws {
    let file = try readPoints("lat,lon\n90,180\n-90,-180\n-0,0\n1e1,-1.5E+2\n")
    #expect(file.points.map(\.y) == [90, -90, 0, 10])
    #expect(file.points.map(\.x) == [180, -180, 0, -150])
    #expect(file.points[2].y.sign == .minus)
  }

  @Test func readsFromAFileAndFromRawBytes() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let text = "id,lat,lon\n3,4,5\n"
    let path = try dir.write("places.csv", text)
    let file = try PointsFile(contentsOf: path)
    #expect(file.source == path)
    #expect(file.ids == [3])
    let raw = try Array(text.utf8).withUnsafeBytes { p in try PointsFile(parsing: p, source: "raw") }
    #expect(raw.points == file.points)
  }
}

/// Every bad-data error, with its exact message, line and field.
@Suite struct PointsFileErrorTests {
  @Test func emptyFile() {
    expectBadData(pointsError(""), "places.csv:1: empty file, no header", line: 1, field: nil)
  }

  @Test func onlyBlankLinesOrBOM() {
    expectBadData(pointsError("\n\n"), "places.csv:1: no header row, only blank lines", line: 1, field: nil)
    let bomOnly = (try? PointsFile(parsing: [0xEF, 0xBB, 0xBF], source: "places.csv")) == nil
    #expect(bomOnly)
  }

  @Test func blankHeaderLine() {
    expectBadData(
      pointsError("\nid,lat,lon\n1,2,3\n"), "places.csv:1: blank line where the header should be",
      line: 1, field: nil)
  }

  @Test func fileWithoutHeaderRow() {
    // A file without a header: the first row is taken as the header.
    expectBadData(
      pointsError("1,2,3\n"),
      "places.csv:1: no latitude column (expected \"lat\" or \"latitude\"); columns found: \"1\", \"2\", \"3\"",
      line: 1, field: nil)
  }

  @Test func missingLatitudeColumn() {
    expectBadData(
      pointsError("id,lon,name\n1,2,x\n"),
      "places.csv:1: no latitude column (expected \"lat\" or \"latitude\"); columns found: \"id\", \"lon\", \"name\"",
      line: 1, field: nil)
  }

  @Test func missingLongitudeColumn() {
    expectBadData(
      pointsError("id,Lat,x\n1,2,3\n"),
      "places.csv:1: no longitude column (expected \"lon\", \"lng\" or \"longitude\"); "
        + "columns found: \"id\", \"Lat\", \"x\"",
      line: 1, field: nil)
  }

  @Test func duplicateColumns() {
    expectBadData(
      pointsError("id,lat,lon,Latitude\n1,2,3,4\n"),
      "places.csv:1: two latitude columns: \"lat\" (column 2) and \"Latitude\" (column 4)",
      line: 1, field: nil)
    expectBadData(
      pointsError("lng,lat,lon\n1,2,3\n"),
      "places.csv:1: two longitude columns: \"lng\" (column 1) and \"lon\" (column 3)",
      line: 1, field: nil)
    expectBadData(
      pointsError("id,lat,lon,ID\n1,2,3,4\n"),
      "places.csv:1: two id columns: \"id\" (column 1) and \"ID\" (column 4)",
      line: 1, field: nil)
  }

  @Test func nonNumericCoordinate() {
    expectBadData(
      pointsError("id,lat,lon\n1,2,3\n2,4,abc\n"), "places.csv:3: lon \"abc\" is not a number",
      line: 3, field: "lon")
  }

  @Test func emptyCoordinate() {
    expectBadData(pointsError("id,lat,lon\n1,,3\n"), "places.csv:2: lat is empty", line: 2, field: "lat")
    expectBadData(pointsError("id,lat,lon\n1,2,\"  \"\n"), "places.csv:2: lon is empty", line: 2, field: "lon")
  }

  @Test(arguments: [
    ("nan", "\"nan\" is not a number"), ("NaN", "\"NaN\" is not a number"),
    ("inf", "\"inf\" is not a number"), ("-Infinity", "\"-Infinity\" is not a number"),
    ("0x1p3", "\"0x1p3\" is not a number"), ("1 2", "\"1 2\" is not a number"),
    ("1,5", "\"1,5\" is not a number"), ("1e", "\"1e\" is not a number"),
    ("1e400", "\"1e400\" is not a finite number"), ("-1e400", "\"-1e400\" is not a finite number"),
  ])
  func badNumbers(value: String, message: String) {
    let quoted = "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    expectBadData(
      pointsError("id,lat,lon\n1,\(quoted),3\n"), "places.csv:2: lat \(message)", line: 2, field: "lat")
  }

  @Test func latitudeOutOfRange() {
    expectBadData(
      pointsError("id,lat,lon\n1,90.000001,3\n"), "places.csv:2: lat \"90.000001\" is outside [-90, 90]",
      line: 2, field: "lat")
    expectBadData(
      pointsError("id,Latitude,lon\n1,-91,3\n"), "places.csv:2: Latitude \"-91\" is outside [-90, 90]",
      line: 2, field: "Latitude")
  }

  @Test func longitudeOutOfRange() {
    expectBadData(
      pointsError("id,lat,lng\n1,0,180.5\n"), "places.csv:2: lng \"180.5\" is outside [-180, 180]",
      line: 2, field: "lng")
    expectBadData(
      pointsError("id,lat,lon\n1,0,-1e3\n"), "places.csv:2: lon \"-1e3\" is outside [-180, 180]",
      line: 2, field: "lon")
  }

  @Test func tooFewFields() {
    expectBadData(
      pointsError("id,lat,lon,name,cc\n1,2,3,x,FR\n2,3,4\n"),
      "places.csv:3: name is missing: too few fields: 3, but the header has 5", line: 3,
      field: "name")
  }

  @Test func tooManyFields() {
    expectBadData(
      pointsError("id,lat,lon\n1,2,3,\n"),
      "places.csv:2: column 4 is extra: too many fields: 4, but the header has 3",
      line: 2, field: "column 4")
  }

  @Test func blankLineInTheMiddle() {
    expectBadData(
      pointsError("id,lat,lon\n1,2,3\n\n4,5,6\n"), "places.csv:3: blank line; expected 3 fields as in the header",
      line: 3, field: nil)
  }

  @Test func unterminatedQuoteReportsWhereItOpened() {
    expectBadData(
      pointsError("id,lat,lon,name\n1,2,3,ok\n2,3,4,\"broken\n5,6,7,x\n8,9,10,y\n"),
      "places.csv:3: name has a quote that opens here and is never closed", line: 3, field: "name")
    // In the header, where no name is known yet, the column is numbered.
    expectBadData(
      pointsError("id,lat,\"lon\n"), "places.csv:1: column 3 has a quote that opens here and is never closed",
      line: 1, field: "column 3")
    // The line is the quote's, not the record's.
    expectBadData(
      pointsError("id,lat,lon,a,b\n1,2,3,\"x\ny\",\"open\n"),
      "places.csv:3: b has a quote that opens here and is never closed", line: 3, field: "b")
  }

  @Test func textAfterClosingQuote() {
    expectBadData(
      pointsError("id,lat,lon,name\n1,2,3,\"Par\"is\n"),
      "places.csv:2: name has \"i\" after its closing quote (expected a comma or the end of the line)",
      line: 2, field: "name")
  }

  @Test func loneCarriageReturn() {
    expectBadData(
      pointsError("id,lat,lon\r1,2,3\r"),
      "places.csv:1: column 3 has a carriage return (CR) not followed by a line feed (LF)",
      line: 1, field: "column 3")
    expectBadData(
      pointsError("id,lat,lon\n1,2\r,3\n"),
      "places.csv:2: lat has a carriage return (CR) not followed by a line feed (LF)",
      line: 2, field: "lat")
  }

  @Test func badIds() {
    expectBadData(pointsError("id,lat,lon\n-5,1,2\n"), "places.csv:2: id \"-5\" is negative", line: 2, field: "id")
    expectBadData(
      pointsError("id,lat,lon\n1.5,1,2\n"), "places.csv:2: id \"1.5\" is not an integer", line: 2, field: "id")
    expectBadData(
      pointsError("id,lat,lon\n1e3,1,2\n"), "places.csv:2: id \"1e3\" is not an integer", line: 2, field: "id")
    expectBadData(pointsError("id,lat,lon\n,1,2\n"), "places.csv:2: id is empty", line: 2, field: "id")
    expectBadData(
      pointsError("id,lat,lon\n18446744073709551616,1,2\n"),
      "places.csv:2: id \"18446744073709551616\" is too large (the largest id is 18446744073709551615)",
      line: 2, field: "id")
    expectBadData(
      pointsError("ID,lat,lon\n99999999999999999999999,1,2\n"),
      "places.csv:2: ID \"99999999999999999999999\" is too large (the largest id is 18446744073709551615)",
      line: 2, field: "ID")
  }

  @Test func valuesInMessagesAreEscapedAndShortened() {
    expectBadData(
      pointsError("id,lat,lon\n1,\"a\tb\"\"c\",2\n"), "places.csv:2: lat \"a\\tb\\\"c\" is not a number",
      line: 2, field: "lat")
    let long = String(repeating: "9", count: 50) + "x"
    expectBadData(
      pointsError("id,lat,lon\n1,\(long),2\n"),
      "places.csv:2: lat \"\(String(repeating: "9", count: 40))…\" is not a number", line: 2, field: "lat")
  }

  @Test func firstErrorInFileOrderWins() {
    expectBadData(
      pointsError("id,lat,lon\n1,2,3\n2,95,x\n"), "places.csv:3: lat \"95\" is outside [-90, 90]",
      line: 3, field: "lat")
  }
}

/// Missing and unreadable inputs: exit code 66 and a reason in words.
@Suite struct UnreadableInputTests {
  @Test func missingFile() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = dir.path + "/nope.csv"
    #expect(throws: DataError.unreadable(file: path, reason: "no such file")) {
      try PointsFile(contentsOf: path)
    }
    do {
      _ = try QueriesFile(contentsOf: path)
      Issue.record("read a missing file")
    } catch {
      #expect(error.description == "\(path): no such file")
      #expect(error.exitCode == 66)
      #expect(error.line == nil)
    }
  }

  @Test func directory() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    #expect(throws: DataError.unreadable(file: dir.path, reason: "is a directory, not a file")) {
      try PointsFile(contentsOf: dir.path)
    }
  }

  @Test func notADirectoryInThePath() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let file = try dir.write("a.csv", "lat,lon\n")
    #expect(throws: DataError.unreadable(file: file + "/b.csv", reason: "a component of the path is not a directory")) {
      try PointsFile(contentsOf: file + "/b.csv")
    }
  }

  @Test func permissionDenied() throws {
    #expect(_reason(errno: EACCES) == "permission denied")
    // root reads any file, so the real check only runs for other users.
    guard geteuid() != 0 else { return }
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = try dir.write("secret.csv", "lat,lon\n1,2\n")
    chmod(path, 0)
    #expect(throws: DataError.unreadable(file: path, reason: "permission denied")) {
      try PointsFile(contentsOf: path)
    }
  }

  @Test func emptyFileOnDiskIsBadData() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = try dir.write("empty.csv", [])
    #expect(throws: DataError.badData(file: path, line: 1, field: nil, message: "empty file, no header")) {
      try PointsFile(contentsOf: path)
    }
  }

  @Test func exitCodes() {
    #expect(DataError.badData(file: "a", line: 1, field: nil, message: "m").exitCode == 65)
    #expect(DataError.unreadable(file: "a", reason: "r").exitCode == 66)
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
