import BenchFormats
import BenchHarness
import Foundation
import Testing

@testable import BenchCommands

/// A points file keeps its identity: a report names it by its path as
/// given, with its fingerprint, so it is never taken for the bundled
/// dataset or generator whose name it shares (`hotels.geojson` against the
/// hotels generator), and `report` and `compare` tell when the rows and the
/// data differ. Each command runs as a child process in a folder of its
/// own, so relative paths are as a user types them.
extension CLITests {
  @Suite struct DatasetIdentityTests {
    /// `count` points in Paris as GeoJSON, spread by `seed`.
    static func parisGeoJSON(count: Int, seed: Int = 0) -> String {
      let features = (0..<count).map { i -> String in
        let k = Double((i * 7919 + seed * 104_729) % 10_007) / 10_007
        let lon = 2.25 + 0.2 * k, lat = 48.8 + 0.1 * Double((i * 31 + seed) % 97) / 97
        return "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]},\"properties\":{}}"
      }
      return "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}\n"
    }

    static let quick = ["--index", "linear,kdtree", "--workload", "build,viewport", "--steps", "5",
                        "--repeat", "1", "--warmup", "0", "--quiet"]

    @Test func aFileNamedLikeAGeneratorKeepsItsName() throws {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      try folder.write("hotels.geojson", Self.parisGeoJSON(count: 300))
      let run = try runBench(["run", "--dataset", "hotels.geojson", "--out", "file.csv"] + Self.quick, in: folder.path)
      #expect(run.code == 0, "\(run.stderr)")
      let rows = try ReportFile.read(folder.file("file.csv"))
      let fingerprint = try #require(try FileFingerprint.of(file: folder.file("hotels.geojson")))
      #expect(!rows.isEmpty && rows.allSatisfy { $0.key.dataset == "hotels.geojson" })
      #expect(rows.allSatisfy { $0.datasetOrigin == .file(fingerprint) })
      // the fingerprint column, then the filter's, mapped and resident, empty
      #expect(text(folder.file("file.csv"))?.contains(",\(fingerprint),,,\n") == true)

      // the page maps the file (read again: its fingerprint matches), not the generator
      let page = try runBench(["report", "file.csv", "--out", "page.html"], in: folder.path)
      #expect(page.code == 0, "\(page.stderr)")
      let html = try #require(text(folder.file("page.html")))
      #expect(html.contains("--dataset hotels.geojson --n 300"))
      #expect(!html.contains("--dataset hotels --n"))
      #expect(!html.contains("No map"))
      #expect(html.contains("hotels.geojson · 300 points") || html.contains("hotels.geojson, 300 points"), "map caption")

      // against the generator of that name: no row is the same row
      let generator = try runBench(
        ["run", "--dataset", "hotels", "--n", "300", "--out", "generator.csv"] + Self.quick, in: folder.path)
      #expect(generator.code == 0)
      let compare = try runBench(["compare", "generator.csv", "file.csv"], in: folder.path)
      #expect(compare.code == 1)
      #expect(compare.stdout.contains("0 rows compared") && compare.stdout.contains("0 answer changes"))
      #expect(compare.stdout.contains("Result: NOTHING COMPARED"))
    }

    /// `report --dataset` draws the data its rows measured, or refuses.
    @Test func aReportMapsOnlyTheDataItsRowsMeasured() throws {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      try folder.write("hotels.geojson", Self.parisGeoJSON(count: 300))
      try folder.write("other.geojson", Self.parisGeoJSON(count: 300, seed: 5))
      #expect(try runBench(["run", "--dataset", "hotels.geojson", "--out", "file.csv"] + Self.quick, in: folder.path).code == 0)
      #expect(try runBench(["run", "--dataset", "uniform", "--n", "200", "--out", "uniform.csv"] + Self.quick, in: folder.path).code == 0)

      let other = try runBench(["report", "file.csv", "--dataset", "other.geojson", "--out", "a.html"], in: folder.path)
      #expect(other.code == 64)
      #expect(other.stderrLines.first?.hasPrefix("bench: --dataset other.geojson is a points file (") == true, "\(other.stderr)")
      #expect(other.stderr.contains("not the data of these rows; they measured the points file hotels.geojson ("))
      #expect(!FileManager.default.fileExists(atPath: folder.file("a.html")))
      let generator = try runBench(["report", "file.csv", "--dataset", "hotels", "--out", "b.html"], in: folder.path)
      #expect(generator.code == 64)
      let file = try runBench(["report", "uniform.csv", "--dataset", "hotels.geojson", "--out", "c.html"], in: folder.path)
      #expect(file.code == 64)
      #expect(try runBench(["report", "uniform.csv", "--dataset", "clustered", "--out", "d.html"], in: folder.path).code == 64)

      // the same file at another path is the same data
      try FileManager.default.createDirectory(atPath: folder.file("moved"), withIntermediateDirectories: false)
      try FileManager.default.copyItem(atPath: folder.file("hotels.geojson"), toPath: folder.file("moved/h.geojson"))
      let moved = try runBench(["report", "file.csv", "--dataset", "moved/h.geojson", "--out", "e.html"], in: folder.path)
      #expect(moved.code == 0, "\(moved.stderr)")
      #expect(text(folder.file("e.html"))?.contains("No map") == false)
      #expect(try runBench(["report", "uniform.csv", "--dataset", "uniform", "--out", "f.html"], in: folder.path).code == 0)

      // the file changed since the run: no map, and a warning; nor may it be given
      try folder.write("hotels.geojson", Self.parisGeoJSON(count: 301))
      let changed = try runBench(["report", "file.csv", "--out", "g.html"], in: folder.path)
      #expect(changed.code == 0)
      #expect(changed.stderr.contains("bench: warning: no map: hotels.geojson is no longer the file the rows measured"))
      #expect(text(folder.file("g.html"))?.contains("No map: hotels.geojson is no longer the file") == true)
      #expect(try runBench(["report", "file.csv", "--dataset", "hotels.geojson", "--out", "h.html"], in: folder.path).code == 64)
    }

    /// The rows' file, fingerprint matching, that cannot be loaded at the
    /// rows' n (a hand-edited n past its rows): no map, the page and a
    /// warning say why; the page is still written.
    @Test func aFileThatCannotBeReadAgainIsNoMap() throws {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      try folder.write("hotels.geojson", Self.parisGeoJSON(count: 300))
      #expect(try runBench(["run", "--dataset", "hotels.geojson", "--out", "file.csv"] + Self.quick, in: folder.path).code == 0)
      let edited = try ReportFile.read(folder.file("file.csv")).map { row in
        var r = row
        r.key.n = 10_000
        return r
      }
      try ReportFile.write(edited, to: folder.file("edited.csv"))
      let page = try runBench(["report", "edited.csv", "--out", "page.html"], in: folder.path)
      #expect(page.code == 0, "\(page.stderr)")
      #expect(page.stderr.contains("bench: warning: no map: the rows' points file hotels.geojson cannot be read again here"))
      #expect(text(folder.file("page.html"))?.contains("No map: the rows&apos; points file hotels.geojson cannot be read") == true)
    }

    /// Two runs of one path over other bytes measured other data: compare
    /// joins none of their rows and says why; plot warns.
    @Test func compareDoesNotJoinRowsOfOtherData() throws {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      try folder.write("paris.geojson", Self.parisGeoJSON(count: 300))
      #expect(try runBench(["run", "--dataset", "paris.geojson", "--out", "before.csv"] + Self.quick, in: folder.path).code == 0)
      #expect(try runBench(["run", "--dataset", "paris.geojson", "--out", "again.csv"] + Self.quick, in: folder.path).code == 0)
      try folder.write("paris.geojson", Self.parisGeoJSON(count: 300, seed: 9))
      #expect(try runBench(["run", "--dataset", "paris.geojson", "--out", "after.csv"] + Self.quick, in: folder.path).code == 0)

      let same = try runBench(["compare", "before.csv", "again.csv", "--timing-info"], in: folder.path)
      #expect(same.code == 0, "\(same.stdout)")
      let other = try runBench(["compare", "before.csv", "after.csv", "--timing-info"], in: folder.path)
      #expect(other.code == 1)
      #expect(other.stdout.contains("warning: dataset paris.geojson is other data in the two reports"))
      #expect(other.stdout.contains("0 answer changes") && other.stdout.contains("Result: NOTHING COMPARED"))

      let plot = try runBench(["plot", "before.csv", "after.csv", "--out", "plots"], in: folder.path)
      #expect(plot.code == 0)
      #expect(plot.stderr.contains("bench: warning: rows naming dataset paris.geojson measured 2 different sources"))
    }
  }
}
