import Testing
import SpatialIndexes
import BenchFormats

// The binary points format (`.f64`), as a specification: its bytes, what it
// reads back, and every error word for word.

@Suite struct BinaryPointsTests {
  func parse(_ bytes: [UInt8], source: String = "big.f64") throws(DataError) -> PointsFile {
    let result: Result<PointsFile, DataError> = bytes.withUnsafeBufferPointer { b in
      Result { () throws(DataError) in try BinaryPoints.parse(b, source: source) }
    }
    return try result.get()
  }

  func error(_ bytes: [UInt8]) -> DataError? {
    do {
      _ = try parse(bytes)
      return nil
    } catch {
      return error
    }
  }

  /// Longitude then latitude, little-endian float64, 16 bytes a point: what
  /// NumPy's `tofile` writes for `column_stack([lon, lat]).astype("<f8")`.
  @Test func thePairIsLongitudeThenLatitudeLittleEndian() {
    let bytes = BinaryPoints.bytes([Point(x: 1.5, y: -2)])
    #expect(bytes == [0, 0, 0, 0, 0, 0, 0xF8, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0xC0])
  }

  @Test func whatIsWrittenReadsBackBitForBit() throws {
    let points = [Point(x: -180, y: 90), Point(x: 180, y: -90), Point(x: 2.3522, y: 48.8566),
                  Point(x: -0.0, y: .leastNonzeroMagnitude), Point(x: 0.1, y: 1.0 / 3)]
    let file = try parse(BinaryPoints.bytes(points))
    #expect(file.points.map(\.x.bitPattern) == points.map(\.x.bitPattern))
    #expect(file.points.map(\.y.bitPattern) == points.map(\.y.bitPattern))
    #expect(file.ids == [0, 1, 2, 3, 4])
    #expect(try parse([]).points.isEmpty)
  }

  /// A stream in pieces of any size, a point cut anywhere, reads the same.
  @Test(arguments: [1, 3, 7, 16, 17, 1000])
  func piecesOfAnySizeReadTheSame(size: Int) throws {
    let points = (0..<5000).map { Point(x: Double($0 % 360) - 179.5, y: Double($0 % 170) - 84.25) }
    let bytes = BinaryPoints.bytes(points)
    let file = try BinaryPoints.read(from: PieceSource(bytes, sizes: [size, 2 * size + 1]), source: "big.f64")
    #expect(file.points == points)
  }

  @Test func errorsNameThePointAndTheField() {
    var bytes = BinaryPoints.bytes([Point(x: 1, y: 2), Point(x: 3, y: 4), Point(x: 5, y: 95)])
    #expect(error(bytes)?.description == "big.f64:3: lat 95.0 is outside [-90, 90]")
    bytes = BinaryPoints.bytes([Point(x: 1, y: 2), Point(x: -180.5, y: 4)])
    #expect(error(bytes)?.description == "big.f64:2: lon -180.5 is outside [-180, 180]")
    bytes = BinaryPoints.bytes([Point(x: .nan, y: 2)])
    #expect(error(bytes)?.description == "big.f64:1: lon nan is not a finite number")
    bytes = BinaryPoints.bytes([Point(x: 1, y: .infinity)])
    #expect(error(bytes)?.description == "big.f64:1: lat inf is not a finite number")
    bytes = BinaryPoints.bytes([Point(x: 1, y: 2)]) + [1, 2, 3]
    #expect(error(bytes)?.description
            == "big.f64:2: the file ends inside a point: 19 bytes, not a multiple of 16 (a longitude, latitude pair of float64)")
    #expect(error(bytes)?.exitCode == 65)
  }

  @Test func theExtensionChoosesTheFormat() {
    #expect(PointFileFormat(path: "data/points.F64") == .binary)
    #expect(PointFileFormat(path: "points.f64.csv") == .csv)
  }
}
