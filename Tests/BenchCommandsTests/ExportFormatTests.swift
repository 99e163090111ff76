import BenchFormats
import BenchWorkloads
import Testing

/// `bench export --points-out` writes the format its name says, and the
/// points readers read every one of them back as the same points.
@Suite struct ExportFormatTests {
  static let data = ["export", "--dataset", "clustered", "--n", "300", "--steps", "3", "--quiet"]

  /// `--points-out p.geojson` wrote CSV into the `.geojson` file.
  @Test(arguments: ["p.geojson", "P.JSON"])
  func aGeoJSONNameGetsGeoJSON(name: String) throws {
    try withTemporaryFolder { folder in
      let csv = try runBench(Self.data + ["--points-out", "p.csv", "--queries-out", "q.csv"], in: folder.path)
      let geo = try runBench(Self.data + ["--points-out", name, "--queries-out", "q2.csv"], in: folder.path)
      #expect(csv.code == 0 && geo.code == 0, "\(csv.stderr) \(geo.stderr)")
      let written = try #require(text(folder.file(name)))
      #expect(written.hasPrefix("{\"type\":\"FeatureCollection\",\"features\":["), "\(written.prefix(80))")
      let fromGeoJSON = try GeoJSONPoints.read(folder.file(name))
      let fromCSV = try PointsFile(contentsOf: folder.file("p.csv"))
      #expect(fromGeoJSON.count == 300)
      #expect(fromGeoJSON.points == fromCSV.points)
      // a generator's ids are its rows, which are the features' positions
      #expect(fromGeoJSON.ids == fromCSV.ids)
      // and `--dataset` reads it as the same points
      #expect(try PointFileFormat.read(folder.file(name)).points == fromCSV.points)
    }
  }

  /// `--properties` writes the hotels' properties, and the readers, asked
  /// for the same names and kinds, read back the generator's very table.
  @Test(arguments: ["h.csv", "h.geojson"])
  func propertiesAreWrittenAndReadBack(name: String) throws {
    try withTemporaryFolder { folder in
      let result = try runBench(
        ["export", "--dataset", "hotels", "--n", "500", "--steps", "1", "--quiet",
         "--properties", "stars:number,price:number,chain", "--points-out", name, "--queries-out", "q.csv"],
        in: folder.path)
      #expect(result.code == 0, "\(result.stderr)")
      let requests: [PropertyRequest] = [.number("stars"), .number("price"), .category("chain")]
      let file = try PointFileFormat.read(folder.file(name), properties: requests)
      let expected = try HotelProperties.table(count: 500, seed: 42, properties: requests)
      #expect(file.properties == expected)
      #expect(file.points == (try Datasets.load("hotels", counts: [500], seed: 42)[0].points))
    }
  }

  @Test func propertiesThatCannotBeWrittenAreRefused() throws {
    try withTemporaryFolder { folder in
      let base = ["export", "--dataset", "hotels", "--n", "10", "--steps", "1", "--queries-out", "q.csv"]
      let binary = try runBench(base + ["--properties", "price", "--points-out", "p.f64"], in: folder.path)
      #expect(binary.code == 64)
      #expect(binary.stderrLines.first == "bench: --properties: a .f64 file holds no properties; write .csv or .geojson")
      let unknown = try runBench(base + ["--properties", "phone", "--points-out", "p.csv"], in: folder.path)
      #expect(unknown.code == 64)
      #expect(unknown.stderrLines.first
        == "bench: hotels: property \"phone\" is not a property of it (it has stars, price, chain)")
      let twice = try runBench(base + ["--properties", "price,price:number", "--points-out", "p.csv"], in: folder.path)
      #expect(twice.code == 64)
      #expect(twice.stderrLines.first == "bench: --properties names \"price\" twice")
      #expect(folder.contents().isEmpty)
    }
  }

  /// A bundled file's column read as a number, and a bad one exits 65
  /// naming the file, the line and the field.
  @Test func aBundledFilesPropertiesAndABadNumber() throws {
    try withTemporaryFolder { folder in
      let base = ["export", "--dataset", "airports", "--n", "50", "--steps", "1", "--queries-out", "q.csv"]
      let good = try runBench(base + ["--properties", "country,elevation:number", "--points-out", "a.csv"], in: folder.path)
      #expect(good.code == 0, "\(good.stderr)")
      let header = try #require(text(folder.file("a.csv"))).split(separator: "\n").first
      #expect(header == "id,lat,lon,country,elevation")
      let bad = try runBench(base + ["--properties", "icao:number", "--points-out", "b.csv"], in: folder.path)
      #expect(bad.code == 65)
      #expect(bad.stderrLines.first?.contains("airports.csv:2: icao \"00AA\" is not a decimal number") == true,
              "\(bad.stderr)")
    }
  }

  /// A name whose extension tells no format is refused before any work:
  /// the reader would take it for CSV, whatever was meant.
  @Test(arguments: ["p.txt", "points", "p.csv.gz"])
  func aNameWithoutAFormatIsRefused(name: String) throws {
    try withTemporaryFolder { folder in
      let result = try runBench(Self.data + ["--points-out", name, "--queries-out", "q.csv"], in: folder.path)
      #expect(result.code == 64)
      #expect(result.stderrLines.first
        == "bench: --points-out '\(name)': the extension says the format: .csv, .geojson (or .json), or .f64")
      #expect(folder.contents().isEmpty)
    }
  }
}
