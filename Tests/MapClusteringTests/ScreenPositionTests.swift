import SpatialIndexes
import Testing
import MapClustering
import _SeededRandom

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ScreenPositionTests {
  @Test func screenCentreIsTheViewportCentre() {
    let v = Viewport(center: Point(x: 2.35, y: 48.85), zoom: 12)
    let c = v.coordinate(at: ScreenPosition(x: 195, y: 422))
    #expect(abs(c.x - 2.35) < 1e-9 && abs(c.y - 48.85) < 1e-9)
    let p = v.screenPosition(of: v.center)
    #expect(abs(p.x - 195) < 1e-6 && abs(p.y - 422) < 1e-6)
  }

  @Test func cornersMatchTheRects() {
    let v = Viewport(center: Point(x: 2.35, y: 48.85), zoom: 12, width: 1440, height: 900)
    let r = v.rects[0]
    let topLeft = v.coordinate(at: ScreenPosition(x: 0, y: 0))
    let bottomRight = v.coordinate(at: ScreenPosition(x: 1440, y: 900))
    #expect(abs(topLeft.x - r.minX) < 1e-9 && abs(topLeft.y - r.maxY) < 1e-9)
    #expect(abs(bottomRight.x - r.maxX) < 1e-9 && abs(bottomRight.y - r.minY) < 1e-9)
  }

  @Test func roundTripOverManyViewports() {
    var g = SplitMix64(seed: 17)
    for _ in 0..<5000 {
      let zoom = 2 + g.nextInt(below: 18)
      let v = Viewport(center: Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -70, 70)),
                       zoom: zoom, width: 1440, height: 900)
      let s = ScreenPosition(x: g.nextDouble(in: 0, v.width), y: g.nextDouble(in: 0, v.height))
      let c = v.coordinate(at: s)
      #expect(c.x >= -180 && c.x < 180)
      let back = v.screenPosition(of: c)
      let world = WebMercator.worldSize(zoom: zoom)
      // a screen wider than the world shows a point twice: the copy nearest
      // the centre comes back, a whole world width from the tap
      let dx = v.width < world ? back.x - s.x : remainder(back.x - s.x, world)
      if abs(c.y) < WebMercator.maxLatitude {
        #expect(abs(dx) < 1e-6 && abs(back.y - s.y) < 1e-6, "\(v) \(s) → \(c) → \(back)")
        // and the point is inside one of the viewport's rects
        #expect(v.rects.contains { $0.contains(c) }, "\(v) \(c)")
      }
    }
  }

  @Test func pointAcrossTheAntimeridianIsDrawnOnScreen() {
    let v = Viewport(center: Point(x: 179.9, y: 0), zoom: 10)
    let east = v.screenPosition(of: Point(x: -179.9, y: 0))  // 0.2° east of the centre
    let pointsPerDegree = WebMercator.worldSize(zoom: 10) / 360
    #expect(abs(east.x - (195 + 0.2 * pointsPerDegree)) < 1e-6)
    #expect(v.isOnScreen(east))
    let c = v.coordinate(at: east)
    #expect(abs(c.x - -179.9) < 1e-9)

    let w = Viewport(center: Point(x: -179.95, y: 0), zoom: 10)
    let west = w.screenPosition(of: Point(x: 179.95, y: 0))
    #expect(abs(west.x - (195 - 0.1 * pointsPerDegree)) < 1e-6)
    #expect(w.isOnScreen(west))
  }

  @Test func offScreenPointsAreReportedOffScreen() {
    let v = Viewport(center: Point(x: 2.35, y: 48.85), zoom: 12)
    #expect(!v.isOnScreen(v.screenPosition(of: Point(x: 13.4, y: 52.5))))
    #expect(v.isOnScreen(v.screenPosition(of: Point(x: 2.351, y: 48.851))))
  }
}
