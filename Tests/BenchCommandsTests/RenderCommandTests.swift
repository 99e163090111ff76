import BenchHarness
import Foundation
import SpatialIndexes
import Testing
import BenchFormats
import BenchWorkloads
import MapClustering
import _SpatialTestSupport

@testable import BenchCommands

/// `bench render` end to end: the SVG holds the clusterer's markers for the
/// viewport (and `MarkerDiff`'s for a pan), and its exit codes.
extension CLITests {
  @Suite struct RenderCommandTests {
    /// 3,000 uniform points: at zoom 4 around (20°N, 10°E) a phone shows
    /// clusters and single points.
    static let view = [
      "--dataset", "uniform", "--n", "3000", "--seed", "5", "--center", "20,10", "--zoom", "4",
    ]

    /// Runs `bench render` with its output captured; returns the exit code and the output.
    func render(_ arguments: [String]) throws -> (code: Int32, printed: String) {
      var code: Int32 = -1
      let printed = try captureStandardOutput { code = benchMain(["render"] + arguments) }
      return (code, printed)
    }

    /// The options, and a clusterer over the same points as the command's.
    func reference(_ arguments: [String]) throws -> (RenderOptions, Clusterer<KDTreeIndex>) {
      let options = try RenderOptions.parse(arguments)
      let dataset = try loadDatasets(options.runOptions, command: "render")[0]
      return (options, try Clusterer<KDTreeIndex>(points: dataset.points))
    }

    @Test func svgHoldsTheClustererMarkersAndTheirCounts() throws {
      try withTemporaryFolder { folder in
        let out = folder.file("map.svg")
        let arguments = Self.view + ["--grid", "--out", out]
        let (code, printed) = try render(arguments)
        #expect(code == 0)
        #expect(printed == "wrote \(out)\n")
        #expect(folder.contents() == ["map.svg"])  // no temporary file left

        var (options, clusterer) = try reference(arguments)
        let markers = clusterer.markers(for: options.viewport)
        let clusters = markers.filter { $0.count > 1 }
        #expect(clusters.count >= 3 && markers.count > clusters.count, "clusters and single points")

        let doc = try #require(SVGDocument(text(out) ?? ""), "not well-formed XML")
        #expect(doc.elements(classed: "marker").count == markers.count)
        #expect(doc.elements(classed: "marker cluster").count == clusters.count)
        #expect(doc.elements(classed: "marker point").count == markers.count - clusters.count)
        #expect(doc.elements(classed: "count").map(\.text) == clusters.map { String($0.count) })
        let inView = options.viewport.rects.reduce(0) { $0 + clusterer.index.count(in: $1) }
        #expect(inView == markers.reduce(0) { $0 + $1.count })
        #expect(
          doc.elements.contains {
            $0.text.hasPrefix("\(inView) of 3,000 points in view · \(markers.count) markers")
          })
        let title = "uniform · z4 · 20.0000°N 10.0000°E"
        #expect(doc.elements.contains { $0.text.hasPrefix(title) })
        #expect(!doc.elements(classed: "cell-grid").isEmpty)
        // the coast of North Africa, under the markers
        let coast = try #require(doc.indices(classed: "coastlines").first)
        #expect(doc.elements.contains { $0.name == "path" && $0.ancestors.contains(coast) })
        #expect(coast < doc.indices(classed: "markers")[0])
      }
    }

    @Test func panViewMatchesMarkerDiff() throws {
      try withTemporaryFolder { folder in
        let out = folder.file("pan.svg")
        let arguments = Self.view + ["--pan", "0.5,0.25", "--index", "grid", "--out", out]
        let run = try render(arguments)
        #expect(run.code == 0)

        var (options, clusterer) = try reference(arguments)
        let v0 = options.viewport
        let v1 = RenderScene.panned(v0, dx: 0.5, dy: 0.25)
        var diff = MarkerDiff()
        diff.update(with: clusterer.markers(for: v0))
        diff.update(with: clusterer.markers(for: v1))
        #expect(diff.kept.count > 0 && diff.added.count > 0 && diff.removed.count > 0)

        let doc = try #require(SVGDocument(text(out) ?? ""), "not well-formed XML")
        let panels = doc.indices(classed: "panel")
        #expect(panels.count == 2)
        #expect(doc.elements(classed: "marker kept", inside: panels[0]).count == diff.kept.count)
        #expect(
          doc.elements(classed: "marker removed", inside: panels[0]).count == diff.removed.count)
        #expect(doc.elements(classed: "marker kept", inside: panels[1]).count == diff.kept.count)
        #expect(doc.elements(classed: "marker added", inside: panels[1]).count == diff.added.count)
        #expect(
          doc.elements(classed: "marker").count == 2 * diff.kept.count + diff.added.count
            + diff.removed.count)
        #expect(doc.elements.contains { $0.text == "kept \(diff.kept.count)" })
        #expect(doc.elements.contains { $0.text == "added \(diff.added.count)" })
        #expect(doc.elements.contains { $0.text == "removed \(diff.removed.count)" })
      }
    }

    @Test func panMovesTheCentreByScreens() {
      let v = Viewport(center: Point(x: 179.9, y: 0), zoom: 10)
      let p = RenderScene.panned(v, dx: 0.5, dy: 0)
      // 195 points east at zoom 10 (262,144 points a world) crosses the antimeridian
      let degrees = 195 / WebMercator.worldSize(zoom: 10) * 360
      #expect(abs(p.center.x - (179.9 + degrees - 360)) < 1e-9)
      #expect(abs(p.center.y) < 1e-9)
      #expect(p.zoom == 10 && p.width == v.width && p.height == v.height)
    }

    @Test func antimeridianAndZoomZeroRender() throws {
      try withTemporaryFolder { folder in
        for (i, view) in [
          ["--center", "-17,179.5", "--zoom", "5"], ["--center", "0,0", "--zoom", "0"],
        ]
        .enumerated() {
          let out = folder.file("\(i).svg")
          let arguments =
            ["--dataset", "uniform", "--n", "2000"] + view + ["--grid", "--out", out]
          let run = try render(arguments)
          #expect(run.code == 0)
          var (options, clusterer) = try reference(arguments)
          let doc = try #require(SVGDocument(text(out) ?? ""))
          let circles = doc.elements(classed: "marker")
          #expect(circles.count == clusterer.markers(for: options.viewport).count)
          #expect(circles.allSatisfy { (0...options.size.width).contains($0.number("cx")!) })
        }
      }
    }

    @Test(arguments: [
      [String](), ["--zoom", "3"], ["--center", "48,2"],
      ["--center", "91,0", "--zoom", "3"], ["--center", "-90.5,0", "--zoom", "3"],
      ["--center", "0,180.5", "--zoom", "3"], ["--center", "abc", "--zoom", "3"],
      ["--center", "48", "--zoom", "3"], ["--center", "48,2,3", "--zoom", "3"],
      ["--center", "nan,0", "--zoom", "3"], ["--center", "0,inf", "--zoom", "3"],
      ["--center", "0x10,0", "--zoom", "3"], ["--center", "1e999,0", "--zoom", "3"],
      ["--center", "48,2", "--zoom", "23"], ["--center", "48,2", "--zoom", "-1"],
      ["--center", "48,2", "--zoom", "3.5"], ["--center", "48,2", "--zoom"],
      ["--center", "48,2", "--zoom", "3", "--size", "0x844"],
      ["--center", "48,2", "--zoom", "3", "--size", "390"],
      ["--center", "48,2", "--zoom", "3", "--size", "5000x844"],
      ["--center", "48,2", "--zoom", "3", "--pan", "nan,0"],
      ["--center", "48,2", "--zoom", "3", "--pan", "0.5"],
      ["--center", "48,2", "--zoom", "3", "--pan", "1e400,0"],
      ["--center", "48,2", "--zoom", "3", "--pan", "101,0"],
      ["--center", "48,2", "--zom", "3"], ["--center", "48,2", "--zoom", "3", "--index", "kdtre"],
      ["--center", "48,2", "--zoom", "3", "--index", "grid,kdtree"],
      ["--center", "48,2", "--zoom", "3", "--strategy", "per-cel"],
      ["--center", "48,2", "--zoom", "3", "--n", "-5"],
      ["--center", "48,2", "--zoom", "3", "--grid=yes"],
      ["--center", "48,2", "--zoom", "3", "--dataset", "hotel"],
    ])
    func badArgumentsExit64(_ arguments: [String]) throws {
      try withTemporaryFolder { folder in
        let run = try render(arguments + ["--out", folder.file("x.svg")])
        #expect(run.code == 64)
        #expect(folder.contents().isEmpty)
      }
    }

    @Test func usageMessagesSayWhatIsWrong() {
      func message(_ arguments: [String]) -> String {
        do {
          _ = try RenderOptions.parse(arguments)
          return ""
        } catch {
          return report(error).message
        }
      }
      let zoom = message(["--center", "48,2", "--zom", "3"])
      #expect(zoom.contains("unknown option \"--zom\" (did you mean --zoom?)"))
      #expect(zoom.contains("usage: bench render"))
      #expect(
        message(["--center", "91,2", "--zoom", "3"]).contains("latitude 91.0 must lie in -90...90"))
      #expect(
        message(["--center", "48,2", "--zoom", "23"]).contains(
          "--zoom 23 is too large (at most 22)"))
      #expect(message(["--zoom", "3"]).contains("--center LAT,LON is required"))
      #expect(
        message(["--center", "48,2", "--zoom", "3", "--pan", "nan,0"]).contains(
          "two finite numbers"))
      #expect(
        message(["--center", "48,2", "--zoom", "3", "--strategy", "per-cel"]).contains(
          "did you mean per-cell?"))
    }

    @Test func unwritableOutputExits73AndLeavesNoFile() throws {
      try withTemporaryFolder { folder in
        let missingFolder = try render(Self.view + ["--out", folder.file("missing/map.svg")])
        #expect(missingFolder.code == 73)
        #expect(folder.contents().isEmpty)
        let plain = try folder.write("plain", "not a folder")
        for out in [plain + "/map.svg", folder.path, folder.path + "/"] {  // under a file; a folder
          let run = try render(Self.view + ["--out", out])
          #expect(run.code == 73, "\(out)")
        }
        #expect(folder.contents() == ["plain"])
        #expect(text(plain) == "not a folder")
      }
    }

    @Test func helpSucceeds() throws {
      let help = try render(["--help"])
      #expect(help.printed.contains("usage: bench render"))
      var code: Int32 = -1
      let helpText = try captureStandardOutput { code = benchMain(["help", "render"]) }
      #expect(code == 0 && helpText.contains("--pan DX,DY"))
      let overview = try captureStandardOutput { _ = benchMain(["help"]) }
      #expect(overview.contains("render    draw the cluster workload's markers"))
    }
  }
}
