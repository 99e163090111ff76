import SpatialIndexes
import Testing
import BenchWorkloads
import MapClustering
import _SeededRandom

/// 5,000 points uniform over Europe (longitude −10…30, latitude 35…60).
private let europe: [Point] = {
  var g = SplitMix64(seed: 1)
  return (0..<5000).map { _ in Point(x: g.nextDouble(in: -10, 30), y: g.nextDouble(in: 35, 60)) }
}()

private let laptop = (width: 1440.0, height: 900.0)

@Suite struct ViewportSessionTests {
  @Test func sameSeedGivesSameSteps() {
    let p = SessionParameters(steps: 2000, seed: 9)
    #expect(ViewportSession(points: europe, parameters: p).steps
              == ViewportSession(points: europe, parameters: p).steps)
    var q = p
    q.seed = 10
    #expect(ViewportSession(points: europe, parameters: p).steps
              != ViewportSession(points: europe, parameters: q).steps)
  }

  /// A change here changes every session workload.
  @Test func firstStepsArePinned() {
    let s = ViewportSession(points: europe, parameters: SessionParameters(steps: 3, seed: 42))
    #expect(s.steps.map(\.kind) == [.start, .pan, .pan])
    #expect(s.steps.map(\.viewport.zoom) == [3, 3, 3])
    #expect(s.steps[0].viewport.center == Point(x: 10.001360653939807, y: 49.04034113314521))
    #expect(s.steps[1].viewport.center == Point(x: 29.50435996822236, y: 77.55914345349058))
    #expect(s.steps[2].viewport.center == Point(x: -18.568399579567085, y: 67.12134184324034))
    #expect(s.steps[0].tap == ScreenPosition(x: 335.69491880083484, y: 129.87864513134707))
  }

  @Test(arguments: [2...19, 5...8, 12...12, 0...3])
  func zoomStaysInRange(_ range: ClosedRange<Int>) {
    let s = ViewportSession(points: europe, parameters: SessionParameters(
      steps: 10_000, seed: 3, zoomRange: range))
    #expect(s.steps.allSatisfy { range.contains($0.viewport.zoom) })
    #expect(s.steps.count == 10_000)
  }

  @Test func centresStayOnTheMap() {
    let s = ViewportSession(points: europe, parameters: SessionParameters(steps: 10_000, seed: 4))
    for c in s.viewports.map(\.center) {
      #expect(c.x >= -180 && c.x < 180)
      #expect(abs(c.y) <= WebMercator.maxLatitude)
    }
  }

  @Test(arguments: [Viewport.phone, laptop])
  func firstStepContainsTheDataAtTheLargestZoom(_ screen: (width: Double, height: Double)) {
    var g = SplitMix64(seed: 8)
    let sets: [[Point]] = [
      europe,
      (0..<500).map { _ in Point(x: g.nextDouble(in: 2.2, 2.5), y: g.nextDouble(in: 48.8, 48.9)) },
      (0..<500).map { _ in Point(x: g.nextDouble(in: 170, 179.5), y: g.nextDouble(in: -20, -15)) },
      (0..<500).map { _ in Point(x: g.nextDouble(in: -120, -70), y: g.nextDouble(in: 25, 50)) },
      [Point(x: 13.4, y: 52.5), Point(x: 13.4001, y: 52.5001)],
    ]
    for points in sets {
      let p = SessionParameters(steps: 1, screenWidth: screen.width, screenHeight: screen.height)
      let v = ViewportSession(points: points, parameters: p).steps[0].viewport
      let box = Rect(bounding: points)!
      #expect(v.rects.contains { $0.contains(box) }, "\(v) \(box)")
      #expect(v.width == screen.width && v.height == screen.height)
      if v.zoom < p.zoomRange.upperBound {  // one level closer no longer fits
        var closer = v
        closer.zoom += 1
        #expect(!closer.rects.contains { $0.contains(box) }, "\(closer) \(box)")
      }
    }
  }

  @Test func oneOrTwoPointsStartAtTheMaximumZoom() {
    let one = ViewportSession(points: [Point(x: 13.4, y: 52.5)])
    #expect(one.steps[0].viewport.zoom == 19)
    #expect(one.steps[0].viewport.center == Point(x: 13.4, y: 52.5))
  }

  @Test func worldWideDataStartsAtTheLowestZoom() {
    let points = PointDistribution.uniform.points(count: 1000, seed: 1)
    let s = ViewportSession(points: points, parameters: SessionParameters(steps: 1))
    #expect(s.steps[0].viewport.zoom == 2)
    let zoomZero = SessionParameters(steps: 1, zoomRange: 0...19)
    #expect(ViewportSession(points: points, parameters: zoomZero).steps[0].viewport.zoom == 0)
  }

  @Test func emptyDataStartsWithTheWorldAndStillMoves() {
    let s = ViewportSession(points: [], parameters: SessionParameters(steps: 500, seed: 2))
    #expect(s.steps[0].viewport == Viewport(center: Point(x: 0, y: 0), zoom: 2))
    #expect(s.steps.contains { $0.kind == .jump })
    #expect(s.steps.allSatisfy { $0.viewport.center.isFinite })
  }

  @Test func mixOfStepKindsMatchesTheProbabilities() {
    let s = ViewportSession(points: europe, parameters: SessionParameters(steps: 10_001, seed: 5))
    var counts: [ViewportSession.StepKind: Int] = [:]
    for step in s.steps.dropFirst() { counts[step.kind, default: 0] += 1 }
    let n = 10_000.0
    let pans = Double(counts[.pan, default: 0]) / n
    let zooms = Double(counts[.zoomIn, default: 0] + counts[.zoomOut, default: 0]) / n
    let jumps = Double(counts[.jump, default: 0]) / n
    // binomial standard deviations are about 0.005, 0.0043 and 0.0036
    #expect(abs(pans - 0.60) < 0.02)
    #expect(abs(zooms - 0.25) < 0.02)
    #expect(abs(jumps - 0.15) < 0.015)
    #expect(counts[.start] == nil)

    let onlyPans = SessionParameters(steps: 200, mix: StepMix(pan: 1, zoom: 0, jump: 0))
    #expect(ViewportSession(points: europe, parameters: onlyPans).steps.dropFirst()
              .allSatisfy { $0.kind == .pan })
  }

  @Test func eachKindOfStepMovesAsDocumented() {
    let s = ViewportSession(points: europe, parameters: SessionParameters(
      steps: 5000, seed: 6, screenWidth: laptop.width, screenHeight: laptop.height))
    for (before, step) in zip(s.steps, s.steps.dropFirst()) {
      let a = before.viewport, b = step.viewport
      switch step.kind {
      case .start:
        Issue.record("only the first step is the start")
      case .pan:
        #expect(b.zoom == a.zoom)
        // distance in screens, measured on the map (the wrap taken out)
        let world = WebMercator.worldSize(zoom: a.zoom)
        var dx = (WebMercator.x(longitude: b.center.x) - WebMercator.x(longitude: a.center.x))
          * WebMercator.scale(zoom: a.zoom)
        dx -= world * (dx / world).rounded()
        let dy = (WebMercator.y(latitude: b.center.y) - WebMercator.y(latitude: a.center.y))
          * WebMercator.scale(zoom: a.zoom)
        let screens = ((dx / a.width) * (dx / a.width) + (dy / a.height) * (dy / a.height))
          .squareRoot()
        // skipped when the latitude hit the map's edge, or when a pan can
        // reach half a world, where the wrap is ambiguous
        let clamped = abs(b.center.y) == WebMercator.maxLatitude
        if !clamped && a.width < world / 2 {
          #expect(screens >= 0.25 - 1e-6 && screens <= 1 + 1e-6, "\(a) → \(b)")
        }
      case .zoomIn:
        #expect(b.zoom == a.zoom + 1 && b.center == a.center)
      case .zoomOut:
        #expect(b.zoom == a.zoom - 1 && b.center == a.center)
      case .jump:
        #expect((10...16).contains(b.zoom))
        #expect(europe.contains(b.center))
      }
    }
  }

  @Test func jumpZoomIsClampedToTheZoomRange() {
    let p = SessionParameters(steps: 2000, seed: 1, zoomRange: 2...8)
    let s = ViewportSession(points: europe, parameters: p)
    #expect(s.steps.filter { $0.kind == .jump }.allSatisfy { $0.viewport.zoom == 8 })
  }

  @Test func sessionsCrossTheAntimeridian() {
    let fiji = (0..<200).map { i in Point(x: 179.95 - Double(i) * 0.001, y: -17) }
    let p = SessionParameters(steps: 3000, seed: 11, mix: StepMix(pan: 0.8, zoom: 0.1, jump: 0.1))
    let s = ViewportSession(points: fiji, parameters: p)
    #expect(s.viewports.contains { $0.rects.count == 2 })
    #expect(s.viewports.contains { $0.center.x < -179 })
  }

  @Test func tapsAreOnTheScreen() {
    let s = ViewportSession(points: europe, parameters: SessionParameters(
      steps: 5000, seed: 12, screenWidth: laptop.width, screenHeight: laptop.height))
    for step in s.steps {
      #expect(step.tap.x >= 0 && step.tap.x < laptop.width)
      #expect(step.tap.y >= 0 && step.tap.y < laptop.height)
    }
  }

  @Test func tapsRoundTripThroughLatitudeAndLongitude() {
    let s = ViewportSession(points: europe, parameters: SessionParameters(steps: 5000, seed: 13))
    for (step, c) in zip(s.steps, s.tapCoordinates) where abs(c.y) < WebMercator.maxLatitude {
      let back = step.viewport.screenPosition(of: c)
      #expect(abs(back.x - step.tap.x) < 1e-6 && abs(back.y - step.tap.y) < 1e-6)
      #expect(step.viewport.rects.contains { $0.contains(c) })
    }
  }
}
