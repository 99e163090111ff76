import SpatialIndexes
import Testing
import _SpatialTestSupport
import MapClustering
import _SeededRandom

@Suite struct TapTests {
  static let indexNames = allIndexTypes.map { $0.name }

  /// Seeded taps: most within a few points of a data point's screen position.
  static func taps(over points: [Point], count: Int, seed: UInt64) -> [Tap] {
    var g = SplitMix64(seed: seed)
    return MapFixtures.viewports(over: points, count: count, seed: seed).map { v in
      let s = WebMercator.scale(zoom: v.zoom), w = WebMercator.worldSize(zoom: v.zoom)
      let b = v.mapBounds
      if g.nextUnit() < 0.2 || points.isEmpty {
        return Tap(x: g.nextDouble(in: 0, v.width), y: g.nextDouble(in: 0, v.height), in: v)
      }
      let p = points[g.nextInt(below: points.count)]
      var px = WebMercator.x(longitude: p.x) * s - b.minX
      px -= (px / w).rounded(.down) * w  // the copy of the world right of the left edge
      let py = WebMercator.y(latitude: p.y) * s - b.minY
      return Tap(x: px + g.nextDouble(in: -30, 30), y: py + g.nextDouble(in: -30, 30), in: v)
    }
  }

  @Test(arguments: indexNames)
  func sameAnswerAsBruteForce(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    for fixture in MapFixtures.sets + [Fixture("poles", [
      Point(x: 0, y: WebMercator.maxLatitude), Point(x: 0, y: 89), Point(x: 180, y: -85),
      Point(x: -180, y: -85), Point(x: 179.9999, y: 0), Point(x: -180, y: 0),
    ])] {
      try check(type, fixture)
    }
  }

  /// Both ways of answering a tap, through range queries and through the
  /// k-nearest search, against every point's screen distance.
  private func check<I: DescribedIndex>(_ type: I.Type, _ fixture: Fixture) throws {
    let index = try I(points: fixture.points)
    var buffer = NearestBuffer(), counters = NoCounters()
    var hits = 0, failures = 0
    for tap in Self.taps(over: fixture.points, count: 300, seed: 70) {
      let expected = tap.nearestByBruteForce(in: fixture.points)
      let answers = [
        ("range", index.nearestByRangeQuery(to: tap, points: fixture.points)),
        ("nearest", index.nearestByNeighbours(to: tap, points: fixture.points, buffer: &buffer, counters: &counters)),
      ]
      for (way, got) in answers where got != expected && failures < 5 {
        failures += 1
        Issue.record("\(I.name) by \(way) \(fixture) \(tap): \(String(describing: got)), expected \(String(describing: expected))")
      }
      if expected != nil { hits += 1 }
    }
    if fixture.points.count > 10 { #expect(hits > 100, "\(fixture): only \(hits) taps hit") }
  }

  /// A tap on copies of one place: every copy ties on screen, the earliest
  /// is the answer, and through the k-nearest search the tap costs what a
  /// search for a few places costs, not the copies (it asks for distinct
  /// places once the copies fill its `k`).
  @Test(arguments: ["kdtree", "rtree", "celltree", "grid", "quadtree"])
  func aTapOnCopiesCostsTheirPlaceNotTheirNumber(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try checkCopies(type)
  }

  private func checkCopies<I: DescribedIndex>(_ type: I.Type) throws {
    let place = Point(x: 2.35, y: 48.85)
    var work: [Int] = []
    for n in [1_000, 100_000] {
      var points = [Point](repeating: place, count: n)
      points[n / 2] = Point(x: 2.3501, y: 48.8501)  // another place, a few metres off
      let index = try I(points: points)
      var buffer = NearestBuffer(), counters = WorkCounters()
      for zoom in [3, 12, 18] {
        let tap = Tap(at: Point(x: 2.3500003, y: 48.8500002), zoom: zoom)
        let got = index.nearestByNeighbours(to: tap, points: points, buffer: &buffer, counters: &counters)
        #expect(got == tap.nearestByBruteForce(in: points), "\(I.name) n \(n) zoom \(zoom)")
        #expect(got?.id == 0, "\(I.name) n \(n) zoom \(zoom): \(String(describing: got))")
      }
      // a search through range queries reads every point reported
      work.append(counters.nodesVisited + counters.pointsTested + counters.pointsReported)
    }
    // a hundred times the copies: a few levels more of the tree, at most
    // twice the work (it was a hundred times, and the first tap's k grew
    // until it held every copy)
    #expect(work[1] <= 2 * work[0], "\(I.name): \(work)")
  }

  /// A viewport at zoom 0 centred on (0, 0): map x = 128 + 256 · lon / 360.
  let world = Viewport(center: Point(x: 0, y: 0), zoom: 0)

  @Test func tiesGoToTheSmallerID() throws {
    // 14.0625° is exactly 10 map points at zoom 0: the two points are 10 points
    // either side of the centre, on the same latitude
    let east = Point(x: 14.0625, y: 0), west = Point(x: -14.0625, y: 0)
    let tap = Tap(x: world.width / 2, y: world.height / 2, in: world)
    for points in [[east, west], [west, east], [east, east, west]] {
      let kd = try KDTreeIndex(points: points, parameters: .init(nodeSize: 1))
      let hit = kd.nearestByRangeQuery(to: tap, points: points)
      #expect(hit?.id == 0)
      #expect(hit?.distance == 10)
      #expect(tap.nearestByBruteForce(in: points) == hit)
    }
  }

  /// A touch target on thousands of copies of one place: the range
  /// queries stop after a run of copies and the tap is answered through
  /// k-nearest, so the points read do not grow with the copies, and the
  /// answer is still the earliest copy of the nearest place, or a nearer
  /// point. (An index counts a subtree it hands over as reported even when
  /// the reader stops early, so the reads are counted as the tap makes
  /// them, by ``ReadCounting``.)
  @Test(arguments: indexNames.filter { $0 != LinearScanIndex.name })
  func aRangeTapOnCopiesDoesNotReadEveryCopy(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    let place = Point(latitude: 48.85, longitude: 2.35)
    let beside = Point(latitude: 48.85, longitude: 2.35004)  // about 3 m east
    let tap = Tap(at: Point(latitude: 48.85, longitude: 2.35003), zoom: 15)
    var work: [Int] = []
    for copies in [4_096, 65_536] {
      // the copies come first and last, the nearer point in between
      let points = Array(repeating: place, count: copies / 2) + [beside] + Array(repeating: place, count: copies / 2)
      let (hit, counted) = try rangeTap(type, tap, points)
      #expect(hit == tap.nearestByBruteForce(in: points))
      #expect(hit?.id == Int32(copies / 2), "the point beside the copies is nearer")
      work.append(counted.nodesVisited + counted.pointsTested + counted.pointsReported)
      let farther = Array(repeating: place, count: copies)
      #expect(try rangeTap(type, Tap(at: place, zoom: 15), farther).hit?.id == 0, "the earliest copy")
    }
    #expect(work[1] < 2 * work[0], "16 times the copies: \(work)")
    #expect(work[0] < 4_096 / 4, "\(work)")
  }

  /// The k-nearest tap among the points a filter admits: copies of a
  /// place whose earliest points fail are not taken by their earliest, so
  /// the earliest admitted copy wins, and the answer is the brute force's
  /// over the admitted points; admitting every point is the unfiltered tap.
  @Test(arguments: indexNames)
  func aTapAmongAdmittedPointsTakesTheEarliestAdmittedCopy(indexName: String) throws {
    struct From: TapCandidates {
      let first: Int32
      func admits(_ id: Int32) -> Bool { id >= first }
      var admitsEvery: Bool { false }
    }
    let type = try #require(indexType(named: indexName))
    let place = Point(latitude: 48.85, longitude: 2.35)
    let far = Point(latitude: 48.85, longitude: 2.3501)
    let points = Array(repeating: place, count: 300) + [far] + Array(repeating: place, count: 20)
    let tap = Tap(at: place, zoom: 15)
    for first in [Int32(0), 150, 299, 300, 301, 321] {
      let hit = try admittedTap(type, tap, points, From(first: first))
      let admitted = points.indices.filter { Int32($0) >= first }
      let expected = tap.nearestByBruteForce(in: admitted.map { points[$0] }).map {
        TapHit(id: Int32(admitted[Int($0.id)]), distance: $0.distance)
      }
      #expect(hit == expected, "from \(first)")
    }
    #expect(try admittedTap(type, tap, points, EveryPoint())?.id == 0)
  }

  private func admittedTap<I: DescribedIndex, P: TapCandidates>(
    _ type: I.Type, _ tap: Tap, _ points: [Point], _ candidates: P
  ) throws -> TapHit? {
    let index = try I(points: points)
    var buffer = NearestBuffer(), counters = NoCounters()
    return index.nearestByNeighbours(to: tap, points: points, buffer: &buffer, counters: &counters, candidates: candidates)
  }

  private func rangeTap<I: DescribedIndex>(
    _ type: I.Type, _ tap: Tap, _ points: [Point]
  ) throws -> (hit: TapHit?, counted: WorkCounters) {
    let index = ReadCounting(base: try I(points: points))
    var buffer = NearestBuffer(), counters = WorkCounters()
    let hit = index.nearestByRangeQuery(to: tap, points: points, buffer: &buffer, counters: &counters)
    return (hit, counters)
  }

  @Test func nothingInRangeIsNil() throws {
    // 23 map points east of the centre: just outside the 22-point radius
    let points = [Point(x: 23 * 360 / 256, y: 0), Point(x: 0, y: 40)]
    let tap = Tap(x: world.width / 2, y: world.height / 2, in: world)
    #expect(try KDTreeIndex(points: points).nearestByRangeQuery(to: tap, points: points) == nil)
    #expect(try LinearScanIndex(points: points).nearestByRangeQuery(to: tap, points: points) == nil)
    #expect(tap.nearestByBruteForce(in: points) == nil)
    // with 21 points it is found
    let near = [Point(x: 21 * 360 / 256, y: 0)]
    #expect(try KDTreeIndex(points: near).nearestByRangeQuery(to: tap, points: near)?.id == 0)
  }

  @Test func findsAPointAcrossTheAntimeridian() throws {
    let v = Viewport(center: Point(x: 179.99, y: 10), zoom: 12)
    let s = WebMercator.scale(zoom: 12), b = v.mapBounds
    let points = [Point(x: -179.999, y: 10), Point(x: 170, y: 10)]
    // a tap at 179.9995° is 0.0015° (≈ 17.5 points at zoom 12) from the point at
    // -179.999°, across the antimeridian; the point at 170° is far away
    let tapX = WebMercator.x(longitude: 179.9995) * s - b.minX
    let tapY = WebMercator.y(latitude: 10) * s - b.minY
    let tap = Tap(x: tapX, y: tapY, in: v)
    let kd = try KDTreeIndex(points: points)
    let hit = kd.nearestByRangeQuery(to: tap, points: points)
    #expect(hit?.id == 0)
    #expect(abs((hit?.distance ?? 0) - 0.0015 / 360 * WebMercator.worldSize(zoom: 12)) < 1e-6)
    #expect(tap.nearestByBruteForce(in: points) == hit)
    // and from the other side
    let v2 = Viewport(center: Point(x: -179.99, y: 10), zoom: 12)
    let points2 = [Point(x: 179.999, y: 10)]
    let b2 = v2.mapBounds
    let tap2 = Tap(x: WebMercator.x(longitude: -179.9995) * s - b2.minX, y: tapY, in: v2)
    #expect(try KDTreeIndex(points: points2).nearestByRangeQuery(to: tap2, points: points2)?.id == 0)
  }
}

/// An index that counts, as points tested, the ids its range queries hand
/// to the caller, one by one; its k-nearest search counts as the base's.
private struct ReadCounting<Base: SpatialIndex>: SpatialIndex {
  let base: Base

  init(base: Base) { self.base = base }

  init(points: [Point], parameters: Base.Parameters) throws(IndexError) {
    base = try Base(points: points, parameters: parameters)
  }

  var count: Int { base.count }

  @discardableResult
  func forEach<C: QueryCounters>(in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool) -> Bool {
    var none = NoCounters(), read = 0
    defer { counters.testPoints(read) }
    return base.forEach(in: rect, counters: &none) { id in
      read += 1
      return visit(id)
    }
  }

  func query<C: QueryCounters>(in rect: Rect, into ids: inout [Int32], counters: inout C) {
    ids.removeAll(keepingCapacity: true)
    forEach(in: rect, counters: &counters) { ids.append($0); return true }
  }

  func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int {
    var n = 0
    forEach(in: rect, counters: &counters) { _ in n += 1; return true }
    return n
  }

  func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double, into buffer: inout NearestBuffer, counters: inout C
  ) {
    base.nearest(to: position, k: k, maxDistance: maxDistance, into: &buffer, counters: &counters)
  }
}
