import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport

/// k-nearest where bounds cannot tell points apart, as a specification:
/// copies of one place by the thousand, ties across the antimeridian, and
/// points off the map beside it. Every index answers as ranking every
/// point does (ties to the point earlier in the input), and the trees do
/// so in work that does not grow with the number of copies.
@Suite struct NearestDegenerateTests {
  /// `copies` points at one place, with a few others around it.
  static func copies(_ copies: Int, at place: Point, others: Int = 0) -> [Point] {
    var g = SplitMix64(seed: UInt64(copies &+ others))
    var points = [Point](repeating: place, count: copies)
    for _ in 0..<others {
      let p = Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -80, 80))
      points.insert(p, at: g.nextInt(below: points.count + 1))
    }
    return points
  }

  static let paris = Point(x: 2.35, y: 48.85)

  @Test(arguments: allIndexTypes.map { $0.name })
  func copiesOfOnePlaceRankByTheirOrderInTheInput(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try checkCopies(type)
  }

  private func checkCopies<I: DescribedIndex>(_ type: I.Type) throws {
    for points in [Self.copies(3_000, at: Self.paris), Self.copies(3_000, at: Self.paris, others: 200)] {
      let index = try I(points: points)
      // on the copies, beside them, and 9,700 km away
      for position in [Self.paris, Point(x: 2.3501, y: 48.85), Point(x: 120, y: -20)] {
        let ranked = NearestTests.ranking(points, position)
        for k in [1, 10, 100, points.count + 1] {
          var found: [Neighbor] = []
          index.nearest(to: position, k: k, into: &found)
          let expected = NearestTests.reference(ranked, k: k, maxDistance: .infinity)
          #expect(found == expected, "\(I.name) at \(position), k \(k): \(found.prefix(3)) vs \(expected.prefix(3))")
        }
      }
    }
  }

  /// The work of one search over `n` copies of one place: O(k + log n) on
  /// the trees, so 100 times the copies may cost a few nodes more, not
  /// 100 times the work. The grid keeps a crowded cell sorted, and the
  /// quadtree a crowded leaf at its depth cap, so they take a run of
  /// copies whole too.
  @Test(arguments: ["kdtree", "rtree", "celltree", "grid", "quadtree"])
  func searchesAmongCopiesCostKPlusTheDepth(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try checkWork(type)
  }

  private func checkWork<I: DescribedIndex>(_ type: I.Type) throws {
    for k in [1, 10] {
      for position in [Self.paris, Point(x: 120, y: -20)] {
        var work: [Int] = []
        for n in [1_000, 100_000] {
          let points = Self.copies(n, at: Self.paris)
          let index = try I(points: points)
          var buffer = NearestBuffer()
          var counters = WorkCounters()
          index.nearest(to: position, k: k, maxDistance: .infinity, into: &buffer, counters: &counters)
          #expect(buffer.neighbors.map(\.id) == (0..<Int32(k)).map { $0 })
          // a search through range queries reads every point reported
          let w = counters.nodesVisited + counters.pointsTested + counters.pointsReported
          #expect(w <= 4 * k + 64 + Self.copiesAbove(I.self), "\(I.name) k \(k) n \(n): \(counters)")
          work.append(w)
        }
        #expect(work[1] <= work[0] + 16, "\(I.name) k \(k) at \(position): \(work)")
      }
    }
  }

  /// A case `bench fuzz --seed 5` shrank: copies fill a leaf at the depth
  /// cap, so the quadtree walks the circle's boxes itself, and a circle
  /// across the antimeridian has two. A bucket whose box met both was
  /// offered twice, and its point ranked twice.
  @Test func aBucketMeetingBothBoxesOfACircleIsOfferedOnce() throws {
    let points = [Point(x: 142, y: 0)] + Array(repeating: Point(x: 0, y: 0), count: 316)
      + [Point(x: -138, y: 0), Point(x: 0, y: 0)]
    var parameters = BucketQuadtree.Parameters()
    try parameters.set("capacity", to: "1")
    let quadtree = try BucketQuadtree(points: points, parameters: parameters)
    let grid = try GridHashIndex(points: points)
    for index in [quadtree as any DescribedIndex, grid] {
      var found: [Neighbor] = []
      index.nearest(to: Point(x: -180, y: 0), k: 320, maxDistance: 7_566_743, into: &found)
      #expect(found.map(\.id) == [0, 317], "\(type(of: index).name)")
    }
  }

  /// Copies a search reads above the run it takes whole: a quadtree node
  /// keeps the first `capacity` points that reach it, so copies fill a
  /// bucket on every level down to the depth cap.
  static func copiesAbove<I: SpatialIndex>(_ type: I.Type) -> Int {
    I.self == BucketQuadtree.self ? (BucketQuadtree.Parameters().capacity + 1) * BucketQuadtree.maxDepthLimit : 0
  }

  /// Copies at (60, −180), searched from 179.9999999°, 1 cm across the
  /// antimeridian: the earliest copies are the answer on every index (the
  /// R-tree's refined box bound took the gap to −180° rounded otherwise
  /// than its points' and passed them over).
  @Test(arguments: allIndexTypes.map { $0.name })
  func tiesAcrossTheAntimeridianGoToTheEarliestPoint(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try checkAntimeridianTies(type)
  }

  private func checkAntimeridianTies<I: DescribedIndex>(_ type: I.Type) throws {
    var g = SplitMix64(seed: 40)
    var points: [Point] = []
    for i in 0..<2_000 {
      points.append(i % 50 == 7
        ? Point(x: -180, y: 60) : Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -80, 80)))
    }
    let index = try I(points: points)
    for position in [Point(x: 179.9999999, y: 60), Point(x: -179.9999999, y: 60), Point(x: 180, y: 60)] {
      let ranked = NearestTests.ranking(points, position)
      for k in [1, 3, 40, 45] {
        var found: [Neighbor] = []
        index.nearest(to: position, k: k, into: &found)
        #expect(found == NearestTests.reference(ranked, k: k, maxDistance: .infinity),
                "\(I.name) at \(position), k \(k): \(found.prefix(3).map(\.id))")
      }
    }
  }

  /// Points off the map at +180°, searched from 1e-7° west of −180°: the
  /// cell tree keeps them in a k-d tree of its own, and its last range
  /// query took a circle from a distance that had not wrapped the
  /// longitude, 3e-7 shorter than the points' own bound.
  @Test(arguments: allIndexTypes.map { $0.name })
  func neighboursOffTheMapAcrossTheAntimeridian(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try checkOffMap(type)
  }

  private func checkOffMap<I: DescribedIndex>(_ type: I.Type) throws {
    for latitude in [89.0, 85.0511287798066, -88.5] {
      let points = [Point(x: 180, y: latitude)]
      let index = try I(points: points)
      var found: [Neighbor] = []
      index.nearest(to: Point(x: -179.9999999, y: latitude), k: 1, into: &found)
      #expect(found.map(\.id) == [0], "\(I.name) at latitude \(latitude)")
    }
    var g = SplitMix64(seed: 5_000)
    var points: [Point] = []
    for _ in 0..<5_000 {
      let x: Double = g.nextInt(below: 2) == 0 ? 180 : -180
      points.append(Point(x: x, y: g.nextDouble(in: 85, 90) * (g.nextInt(below: 2) == 0 ? 1 : -1)))
    }
    let index = try I(points: points)
    var found: [Neighbor] = []
    var differing = 0
    for _ in 0..<300 {
      let p = points[g.nextInt(below: points.count)]
      let position = Point(x: p.x > 0 ? -179.9999999 : 179.9999999, y: p.y)
      index.nearest(to: position, k: 3, into: &found)
      if found != NearestTests.reference(NearestTests.ranking(points, position), k: 3, maxDistance: .infinity) {
        differing += 1
      }
    }
    #expect(differing == 0, "\(I.name): \(differing) of 300 searches differ")
  }

  /// Cases the differential fuzzer shrank (`bench fuzz`): the grid does not
  /// wrap at the antimeridian, so points at −180° lie at the far end of its
  /// columns from a position at 179.9999999°, a hair away across the line.
  @Test func theGridFindsTiesAndTheMaximumDistanceAcrossTheAntimeridian() throws {
    var one = GridHashIndex.Parameters()
    one.pointsPerCell = 1
    var cases: [(points: [Point], position: Point, k: Int, maxDistance: Double)] = [
      ([Point(x: -180, y: -89.9999999), Point(x: 0, y: 0), Point(x: 179.99999999999997, y: -89.9999999)],
       Point(x: 179.9999999, y: -89.9999999), 1, .infinity),
      ([Point(x: 180, y: 0), Point(x: 0, y: 0), Point(x: -180, y: -85.0511287798066)],
       Point(x: 179.9999999, y: -85.0511287798066), 2, 0.0009592433594720338),
    ]
    var fine = GridHashIndex.Parameters()
    fine.cellSize = 0.01
    let far = [Point(x: -180, y: 68), Point(x: 180, y: 0)], from = Point(x: 179.9999999, y: 68)
    cases.append((far, from, 2, GreatCircle.distance(from, far[0])))
    for c in cases {
      let expected = NearestTests.reference(NearestTests.ranking(c.points, c.position), k: c.k, maxDistance: c.maxDistance)
      #expect(!expected.isEmpty)
      for grid in [try GridHashIndex(points: c.points, parameters: one), try GridHashIndex(points: c.points),
                   try GridHashIndex(points: c.points, parameters: fine)] {
        var found: [Neighbor] = []
        grid.nearest(to: c.position, k: c.k, maxDistance: c.maxDistance, into: &found)
        #expect(found == expected, "\(grid.label) at \(c.position): \(found) vs \(expected)")
      }
    }
  }
}
