import BenchFormats
import BenchWorkloads
import Foundation
import MapClustering
import SpatialIndexes
import Testing
import _SpatialTestSupport

import _SeededRandom
@testable import BenchHarness

/// The coastlines under a `MapPicture`'s markers: projected as the markers
/// are, every copy of the world the screen shows, joined across the
/// antimeridian, only the part in view, simplified to the view's scale.
@Suite struct CoastlineDrawingTests {
  /// The bundled outline, found from this file's path.
  static let bundled: Coastlines = {
    let path = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("datasets/coastlines_110m.txt").path
    return Coastlines(try! CoastlineFile(contentsOf: path), credit: "Natural Earth 1:110m")
  }()

  /// One panel over `coast`, no markers.
  func picture(_ v: Viewport, _ coast: Coastlines?) -> MapPicture {
    MapPicture(title: "coast", panels: [.init(viewport: v, markers: [])], coastlines: coast)
  }

  /// The subpaths of every coastline path of the picture's first panel, in
  /// screen points; fails unless the document is well-formed XML, and holds
  /// a coastline group exactly when it has a coastline path.
  func coastPaths(
    _ v: Viewport, _ coast: Coastlines?, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [[[(x: Double, y: Double)]]] {
    let doc = try #require(
      SVGDocument(picture(v, coast).render()), "not well-formed XML", sourceLocation: sourceLocation
    )
    let groups = doc.indices(classed: "coastlines")
    #expect(groups.count <= (coast == nil ? 0 : 1), sourceLocation: sourceLocation)
    guard let group = groups.first else { return [] }
    let paths = doc.elements.filter { $0.name == "path" && $0.ancestors.contains(group) }
    #expect(!paths.isEmpty, "an empty coastline group", sourceLocation: sourceLocation)
    return try paths.map {
      try #require(svgSubpaths($0.attributes["d"] ?? ""), sourceLocation: sourceLocation)
    }
  }

  func near(
    _ a: (x: Double, y: Double), _ b: ScreenPosition, within tolerance: Double = 0.051
  ) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
  }

  @Test func aCoastPointIsDrawnWhereItsMarkerWouldBe() throws {
    // the 1:110m outline's vertices at the Cape of Good Hope and the Strait of Gibraltar
    let cape = Point(x: 18.38, y: -34.14)
    let gibraltar = Point(x: -5.38, y: 35.95)
    let file = Self.bundled
    for (place, zoom) in [(cape, 6), (gibraltar, 7)] {
      #expect(
        (0..<file.pointCount).contains {
          file.x[$0] == WebMercator.x(longitude: place.x)
            && file.y[$0] == WebMercator.y(latitude: place.y)
        }, "the outline holds \(place)")
      // off-centre, so the screen position is not trivially the middle
      let v = Viewport(center: Point(x: place.x + 1, y: place.y - 0.5), zoom: zoom)
      let vertices = try coastPaths(v, file).flatMap { $0 }.flatMap { $0 }
      let expected = v.screenPosition(of: place)
      #expect(v.isOnScreen(expected))
      #expect(vertices.contains { near($0, expected) }, "no vertex drawn at \(place)'s \(expected)")
    }
  }

  @Test func syntheticLineIsProjectedExactly() throws {
    let line = [Point(x: 2.35, y: 48.85), Point(x: 2.6, y: 48.7), Point(x: 2.9, y: 48.95)]
    let v = Viewport(center: Point(x: 2.5, y: 48.8), zoom: 9)
    #expect(line.allSatisfy { v.isOnScreen(v.screenPosition(of: $0)) })
    let paths = try coastPaths(v, Coastlines(polylines: [line], credit: "test"))
    #expect(paths.count == 1 && paths[0].count == 1)
    let drawn = try #require(paths.first?.first)
    #expect(drawn.count == 3)
    for (p, q) in zip(drawn, line) { #expect(near(p, v.screenPosition(of: q))) }
  }

  @Test func aLineAcrossTheAntimeridianTakesTheShortWay() throws {
    // from 179°E to 179°W: two degrees wide, across 180°, not 358° round
    let coast = Coastlines(
      polylines: [[Point(x: 179, y: -17), Point(x: -179, y: -17)]], credit: "test")
    for centre in [180.0, 179.5, -179.5, -180] {
      let v = Viewport(center: Point(x: centre, y: -17), zoom: 5)
      let paths = try coastPaths(v, coast)
      #expect(paths.count == 1 && paths.first?.count == 1, "centre \(centre)")
      let line = try #require(paths.first?.first)
      #expect(line.count == 2)
      let twoDegrees = 2 / 360 * WebMercator.worldSize(zoom: 5)
      #expect(abs((line[1].x - line[0].x) - twoDegrees) <= 0.11, "centre \(centre): \(line)")
      #expect(near(line[0], v.screenPosition(of: Point(x: 179, y: -17))))
    }
  }

  @Test func fijiSplitAtTheAntimeridianJoinsUp() throws {
    // Vanua Levu: two polylines of the outline, each ending on ±180°
    let v = Viewport(center: Point(x: 180, y: -16.5), zoom: 7, width: 600, height: 400)
    let lines = try coastPaths(v, Self.bundled).flatMap { $0 }
    let antimeridian = v.width / 2
    let west = lines.filter { $0.allSatisfy { $0.x <= antimeridian + 0.05 } }
    let east = lines.filter { $0.allSatisfy { $0.x >= antimeridian - 0.05 } }
    #expect(west.count >= 1 && east.count >= 1, "both halves drawn")
    // each half has a vertex on the antimeridian, at the same two latitudes
    func ends(_ halves: [[(x: Double, y: Double)]]) -> Set<Int> {
      Set(
        halves.flatMap { $0 }.filter { abs($0.x - antimeridian) <= 0.05 }.map {
          Int(($0.y * 10).rounded())
        })
    }
    #expect(ends(west).count >= 2)
    #expect(ends(west) == ends(east))
  }

  @Test func everyCopyOfTheWorldOnScreenGetsItsCoast() throws {
    // a 10° square at (0°, 0°); at zoom 0 a 1024-point screen centred there
    // shows the world 4 times: copies at x = 0, 256, 512, 768, 1024
    let square = [(-5.0, -5.0), (5, -5), (5, 5), (-5, 5), (-5, -5)].map { Point(x: $0.0, y: $0.1) }
    let coast = Coastlines(polylines: [square], credit: "test")
    let v = Viewport(center: Point(x: 0, y: 0), zoom: 0, width: 1024, height: 300)
    let paths = try coastPaths(v, coast)
    let centres = paths.map { p in
      let xs = p.flatMap { $0 }.map(\.x)
      return ((xs.min()! + xs.max()!) / 2).rounded()
    }
    // the squares at the edges are cut there: their centre moves inward
    #expect(paths.count == 5)
    #expect(centres.sorted()[1...3] == [256, 512, 768])
  }

  @Test func onlyThePartInViewIsWritten() throws {
    let farAway = [Point(x: 130, y: -25), Point(x: 140, y: -20)]  // Australia
    let across = [Point(x: -10, y: 48), Point(x: 30, y: 48)]  // through the screen
    let coast = Coastlines(polylines: [farAway, across], credit: "test")
    let v = Viewport(center: Point(x: 2.35, y: 48.2), zoom: 8)
    let paths = try coastPaths(v, coast)
    #expect(paths.count == 1)
    let line = try #require(paths.first?.first)
    // cut at the screen's edges plus the margin, on latitude 48°
    let y = v.screenPosition(of: Point(x: 0, y: 48)).y
    #expect(line.count == 2)
    #expect(near(line[0], ScreenPosition(x: -MapPicture.coastMargin, y: y)))
    #expect(near(line[1], ScreenPosition(x: v.width + MapPicture.coastMargin, y: y)))

    // the bundled outline: Paris at zoom 12 is 150 km from any coast; a
    // view of Europe writes no vertex beyond its margin
    let paris = Viewport(center: Point(x: 2.35, y: 48.86), zoom: 12)
    let inland = try #require(SVGDocument(picture(paris, Self.bundled).render()))
    #expect(inland.indices(classed: "coastlines").isEmpty, "no coast, no group")
    let europe = Viewport(center: Point(x: 10, y: 50), zoom: 3)
    let drawn = try coastPaths(europe, Self.bundled)
    let m = MapPicture.coastMargin + 0.05
    #expect(drawn.count > 5 && drawn.count < Self.bundled.polylineCount)
    for p in drawn.flatMap({ $0 }).flatMap({ $0 }) {
      #expect(p.x >= -m && p.x <= europe.width + m && p.y >= -m && p.y <= europe.height + m)
    }
  }

  @Test func theWorldIsSimplifiedToItsScale() throws {
    func vertices(_ v: Viewport) throws -> Int {
      try coastPaths(v, Self.bundled).flatMap { $0 }.reduce(0) { $0 + $1.count }
    }
    // one copy of the world at zoom 0 and 1 (a screen as wide as the world)
    let z0 = try vertices(Viewport(center: Point(x: 0, y: 0), zoom: 0, width: 256, height: 256))
    let z1 = try vertices(Viewport(center: Point(x: 0, y: 0), zoom: 1, width: 512, height: 512))
    #expect(z0 < Self.bundled.pointCount / 2, "\(z0) of \(Self.bundled.pointCount)")
    #expect(z0 < z1 && z1 < Self.bundled.pointCount)

    // a line wiggling by 0.002° keeps every vertex close up (12 points at
    // zoom 13), and only its ends from afar (0.36 points at zoom 8)
    let wiggle = (0...40).map { Point(x: Double($0) * 0.01, y: $0 % 2 == 0 ? 0 : 0.002) }
    let coast = Coastlines(polylines: [wiggle], credit: "test")
    let close = try coastPaths(
      Viewport(center: Point(x: 0.2, y: 0), zoom: 13, width: 4096, height: 400), coast)
    #expect(close.flatMap { $0 }.reduce(0) { $0 + $1.count } == wiggle.count)
    let far = try coastPaths(Viewport(center: Point(x: 0.2, y: 0), zoom: 8), coast)
    #expect(far.flatMap { $0 }.map(\.count) == [2])
  }

  @Test(arguments: [1 as UInt64, 2, 3])
  func significanceGivesDouglasPeuckerAtEveryTolerance(_ seed: UInt64) {
    var g = SplitMix64(seed: seed)
    let n = 60
    let xs = (0..<n).map { Double($0) + g.nextUnit() }
    let ys = (0..<n).map { _ in g.nextUnit() * 10 }
    let significance = Coastlines.significance(xs[...], ys[...])
    for tolerance in [0.01, 0.3, 1, 2.5, 4, 100] {
      let kept = Set((0..<n).filter { significance[$0] >= tolerance })
      #expect(kept == Self.douglasPeucker(xs, ys, tolerance), "tolerance \(tolerance)")
    }
  }

  /// Douglas–Peucker as written in 1973, recursive, at one tolerance.
  static func douglasPeucker(_ x: [Double], _ y: [Double], _ tolerance: Double) -> Set<Int> {
    var kept: Set<Int> = [0, x.count - 1]
    func split(_ a: Int, _ b: Int) {
      guard b - a >= 2 else { return }
      var far = a + 1
      var farthest = -1.0
      for i in (a + 1)..<b {
        let d = Coastlines.distance(x[i], y[i], x[a], y[a], x[b], y[b])
        if d > farthest { (far, farthest) = (i, d) }
      }
      guard farthest >= tolerance else { return }
      kept.insert(far)
      split(a, far)
      split(far, b)
    }
    split(0, x.count - 1)
    return kept
  }

  @Test func withoutCoastlinesNothingIsDrawnAndTheLegendSaysWhich() throws {
    var clusterer = try Clusterer<KDTreeIndex>(points: Fixtures.uniform(500, seed: 3))
    let v = Viewport(center: Point(x: 0, y: 20), zoom: 1)
    let view = ClusterView(
      viewport: v, markers: clusterer.markers(for: v), pointsInView: 500,
      timing: MapPictureTests.timing)
    let source = MapPictureTests.source(points: 500)
    for coast in [nil, Self.bundled] {
      let doc = try #require(
        SVGDocument(MapPicture.cluster(view, source: source, coastlines: coast).render()))
      #expect(doc.indices(classed: "coastlines").count == (coast == nil ? 0 : 1))
      let legend = doc.elements.filter { $0.ancestors.contains(doc.indices(classed: "legend")[0]) }
        .map(\.text)
      #expect(legend.contains("coast, Natural Earth 1:110m") == (coast != nil))
      #expect(doc.elements(classed: "marker").count == view.markers.count)
    }
  }
}
