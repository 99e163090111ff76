import BenchFormats
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
