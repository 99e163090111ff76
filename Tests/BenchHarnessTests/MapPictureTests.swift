import SpatialIndexes
import Testing
import MapClustering
import _SpatialTestSupport

@testable import BenchHarness

/// `MapPicture` on markers from a real clusterer: one circle per marker with
/// its count, the pan's three colours as `MarkerDiff` counts them, the
/// antimeridian and zoom 0, and well-formed XML throughout.
@Suite struct MapPictureTests {
  /// Timings are not what these tests check.
  static let timing = Measurement(
    samples: [1_000, 1_200, 900], batch: 1, passes: 3, checksum: 0, resultsTotal: 0)

  static func source(grid: Bool = false, dataset: String = "fixture", points: Int) -> MapSource {
    MapSource(
      dataset: dataset, points: points, index: "kdtree", strategy: .singlePass, cellSize: 88,
      grid: grid)
  }

  /// 4,000 clustered points, 300 spread over Europe and 500 around (47.5°N,
  /// 9.5°E), so a view there shows clusters and single points.
  static let points =
    Fixtures.clustered(4_000, blobs: 40, seed: 7)
    + Fixtures.uniform(300, seed: 8, in: Rect(minX: -10, minY: 35, maxX: 30, maxY: 60))
    + Fixtures.uniform(500, seed: 9, in: Rect(minX: 8, minY: 46, maxX: 11, maxY: 49))

  static func view(_ v: Viewport, _ clusterer: inout Clusterer<KDTreeIndex>) -> ClusterView {
    let markers = clusterer.markers(for: v)
    let inView = v.rects.reduce(0) { $0 + clusterer.index.count(in: $1) }
    return ClusterView(viewport: v, markers: markers, pointsInView: inView, timing: timing)
  }

  func document(_ picture: MapPicture, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> SVGDocument
  {
    try #require(
      SVGDocument(picture.render()), "not well-formed XML", sourceLocation: sourceLocation)
  }

  /// Clusters' circles in order and their labels, which follow them in the same order.
  func clusterLabels(_ doc: SVGDocument, inside panel: Int? = nil) -> [String] {
    doc.elements(classed: "count", inside: panel).map(\.text)
  }

  @Test func oneCirclePerMarkerLabelledWithItsCount() throws {
    var clusterer = try Clusterer<KDTreeIndex>(points: Self.points)
    let v = Viewport(center: Point(x: 10, y: 48), zoom: 6)
    let view = Self.view(v, &clusterer)
    let clusters = view.markers.filter { $0.count > 1 }
    let singles = view.markers.filter { $0.count == 1 }
    #expect(clusters.count >= 5 && singles.count >= 5, "the fixture should show both kinds")

    let doc = try document(
      .cluster(view, source: Self.source(grid: true, points: Self.points.count)))
    let circles = doc.elements(classed: "marker")
    #expect(circles.count == view.markers.count)
    #expect(circles.allSatisfy { $0.name == "circle" })
    let discs = doc.elements(classed: "marker cluster shown")
    #expect(discs.count == clusters.count)
    #expect(doc.elements(classed: "marker point shown").count == singles.count)
    #expect(clusterLabels(doc) == clusters.map { String($0.count) })
    // the diameter is the original formula's side, the centre the marker's screen position
    for (disc, marker) in zip(discs, clusters) {
      #expect(disc.number("r") == Double(marker.side) / 2)
      let p = v.screenPosition(of: marker.coordinate)
      #expect(abs(disc.number("cx")! - p.x) <= 0.005 && abs(disc.number("cy")! - p.y) <= 0.005)
    }
    #expect(!doc.elements(classed: "cell-grid").isEmpty)
    #expect(!doc.elements(classed: "graticule").isEmpty)
    let caption = doc.elements(classed: "caption")[0]
    let lines = doc.elements.filter { $0.ancestors.contains(doc.indices(classed: "caption")[0]) }
      .map(\.text)
    #expect(caption.name == "g")
    #expect(
      lines[0].hasPrefix(
        "\(view.pointsInView) of 4,800 points in view · \(view.markers.count) markers"))
    #expect(lines[1].hasPrefix("cluster: 1 µs, median of 3 (single-pass, kdtree"))
    #expect(lines[2].hasPrefix("z6, Web Mercator · cells 88 pt"))
  }

  @Test func noGridUnlessAsked() throws {
    var clusterer = try Clusterer<KDTreeIndex>(points: Self.points)
    let view = Self.view(Viewport(center: Point(x: 10, y: 48), zoom: 4), &clusterer)
    let doc = try document(.cluster(view, source: Self.source(points: Self.points.count)))
    #expect(doc.elements(classed: "cell-grid").isEmpty)
  }

  @Test func panColoursMatchMarkerDiff() throws {
    var clusterer = try Clusterer<KDTreeIndex>(points: Self.points)
    let v0 = Viewport(center: Point(x: 10, y: 48), zoom: 5)
    var v1 = v0
    // half a screen east
    v1.center = v0.coordinate(at: ScreenPosition(x: v0.width * 1.0, y: v0.height * 0.5))
    let before = Self.view(v0, &clusterer)
    let after = Self.view(v1, &clusterer)
    var diff = MarkerDiff()
    diff.update(with: before.markers)
    diff.update(with: after.markers)
    #expect(diff.kept.count > 0 && diff.added.count > 0 && diff.removed.count > 0)

    let picture = MapPicture.pan(
      before: before, after: after, diff: diff, dx: 0.5, dy: 0,
      source: Self.source(points: Self.points.count))
    let doc = try document(picture)
    let panels = doc.indices(classed: "panel")
    #expect(panels.count == 2)
    let (left, right) = (panels[0], panels[1])
    #expect(doc.elements(classed: "marker kept", inside: left).count == diff.kept.count)
    #expect(doc.elements(classed: "marker removed", inside: left).count == diff.removed.count)
    #expect(doc.elements(classed: "marker added", inside: left).isEmpty)
    #expect(doc.elements(classed: "marker kept", inside: right).count == diff.kept.count)
    #expect(doc.elements(classed: "marker added", inside: right).count == diff.added.count)
    #expect(doc.elements(classed: "marker removed", inside: right).isEmpty)
    #expect(doc.elements(classed: "marker", inside: left).count == before.markers.count)
    #expect(doc.elements(classed: "marker", inside: right).count == after.markers.count)
    #expect(
      clusterLabels(doc, inside: right)
        == after.markers.filter { $0.count > 1 }.map { String($0.count) })
    // the screen before the pan, outlined on the after panel
    let outline = try #require(doc.elements(classed: "outline", inside: right).first)
    #expect(outline.number("x") == -195 && outline.number("y") == 0)
    let legend = doc.elements.filter { $0.ancestors.contains(doc.indices(classed: "legend")[0]) }
      .map(\.text)
    #expect(legend.contains("kept \(diff.kept.count)"))
    #expect(legend.contains("added \(diff.added.count)"))
    #expect(legend.contains("removed \(diff.removed.count)"))
    let caption = doc.elements.filter { $0.ancestors.contains(doc.indices(classed: "caption")[0]) }
      .map(\.text)
    #expect(
      caption.contains {
        $0.hasPrefix(
          "kept \(diff.kept.count) · added \(diff.added.count) · "
            + "removed \(diff.removed.count) · churn \(diff.churn)"
        )
      })
  }

  @Test func antimeridianMarkersLieOnScreenOnBothSides() throws {
    let points =
      Fixtures.uniform(3_000, seed: 3, in: Rect(minX: 170, minY: -30, maxX: 180, maxY: 0))
      + Fixtures.uniform(3_000, seed: 4, in: Rect(minX: -180, minY: -30, maxX: -170, maxY: 0))
    var clusterer = try Clusterer<KDTreeIndex>(points: points)
    let v = Viewport(center: Point(x: 179.5, y: -15), zoom: 5)
    #expect(v.rects.count == 2)
    let view = Self.view(v, &clusterer)
    let doc = try document(.cluster(view, source: Self.source(grid: true, points: points.count)))
    let circles = doc.elements(classed: "marker")
    #expect(circles.count == view.markers.count)
    let xs = circles.map { $0.number("cx")! }
    #expect(xs.allSatisfy { $0 >= 0 && $0 <= v.width })
    let antimeridian = try #require(doc.elements(classed: "antimeridian").first)
    let x = antimeridian.number("x1")!
    #expect(abs(x - v.screenPosition(of: Point(x: 180, y: -15)).x) < 0.01)
    #expect(xs.contains { $0 < x } && xs.contains { $0 > x }, "markers on both sides of 180°")
    let caption = doc.elements.map(\.text)
    #expect(caption.contains("crosses the antimeridian (dashed): two query rectangles"))
  }

  @Test func zoomZeroDrawsEachMarkerOnceOnTheCentreCopy() throws {
    var clusterer = try Clusterer<KDTreeIndex>(points: Self.points)
    let v = Viewport(center: Point(x: 0, y: 20), zoom: 0)  // world 256 pt, screen 390 × 844
    let view = Self.view(v, &clusterer)
    // every point on the map (the clustered fixture has a few beyond ±85.05°)
    let onMap = Self.points.filter { abs($0.y) <= WebMercator.maxLatitude }.count
    #expect(view.pointsInView == onMap && onMap > 4_700)
    #expect(view.markers.reduce(0) { $0 + $1.count } == onMap)
    let doc = try document(
      .cluster(view, source: Self.source(grid: true, points: Self.points.count)))
    let circles = doc.elements(classed: "marker")
    #expect(circles.count == view.markers.count)
    #expect(circles.allSatisfy { abs($0.number("cx")! - 195) <= 128 })
    #expect(doc.elements(classed: "veil").count == 2)  // the copies either side
    #expect(doc.elements(classed: "off-map").count == 2)  // beyond ±85.05°, above and below
    #expect(doc.elements(classed: "antimeridian").count == 2)
    #expect(
      doc.elements.contains { $0.text == "world 256 pt wide: each marker once, on the centre copy" }
    )
  }

  @Test func emptyViewAndOddNamesStayWellFormed() throws {
    var clusterer = try Clusterer<KDTreeIndex>(points: [])
    let view = Self.view(
      Viewport(center: Point(x: 0, y: 0), zoom: 10, width: 16, height: 4096), &clusterer)
    let doc = try document(
      .cluster(view, source: Self.source(dataset: "a<b>&\"c\"", points: 0)))
    #expect(doc.elements(classed: "marker").isEmpty)
    #expect(doc.elements.contains { $0.text.hasPrefix("a<b>&\"c\" · z10") })
  }

  @Test func graticuleStepsAndLabels() {
    #expect(MapPicture.graticuleStep(degreesAcross: 548) == 90)
    #expect(MapPicture.graticuleStep(degreesAcross: 68.6) == 20)
    #expect(MapPicture.graticuleStep(degreesAcross: 0.134) == 0.02)
    #expect(MapPicture.graticuleStep(degreesAcross: 1e-9) == 1e-5)
    #expect(
      MapPicture.decimals(20) == 0 && MapPicture.decimals(0.5) == 1
        && MapPicture.decimals(0.02) == 2)
    #expect(MapPicture.longitudeLabel(-20, 0) == "20°W")
    #expect(MapPicture.longitudeLabel(190, 0) == "170°W")  // unwrapped, east of the antimeridian
    #expect(MapPicture.longitudeLabel(0, 0) == "0°")
    #expect(MapPicture.latitudeLabel(48.86, 2) == "48.86°N")
    #expect(MapPicture.latitudeLabel(-0.001, 2) == "0°")
  }

  @Test func defaultFileNames() {
    #expect(
      MapPicture.defaultFileName(dataset: "places", zoom: 3, panned: false)
        == "render-places-z3.svg")
    #expect(
      MapPicture.defaultFileName(dataset: "my data", zoom: 12, panned: true)
        == "render-my-data-z12-pan.svg")
  }
}
