import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport

/// The linear scan is every other index's reference, so it is checked here
/// against the definition itself: a plain filter over the points with the
/// four inclusive comparisons. The cases aim at its 16-bit prefilter: points
/// that share a code with a rectangle's edge (on it, one ulp inside, one ulp
/// outside), huge coordinates, edges that fall inside a code's cell,
/// zero-width rectangles, the world's edges. (Inserts outside the
/// build-time bounds and removals: DynamicModelTests.)
@Suite struct LinearScanIndexTests {
  /// The ids inside `rect` by definition, in increasing order.
  static func expected(_ points: [Point?], _ rect: Rect) -> [Int32] {
    points.indices.compactMap { i in
      guard let p = points[i] else { return nil }
      let inside = rect.minX <= p.x && p.x <= rect.maxX && rect.minY <= p.y && p.y <= rect.maxY
      return inside ? Int32(i) : nil
    }
  }

  /// Every query form against the definition; `points[i] == nil` for a removed id.
  static func check(_ index: LinearScanIndex, _ points: [Point?], _ rects: [Rect],
                    sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(index._invariantViolations().isEmpty, "\(index._invariantViolations())",
            sourceLocation: sourceLocation)
    var failures = 0
    for rect in rects {
      let want = expected(points, rect)
      var visited: [Int32] = []
      let finished = index.forEach(in: rect) { visited.append($0); return true }
      var buffer: [Int32] = [-7]
      index.query(in: rect, into: &buffer)
      let count = index.count(in: rect)
      var counters = WorkCounters()
      let counted = index.count(in: rect, counters: &counters)
      let ok = finished && visited == want && buffer == [-7] + want && count == want.count
        && counted == want.count && counters.pointsReported == want.count
        && counters.pointsTested >= points.count
      if !ok {
        failures += 1
        if failures <= 3 {
          Issue.record(
            "\(rect): want \(want.prefix(8)) (\(want.count)), forEach \(visited.prefix(8)) (\(visited.count)), query \(buffer.count - 1), count \(count)",
            sourceLocation: sourceLocation)
        }
      }
    }
  }

  /// Rectangles whose edges are `e`, `e.nextDown`, `e.nextUp` for each given
  /// edge value, plus zero-width ones on each value.
  static func edgeRects(xs: [Double], ys: [Double]) -> [Rect] {
    var rects: [Rect] = []
    for (x0, x1) in zip(xs, xs.dropFirst()) {
      for (y0, y1) in zip(ys, ys.dropFirst()) {
        for dx0 in [x0.nextDown, x0, x0.nextUp] {
          for dx1 in [x1.nextDown, x1, x1.nextUp] {
            rects.append(Rect(minX: dx0, minY: y0, maxX: dx1, maxY: y1))
            rects.append(Rect(minX: x0, minY: dx0 / 2, maxX: x1, maxY: dx1 / 2))
          }
        }
        rects.append(Rect(minX: x0, minY: y0, maxX: x0, maxY: y1))  // zero width
        rects.append(Rect(minX: x0, minY: y0, maxX: x1, maxY: y0))  // zero height
        rects.append(Rect(minX: x1, minY: y1, maxX: x1, maxY: y1))  // one point
      }
    }
    return rects
  }

  /// Points on, one ulp inside and one ulp outside each value, crossed with
  /// the same in y: 9 points per (x, y) pair, all but a few sharing the
  /// value's 16-bit code (none past ±Double.greatestFiniteMagnitude).
  static func ulpCloud(xs: [Double], ys: [Double]) -> [Point] {
    var points: [Point] = []
    for x in xs {
      for y in ys {
        for px in [x.nextDown, x, x.nextUp] {
          for py in [y.nextDown, y, y.nextUp] where px.isFinite && py.isFinite {
            points.append(Point(x: px, y: py))
          }
        }
      }
    }
    return points
  }

  @Test func pointsOneUlpFromTheEdgesOfTheWorld() throws {
    // 0.1, 1/3 and 2.3522 fall inside a code's cell; ±180 and ±90 are the
    // extreme codes; 0 is a cell border.
    let xs = [-180, -33.3, 0, 0.1, 1.0 / 3, 2.3522, 179.99999, 180]
    let ys = [-90, -45.000001, 0, 0.1, 1.0 / 3, 48.8566, 90]
    let points = Self.ulpCloud(xs: xs, ys: ys)
    let index = try LinearScanIndex(points: points)
    let rects = Self.edgeRects(xs: xs, ys: ys) + [
      .world,
      Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity),
      Rect(minX: 180, minY: 90, maxX: .infinity, maxY: .infinity),
      Rect(minX: -.infinity, minY: -.infinity, maxX: -180, maxY: -90),
      Rect(minX: 180.0.nextUp, minY: -90, maxX: 200, maxY: 90),  // just outside the data
      Rect(minX: -180, minY: -90, maxX: -180, maxY: 90),  // the antimeridian, zero width
      Rect(minX: 180, minY: -90, maxX: 180, maxY: 90),
      Rect(minX: -180, minY: 90, maxX: 180, maxY: 90),  // the pole, zero height
    ]
    Self.check(index, points, rects)
  }

  @Test func edgesThatFallInsideACell() throws {
    // Uniform points plus points a few ulps around random edges.
    var g = SplitMix64(seed: 11)
    var points = Fixtures.uniform(3000, seed: 12)
    var rects: [Rect] = []
    for _ in 0..<150 {
      let x0 = g.nextDouble(in: -180, 170), y0 = g.nextDouble(in: -90, 80)
      let x1 = x0 + g.nextDouble(in: 0, 10), y1 = y0 + g.nextDouble(in: 0, 10)
      points += Self.ulpCloud(xs: [x0, x1], ys: [y0, y1])
      rects.append(Rect(minX: x0, minY: y0, maxX: x1, maxY: y1))
      rects.append(Rect(minX: x0.nextUp, minY: y0.nextUp, maxX: x1.nextDown, maxY: y1.nextDown))
      rects.append(Rect(minX: x0.nextDown, minY: y0.nextDown, maxX: x1.nextUp, maxY: y1.nextUp))
      rects.append(Rect(minX: x0, minY: y0, maxX: x0, maxY: y1))
    }
    Self.check(try LinearScanIndex(points: points), points, rects)
  }

  @Test func hugeCoordinates() throws {
    let big = Double.greatestFiniteMagnitude
    let xs = [-big, -1e300, -1, 0, 1e-300, 1e300, big]
    let ys = [-big, -5e307, 0, 5e307, big]
    let points = Self.ulpCloud(xs: xs, ys: ys) + [Point(x: 0, y: 0), Point(x: 1e200, y: -1e200)]
    let index = try LinearScanIndex(points: points)
    let rects = Self.edgeRects(xs: xs, ys: ys) + [
      Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity),
      Rect(minX: big, minY: big, maxX: .infinity, maxY: .infinity),
      Rect(minX: -1e-300, minY: -1e-300, maxX: 1e-300, maxY: 1e-300),
    ]
    Self.check(index, points, rects)
    // Tiny spans too: every point within a few ulps of one value.
    let sub = Double.leastNormalMagnitude / 8, least = Double.leastNonzeroMagnitude
    let tiny = Self.ulpCloud(xs: [sub, 2.5], ys: [-3 * least, 0]) + [Point(x: 0, y: 0)]
    Self.check(try LinearScanIndex(points: tiny), tiny, Self.edgeRects(xs: [0, sub, 2.5], ys: [-3 * least, 0]))
    let specks = Self.ulpCloud(xs: [0], ys: [0])  // a data box a few subnormals wide
    Self.check(try LinearScanIndex(points: specks), specks, Self.edgeRects(xs: [-least, 0, least], ys: [-least, 0, least]))
  }

  @Test func oneValueOnAnAxis() throws {
    // A zero-width data box: every x has the same code.
    let points = (0..<300).map { Point(x: 13.4, y: Double($0) / 7 - 20) }
    let index = try LinearScanIndex(points: points)
    let rects = Self.edgeRects(xs: [13.4, 13.4], ys: [-20, 0, 1.0 / 7, 22])
      + [Rect(minX: 13.4.nextUp, minY: -90, maxX: 20, maxY: 90)]
    Self.check(index, points, rects)
  }

  /// The counters show the prefilter at work: a candidate whose codes lie
  /// strictly inside the rectangle's codes is reported without a double
  /// test; one on an edge's code costs one more point tested.
  @Test func onlyCandidatesOnAnEdgeCodeAreTestedOnTheDoubles() throws {
    let points = [
      Point(x: -180, y: -90), Point(x: 180, y: 90), Point(x: -180, y: 90), Point(x: 180, y: -90),
      Point(x: 0, y: 0),
    ]
    let index = try LinearScanIndex(points: points)
    var inner = WorkCounters()
    let innerCount = index.count(in: Rect(minX: -90, minY: -45, maxX: 90, maxY: 45), counters: &inner)
    #expect(innerCount == 1)
    #expect(inner == WorkCounters(nodesVisited: 0, pointsTested: 5, pointsReported: 1))
    // (0, 0) now shares the west edge's code: one double test.
    var onEdge = WorkCounters()
    let onEdgeCount = index.count(in: Rect(minX: 0, minY: -45, maxX: 90, maxY: 45), counters: &onEdge)
    #expect(onEdgeCount == 1)
    #expect(onEdge == WorkCounters(nodesVisited: 0, pointsTested: 6, pointsReported: 1))
    // One ulp east of it: same code, so tested, and rejected.
    var past = WorkCounters()
    let pastCount = index.count(in: Rect(minX: 0.0.nextUp, minY: -45, maxX: 90, maxY: 45), counters: &past)
    #expect(pastCount == 0)
    #expect(past == WorkCounters(nodesVisited: 0, pointsTested: 6, pointsReported: 0))
    // The whole world: the corners hold the extreme codes, so they are
    // tested; the centre is not.
    var world = WorkCounters()
    let worldCount = index.count(in: .world, counters: &world)
    #expect(worldCount == 5)
    #expect(world == WorkCounters(nodesVisited: 0, pointsTested: 9, pointsReported: 5))
    // An empty rectangle tests nothing beyond the pass.
    var inverted = WorkCounters()
    let invertedCount = index.count(in: Rect(minX: 1, minY: 0, maxX: 0, maxY: 1), counters: &inverted)
    #expect(invertedCount == 0)
    #expect(inverted == WorkCounters(nodesVisited: 0, pointsTested: 5, pointsReported: 0))
  }

  @Test func nanAndInvertedRectanglesMatchNothing() throws {
    let points = Self.ulpCloud(xs: [-180, 0, 180], ys: [-90, 0, 90])
    let index = try LinearScanIndex(points: points)
    for rect in [
      Rect(minX: .nan, minY: -90, maxX: 180, maxY: 90), Rect(minX: -180, minY: -90, maxX: 180, maxY: .nan),
      Rect(minX: .nan, minY: .nan, maxX: .nan, maxY: .nan), Rect(minX: 0, minY: 0, maxX: 0.0.nextDown, maxY: 0),
      Rect(minX: .infinity, minY: -90, maxX: -.infinity, maxY: 90),
    ] {
      #expect(index.count(in: rect) == 0)
      #expect(index.ids(in: rect).isEmpty)
    }
  }

  /// Blocks of 1,024 points and batches of 256 candidates: sizes around
  /// them, all points hit (many batches), and an early stop in every batch.
  @Test(arguments: [15, 16, 17, 255, 256, 257, 1023, 1024, 1025, 4099])
  func blocksBatchesAndEarlyStops(n: Int) throws {
    // 9 × 9 lattice points: many on the rectangles' edges.
    let all = Array(Fixtures.lattice(steps: 8, repeats: n, seed: UInt64(n)).prefix(n))
    let index = try LinearScanIndex(points: all)
    Self.check(index, all, [.world, Rect(minX: -180, minY: -90, maxX: 0, maxY: 0),
                            Rect(minX: -45, minY: -22.5, maxX: 45, maxY: 22.5)])
    let want = Self.expected(all, .world)
    for stop in [1, 2, 255, 256, 257, want.count - 1, want.count] where stop >= 1 && stop <= want.count {
      var seen: [Int32] = []
      let finished = index.forEach(in: .world) { seen.append($0); return seen.count < stop }
      #expect(!finished)
      #expect(seen == Array(want.prefix(stop)))
    }
  }

  @Test func emptyThenInserted() throws {
    var index = try LinearScanIndex(points: [])
    #expect(index.count(in: .world) == 0)
    var points: [Point?] = []
    for p in Self.ulpCloud(xs: [-180, 0, 1e6], ys: [-90, 90]) {
      _ = try index.insert(p)
      points.append(p)
    }
    Self.check(index, points, Self.edgeRects(xs: [-180, 0, 1e6], ys: [-90, 90]))
    #expect(throws: IndexError.self) { _ = try index.insert(Point(x: .infinity, y: 0)) }
  }

  @Test func randomCasesAgreeWithTheDefinition() throws {
    for seed in 0..<UInt64(30) {
      var g = SplitMix64(seed: 0xBEEF ^ seed)
      let n = [0, 1, 17, 300, 2500][g.nextInt(below: 5)]
      let points: [Point]
      switch g.nextInt(below: 4) {
      case 0: points = Fixtures.uniform(n, seed: seed)
      case 1: points = Fixtures.clustered(n, blobs: 1 + g.nextInt(below: 4), seed: seed)
      case 2: points = Fixtures.lattice(steps: 16, repeats: max(1, n / 128), seed: seed)
      default:  // one ulp around a few values
        points = (0..<n).map { _ in
          let x = [-180, 0.1, 7.25, 180][g.nextInt(below: 4)], y = [-90, 1.0 / 3, 45][g.nextInt(below: 3)]
          let dx = [x.nextDown, x, x.nextUp][g.nextInt(below: 3)], dy = [y.nextDown, y, y.nextUp][g.nextInt(below: 3)]
          return Point(x: dx, y: dy)
        }
      }
      var rects = QueryFixtures.queries(for: points, count: 80, seed: seed)
      // Edges one ulp off data points.
      for _ in 0..<20 where !points.isEmpty {
        let a = points[g.nextInt(below: points.count)], b = points[g.nextInt(below: points.count)]
        let r = Rect(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y))
        rects.append(Rect(minX: r.minX.nextUp, minY: r.minY.nextDown, maxX: r.maxX.nextDown, maxY: r.maxY.nextUp))
      }
      Self.check(try LinearScanIndex(points: points), points, rects)
    }
  }

  @Test func memoryCountsTheCodes() throws {
    let index = try LinearScanIndex(points: Fixtures.uniform(1000, seed: 1))
    #expect(index.memoryBytes >= 1000 * 20)
  }
}
