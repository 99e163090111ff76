import BenchHarness
import BenchWorkloads
import Foundation
import SpatialIndexes
import Testing
import _SpatialTestSupport

@testable import BenchCommands

/// The coastlines `bench render` and the HTML pages draw: the bundled
/// outline loads; a missing or corrupt one never fails a picture, which is
/// then drawn without, with a note naming the file (and the line).
extension CLITests {
  @Suite struct MapCoastlinesTests {
    static let points = LoadedDataset(
      name: "fixture", points: Fixtures.clustered(2_000, blobs: 12, seed: 4), ids: Array(0..<2_000))

    func coastGroups(_ svg: String) throws -> Int {
      try #require(SVGDocument(svg), "not well-formed XML").indices(classed: "coastlines").count
    }

    @Test func bundledOutlineLoads() throws {
      let coast = try #require(MapCoastlines.bundled)
      #expect(coast.polylineCount == 134 && coast.pointCount == 5_127)
      #expect(coast.credit == "Natural Earth 1:110m")
    }

    @Test func missingOutlineIsANoteNotAFailure() {
      let (coast, note) = MapCoastlines.load("/nonexistent/coastlines_110m.txt")
      #expect(coast == nil)
      #expect(
        note
          == "/nonexistent/coastlines_110m.txt: no such file; the maps are drawn without coastlines"
      )
    }

    @Test func corruptOutlineIsANoteNamingTheLine() throws {
      try withTemporaryFolder { folder in
        let path = folder.file("coast.txt")
        try Data("# c\n0,0 1,1\n2,2 x,3\n".utf8).write(to: URL(fileURLWithPath: path))
        let (coast, note) = MapCoastlines.load(path)
        #expect(coast == nil)
        #expect(
          note
            == "\(path):3: point 2 \"x,3\": the longitude is not a number; the maps are drawn without coastlines"
        )
      }
    }

    @Test func aPictureWithoutCoastlinesStillHasItsMarkers() throws {
      var options = RenderOptions()
      options.center = Point(x: 0, y: 20)
      options.zoom = 1
      let without = try RenderScene.picture(options, dataset: Self.points, coastlines: nil).render()
      let with = try RenderScene.picture(options, dataset: Self.points).render()
      #expect(try coastGroups(without) == 0)
      #expect(try coastGroups(with) == 1)
      for svg in [without, with] {
        #expect(try #require(SVGDocument(svg)).elements(classed: "marker").count > 3)
      }
    }

    @Test func theReportsMapHasCoastlines() throws {
      let svg = try ReportMap.svg(Self.points, index: "kdtree", strategy: .aggregate)
      #expect(try coastGroups(svg) == 1)
      #expect(svg.contains("coast, Natural Earth 1:110m"))
    }
  }
}
