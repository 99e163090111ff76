import BenchFormats
import Foundation
import SpatialIndexes
import Testing
import _SpatialTestSupport

/// The coastline reader: the bundled outline reads whole, with the counts,
/// bounds and SHA-256 datasets/README.md gives; a bad file is an error naming
/// the file, the line and the point.
@Suite struct CoastlineFileTests {
  static let bundled = "coastlines_110m.txt"

  func read(_ text: String) throws(DataError) -> CoastlineFile {
    try CoastlineFile(parsing: Array(text.utf8), source: "coast.txt")
  }

  func error(_ text: String) -> DataError? {
    dataError { () throws(DataError) in try read(text) }
  }

  @Test func bundledOutlineReadsWhole() throws {
    let path = datasetPath(Self.bundled)
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(bytes.count == 67_078)
    #expect(sha256Hex(bytes) == "75a6a309ec57563f46e363c6bb29124ad0f09fb4bda7fb2917e3d2233ca61542")
    let file = try CoastlineFile(contentsOf: path)
    #expect(file.source == path)
    #expect(file.polylineCount == 134)
    #expect(file.points.count == 5_127)
    #expect(file.starts.first == 0 && file.starts.last == file.points.count)
    #expect((0..<file.polylineCount).allSatisfy { file.polyline($0).count >= 2 })
    // the whole world: Antarctica's coast runs from -180 to 180 and dips to
    // 85.61°S (beyond the Web Mercator map, clamped when drawn); Greenland's
    // north coast reaches 83.65°N
    #expect(file.points.map(\.x).min() == -180 && file.points.map(\.x).max() == 180)
    #expect(file.points.map(\.y).min() == -85.61 && file.points.map(\.y).max() == 83.65)
    // the file's polylines end on the antimeridian rather than cross it
    for i in 0..<file.polylineCount {
      let line = Array(file.polyline(i))
      #expect(zip(line, line.dropFirst()).allSatisfy { abs($0.x - $1.x) <= 180 })
    }
  }

  @Test func sha256MatchesKnownDigests() {
    // FIPS 180-4's examples, and a message that needs a second padding block
    #expect(sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      sha256Hex(Array("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      sha256Hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test func polylinesCommentsAndLineEndings() throws {
    let file = try read("# a comment\n1.5,2 3,-4.25\r\n# another\n-180,-90\t180,90 0,0\n")
    #expect(file.polylineCount == 2)
    #expect(Array(file.polyline(0)) == [Point(x: 1.5, y: 2), Point(x: 3, y: -4.25)])
    #expect(
      Array(file.polyline(1)) == [Point(x: -180, y: -90), Point(x: 180, y: 90), Point(x: 0, y: 0)])
    // no final line feed
    #expect(try read("1,2 3,4").polylineCount == 1)
  }

  @Test func badFilesNameTheLineAndThePoint() {
    expectBadData(
      error("1,2 3,4\n5,6 abc,7\n"),
      "coast.txt:2: point 2 \"abc,7\": the longitude is not a number",
      line: 2, field: "point 2")
    expectBadData(
      error("1,2 3,nan\n"), "coast.txt:1: point 2 \"3,nan\": the latitude is not a number",
      line: 1, field: "point 2")
    expectBadData(
      error("1,2 3\n"), "coast.txt:1: point 2 \"3\" is not longitude,latitude", line: 1,
      field: "point 2")
    expectBadData(
      error("1,2 3,4,5\n"), "coast.txt:1: point 2 \"3,4,5\" is not longitude,latitude", line: 1,
      field: "point 2")
    expectBadData(
      error("1,2 ,4\n"), "coast.txt:1: point 2 \",4\": the longitude is not a number", line: 1,
      field: "point 2")
    expectBadData(
      error("# c\n180.5,0 0,0\n"), "coast.txt:2: point 1 \"180.5,0\": longitude outside -180...180",
      line: 2, field: "point 1")
    expectBadData(
      error("0,0 0,-91\n"), "coast.txt:1: point 2 \"0,-91\": latitude outside -90...90", line: 1,
      field: "point 2")
    expectBadData(
      error("0,0 1,1\n2,2\n"), "coast.txt:2: holds one point: a polyline has at least two", line: 2,
      field: nil)
    expectBadData(
      error("0,0 1,1\n\n2,2 3,3\n"),
      "coast.txt:2: is blank: a polyline has at least two points (a comment starts with #)",
      line: 2,
      field: nil)
    expectBadData(
      error("# only a comment\n"), "coast.txt:1: holds no polyline", line: 1, field: nil)
    expectBadData(error(""), "coast.txt:1: holds no polyline", line: 1, field: nil)
  }

  @Test func missingAndOversizedFilesAreUnreadable() throws {
    let missing = dataError { () throws(DataError) in
      try CoastlineFile(contentsOf: "/nonexistent/coast.txt")
    }
    #expect(missing == .unreadable(file: "/nonexistent/coast.txt", reason: "no such file"))
    #expect(missing?.exitCode == 66)

    // a sparse file past the limit is refused before it is read
    let folder = try TemporaryDirectory()
    defer { folder.cleanUp() }
    let path = try folder.write("huge.txt", "0,0 1,1\n")
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(CoastlineFile.maximumBytes + 1))
    try handle.close()
    let huge = dataError { () throws(DataError) in try CoastlineFile(contentsOf: path) }
    #expect(
      huge == .unreadable(file: path, reason: "larger than 16 MiB: not a simplified coastline file")
    )
  }
}
