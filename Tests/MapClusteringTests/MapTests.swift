import SpatialIndexes
import Testing
import MapClustering
import _SeededRandom

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct WebMercatorTests {
  @Test func worldSizeIs256PointsAtZoomZeroAndDoublesPerLevel() {
    #expect(WebMercator.worldSize(zoom: 0) == 256)
    #expect(WebMercator.worldSize(zoom: 1) == 512)
    #expect(WebMercator.worldSize(zoom: 19) == 256 * 524_288)
    #expect(WebMercator.scale(zoom: 10) == 1024)
  }

  @Test func longitudeLatitudeRoundTrip() {
    var g = SplitMix64(seed: 21)
    for _ in 0..<10_000 {
      let lon = g.nextDouble(in: -180, 180)
      let lat = g.nextDouble(in: -WebMercator.maxLatitude, WebMercator.maxLatitude)
      let x = WebMercator.x(longitude: lon), y = WebMercator.y(latitude: lat)
      #expect(x >= 0 && x <= 256 && y >= 0 && y <= 256)
      #expect(abs(WebMercator.longitude(x: x) - lon) < 1e-11)
      #expect(abs(WebMercator.latitude(y: y) - lat) < 1e-9)
    }
  }

  @Test func knownValues() {
    #expect(WebMercator.x(longitude: -180) == 0)
    #expect(WebMercator.x(longitude: 0) == 128)
    #expect(WebMercator.x(longitude: 180) == 256)
    #expect(abs(WebMercator.y(latitude: 0) - 128) < 1e-12)
    #expect(WebMercator.y(latitude: 45) < 128)  // y grows southward
  }

  @Test func polesAreClampedToTheSquareMap() {
    #expect(abs(WebMercator.maxLatitude - 85.051_128_78) < 1e-8)
    #expect(abs(WebMercator.maxLatitude - atan(sinh(Double.pi)) * 180 / .pi) < 1e-12)
    #expect(abs(WebMercator.y(latitude: WebMercator.maxLatitude)) < 1e-9)
    #expect(abs(WebMercator.y(latitude: -WebMercator.maxLatitude) - 256) < 1e-9)
    #expect(WebMercator.y(latitude: 90) == WebMercator.y(latitude: WebMercator.maxLatitude))
    #expect(WebMercator.y(latitude: -90) == WebMercator.y(latitude: -WebMercator.maxLatitude))
    #expect(abs(WebMercator.latitude(y: 0) - 85.051_128_78) < 1e-8)
    #expect(abs(WebMercator.latitude(y: 256) + 85.051_128_78) < 1e-8)
    #expect(WebMercator.latitude(y: -50) == WebMercator.latitude(y: 0))
    #expect(WebMercator.latitude(y: 300) == WebMercator.latitude(y: 256))
  }

  @Test func wrappedLongitude() {
    let cases: [(Double, Double)] = [
      (0, 0), (-180, -180), (180, -180), (179.5, 179.5), (190, -170), (-190, 170),
      (540, -180), (-540, -180), (720.25, 0.25), (-359.75, 0.25), (1e6, 1e6 - 2778 * 360),
    ]
    for (lon, expected) in cases {
      #expect(abs(WebMercator.wrappedLongitude(lon) - expected) < 1e-9, "\(lon)")
    }
    var g = SplitMix64(seed: 3)
    for _ in 0..<10_000 {
      let w = WebMercator.wrappedLongitude(g.nextDouble(in: -1e5, 1e5))
      #expect(w >= -180 && w < 180)
    }
    // just below −180: the rounding must not land on the excluded +180
    #expect(WebMercator.wrappedLongitude(-180.0.nextDown) < 180)
    #expect(WebMercator.wrappedLongitude(.nan).isNaN)
  }
}

@Suite struct ViewportTests {
  /// Longitude degrees per screen point at `zoom`.
  func degreesPerPoint(_ zoom: Int) -> Double { 360 / WebMercator.worldSize(zoom: zoom) }

  @Test func phoneAtZoomZeroSeesEveryLongitudeInOneRect() {
    let v = Viewport(center: Point(x: 40, y: 10), zoom: 0)
    #expect(v.width > 256)
    let rects = v.rects
    #expect(rects.count == 1)
    #expect(rects[0].minX == -180 && rects[0].maxX == 180)
    // 844 points tall > 256: the whole map height, clamped at the poles
    #expect(abs(rects[0].maxY - WebMercator.maxLatitude) < 1e-9)
    #expect(abs(rects[0].minY + WebMercator.maxLatitude) < 1e-9)
  }

  @Test func viewportCrossingTheAntimeridianGivesTwoRects() {
    let v = Viewport(center: Point(x: 179.9, y: 0), zoom: 10)
    let rects = v.rects
    #expect(rects.count == 2)
    let span = 390 * degreesPerPoint(10)
    // east part (the left of the screen) first, then the part past −180
    #expect(abs(rects[0].minX - (179.9 - span / 2)) < 1e-9)
    #expect(rects[0].maxX == 180)
    #expect(rects[1].minX == -180)
    #expect(abs(rects[1].maxX - (179.9 + span / 2 - 360)) < 1e-9)
    #expect(abs(rects[0].width + rects[1].width - span) < 1e-9)
    #expect(rects[0].minY == rects[1].minY && rects[0].maxY == rects[1].maxY)

    let w = Viewport(center: Point(x: -179.9, y: 0), zoom: 10).rects
    #expect(w.count == 2)
    #expect(abs(w[0].minX - (-179.9 - span / 2 + 360)) < 1e-9 && w[0].maxX == 180)
    #expect(w[1].minX == -180 && abs(w[1].maxX - (-179.9 + span / 2)) < 1e-9)
  }

  @Test(arguments: 0...19) func rectWidthMatchesTheScreenWidth(_ zoom: Int) {
    for width in [390.0, 1440.0] {
      let v = Viewport(center: Point(x: 12.5, y: 41.9), zoom: zoom, width: width, height: 900)
      let rects = v.rects
      let degrees = rects.map(\.width).reduce(0, +)
      if width >= WebMercator.worldSize(zoom: zoom) {
        #expect(degrees == 360)
      } else {
        #expect(abs(degrees / degreesPerPoint(zoom) - width) < 1e-6 * width)
      }
      // the height, in map points, is the screen height (unless clamped at a pole)
      let s = WebMercator.scale(zoom: zoom)
      let top = WebMercator.y(latitude: rects[0].maxY) * s
      let bottom = WebMercator.y(latitude: rects[0].minY) * s
      if 900 < WebMercator.worldSize(zoom: zoom) / 2 {
        #expect(abs((bottom - top) - 900) < 1e-6 * 900)
      }
    }
  }

  @Test func rectsContainTheCentre() {
    var g = SplitMix64(seed: 5)
    for _ in 0..<2000 {
      let c = Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -80, 80))
      let v = Viewport(center: c, zoom: 2 + g.nextInt(below: 18))
      #expect(v.rects.contains { $0.isValid && $0.contains(c) }, "\(v)")
      #expect(v.rects.allSatisfy { $0.isValid }, "\(v)")
    }
  }

  /// A centre given outside [-180, 180] is the same place as its wrapped one.
  @Test func centreOutsideTheLongitudeRangeIsWrapped() {
    let cases = [(190.0, -170.0), (-200, 160), (540, 180), (359.95, -0.05), (180.05, -179.95)]
    for (lon, wrapped) in cases {
      let a = Viewport(center: Point(x: lon, y: 20), zoom: 10).rects
      let b = Viewport(center: Point(x: wrapped, y: 20), zoom: 10).rects
      #expect(a.count == b.count, "\(lon)")
      for (r, s) in zip(a, b) {
        #expect(r.isValid)
        #expect(abs(r.minX - s.minX) < 1e-9 && abs(r.maxX - s.maxX) < 1e-9, "\(lon): \(r) vs \(s)")
        #expect(r.minY == s.minY && r.maxY == s.maxY)
      }
    }
  }
}
