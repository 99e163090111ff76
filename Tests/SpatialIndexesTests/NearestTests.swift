import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport

/// k-nearest by great-circle distance, as a specification: every index of
/// the catalogue gives exactly what ranking every point gives (ties by the
/// smaller id), on every standard fixture, at positions on the antimeridian
/// and the poles, for k = 0, 1, 10, 100 and more than n, with and without a
/// maximum distance (0 included).
@Suite struct NearestTests {
  /// Every point ranked by (distance, id).
  static func ranking(_ points: [Point], _ position: Point) -> [Neighbor] {
    points.enumerated()
      .map { Neighbor(id: Int32($0.offset), distance: GreatCircle.distance(position, $0.element)) }
      .sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
  }

  /// The first `k` of a ranking within `maxDistance`.
  static func reference(_ ranked: [Neighbor], k: Int, maxDistance: Double) -> [Neighbor] {
    Array(ranked.prefix { $0.distance <= maxDistance }.prefix(max(0, k)))
  }

  static func positions(for points: [Point], seed: UInt64) -> [Point] {
    var g = SplitMix64(seed: seed)
    var result = [Point(x: 180, y: 0), Point(x: -180, y: 0.5), Point(x: 179.9, y: -30), Point(x: 0, y: 90),
                  Point(x: 45, y: -90), Point(x: 10, y: 89.99), Point(x: 0, y: 0)]
    for _ in 0..<12 { result.append(Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -90, 90))) }
    for _ in 0..<6 where !points.isEmpty { result.append(points[g.nextInt(below: points.count)]) }
    return result
  }

  @Test(arguments: allIndexTypes.map { $0.name })
  func everyIndexRanksAsTheReference(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try check(type)
  }

  private func check<I: DescribedIndex>(_ type: I.Type) throws {
    var results: [Neighbor] = []
    var cases = 0
    for fixture in Fixtures.standard() {
      let index = try I(points: fixture.points)
      for (p, position) in Self.positions(for: fixture.points, seed: UInt64(fixture.points.count)).enumerated() {
        let ranked = Self.ranking(fixture.points, position)
        for k in [0, 1, 10, 100, fixture.points.count + 5] {
          for maxDistance in [Double.infinity, 0, 1_000_000, 50] {
            index.nearest(to: position, k: k, maxDistance: maxDistance, into: &results)
            let expected = Self.reference(ranked, k: k, maxDistance: maxDistance)
            #expect(results == expected,
                    "\(I.name) \(fixture) position \(p) \(position) k \(k) max \(maxDistance): \(results.prefix(3)) vs \(expected.prefix(3))")
            cases += 1
          }
        }
      }
    }
    #expect(cases > 1000)
  }

  /// Within a metre of the position, where rounding the coordinates' gaps
  /// is no longer small beside the gaps: points micrometres to a metre
  /// away, many at the same distance (mirrored around the position) and
  /// duplicates, so that ties by id decide. Every index ranks them as the
  /// reference does.
  @Test(arguments: allIndexTypes.map { $0.name })
  func nearTiesWithinAMetreRankAsTheReference(indexName: String) throws {
    let type = try #require(indexType(named: indexName))
    try checkNearTies(type)
  }

  private func checkNearTies<I: DescribedIndex>(_ type: I.Type) throws {
    var g = SplitMix64(seed: 2026)
    var results: [Neighbor] = []
    for center in [Point(x: 2.3522, y: 48.8566), Point(x: 179.9999999, y: -33.9), Point(x: -45, y: 89.9999)] {
      var points: [Point] = []
      for _ in 0..<300 {
        let step = [1e-11, 1e-9, 1e-7, 1e-5][g.nextInt(below: 4)]
        let dx = Double(g.nextInt(below: 9) - 4) * step, dy = Double(g.nextInt(below: 9) - 4) * step
        for (sx, sy) in [(1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
          var x = center.x + sx * dx
          if x > 180 { x -= 360 }
          points.append(Point(x: x, y: min(90, center.y + sy * dy)))
        }
      }
      points += Array(repeating: center, count: 20)
      let index = try I(points: points)
      let ranked = Self.ranking(points, center)
      for k in [1, 10, 100, 500] {
        index.nearest(to: center, k: k, maxDistance: .infinity, into: &results)
        let expected = Self.reference(ranked, k: k, maxDistance: .infinity)
        #expect(results == expected, "\(I.name) at \(center) k \(k): \(results.prefix(3)) vs \(expected.prefix(3))")
      }
    }
  }

  /// The neighbours' sort: by distance, ties by the smaller id (negative
  /// ids too), whatever the spread of distances: even, all equal (one
  /// crowded bucket), a few far ones, or distances so small their squares
  /// underflow.
  @Test func theSortRanksByDistanceThenID() {
    var g = SplitMix64(seed: 9)
    var buffer = NearestBuffer()
    for count in [0, 1, 2, 16, 17, 100, 1000] {
      for shape in 0..<5 {
        let neighbors: [Neighbor] = (0..<count).map { _ in
          let distance: Double = switch shape {
          case 0: g.nextDouble(in: 0, 1).squareRoot() * 5_000
          case 1: 42
          case 2: g.nextInt(below: 10) == 0 ? 1e7 : g.nextDouble(in: 0, 10)
          case 3: Double(g.nextInt(below: 4)) * 1e-200
          default: Double(g.nextInt(below: 5))
          }
          return Neighbor(id: Int32(g.nextInt(below: 2000)) - 1000, distance: distance)
        }
        buffer.neighbors = neighbors
        buffer.sortNeighbors()
        let expected = neighbors.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
        #expect(buffer.neighbors == expected, "count \(count), shape \(shape)")
      }
    }
  }

  /// The grid's rings, dense and sparse, small cells (many rings: the
  /// fallback to range queries) and large, and after inserts beyond the
  /// bounds it was built over (held by its edge cells) and a removal.
  @Test(arguments: [GridHashIndex.Storage.dense, .sparse])
  func theGridsRingsAgreeWhateverItsCells(storage: GridHashIndex.Storage) throws {
    let base = Fixtures.clustered(1500, seed: 12) + Fixtures.identical(20)
    for cellSize in [0.05, 2.0, 40.0] {
      var grid = try GridHashIndex(points: base, parameters: .init(cellSize: cellSize, storage: storage))
      var points = base
      var removed: Set<Int32> = []
      var results: [Neighbor] = []
      func check(_ label: String) {
        for position in Self.positions(for: base, seed: UInt64(cellSize * 100)) {
          let ranked = Self.ranking(points, position).filter { !removed.contains($0.id) }
          for k in [1, 10, 60] {
            grid.nearest(to: position, k: k, into: &results)
            let expected = Self.reference(ranked, k: k, maxDistance: .infinity)
            #expect(results == expected, "\(label) cell \(cellSize) \(position) k \(k): \(results.prefix(2)) vs \(expected.prefix(2))")
          }
        }
      }
      check("built")
      for p in [Point(x: 179.99, y: 89.99), Point(x: -179.99, y: -89.99), Point(x: 0, y: 89.999)] {
        _ = try grid.insert(p)
        points.append(p)
      }
      let wasHeld = grid.remove(id: 3, at: points[3])
      #expect(wasHeld)
      removed.insert(3)
      check("changed")
    }
  }

  /// The trees search best first, the grid by rings: neither reports
  /// points through range queries (the default's way, which counts them
  /// as reported), and on 20,000 points each opens a few nodes or cells.
  @Test func theTreesAndTheGridHaveSearchesOfTheirOwn() throws {
    let points = Fixtures.uniform(20_000, seed: 8)
    func work<I: DescribedIndex>(_ index: I) -> WorkCounters {
      var buffer = NearestBuffer(), counters = WorkCounters()
      index.nearest(to: Point(x: 10, y: 45), k: 10, maxDistance: .infinity, into: &buffer,
                    counters: &counters)
      return counters
    }
    for counters in [work(try KDTreeIndex(points: points)), work(try HilbertRTree(points: points)),
                     work(try GridHashIndex(points: points))] {
      #expect(counters.pointsReported == 0, "\(counters)")
      #expect(counters.nodesVisited > 0 && counters.nodesVisited < 60, "\(counters)")
    }
    #expect(work(try LinearScanIndex(points: points)).pointsReported > 0, "the default goes through range queries")
  }

  /// A leaf's points of smallest bound go first: the selection behind that
  /// finds the value of every rank, duplicates and sorted runs included.
  @Test func theSelectionFindsEveryRank() {
    var g = SplitMix64(seed: 64)
    for count in [1, 2, 9, 10, 17, 33, 64] {
      for shape in 0..<4 {
        let values: [Double] = (0..<count).map { i in
          switch shape {
          case 0: g.nextDouble(in: 0, 1)
          case 1: Double(g.nextInt(below: 3))  // mostly ties
          case 2: Double(i)  // sorted
          default: Double(count - i)  // reversed
          }
        }
        let sorted = values.sorted()
        for rank in 0..<count {
          var scratch = values
          let found = scratch.withUnsafeMutableBufferPointer {
            _smallest(rank: rank, of: $0.baseAddress!, count: count)
          }
          #expect(found == sorted[rank], "count \(count), shape \(shape), rank \(rank)")
          #expect(scratch.sorted() == sorted, "a permutation")
        }
      }
    }
  }

  @Test func distancesOnTheSphere() {
    let degree = GreatCircle.earthRadius * .pi / 180
    #expect(abs(GreatCircle.distance(Point(x: 0, y: 0), Point(x: 0, y: 1)) - degree) < 1e-6)
    #expect(abs(GreatCircle.distance(Point(x: 179.5, y: 0), Point(x: -179.5, y: 0)) - degree) < 1e-6)
    #expect(abs(GreatCircle.distance(Point(x: 0, y: 0), Point(x: 180, y: 0)) - .pi * GreatCircle.earthRadius) < 1e-6)
    #expect(GreatCircle.distance(Point(x: 0, y: 90), Point(x: 123, y: 90)) < 1e-6)  // one pole
    #expect(GreatCircle.distance(Point(x: 2.35, y: 48.85), Point(x: 2.35, y: 48.85)) == 0)
  }

  /// The boxes hold every point within the radius: random centres (poles and
  /// the antimeridian included), radii from metres to half the world.
  @Test func theBoxesHoldTheCircle() {
    var g = SplitMix64(seed: 77)
    var checked = 0
    for _ in 0..<400 {
      let center = Point(x: g.nextDouble(in: -180, 180), y: [g.nextDouble(in: -90, 90), 89.9, -89.9, 0][g.nextInt(below: 4)])
      let radius = [10.0, 5_000, 300_000, 3_000_000, 15_000_000][g.nextInt(below: 5)]
      let (a, b) = GreatCircle.boxes(around: center, radius: radius)
      for _ in 0..<200 {
        let p = Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -90, 90))
        // and points near the centre, where small radii are tested at all
        let q = Point(x: min(180, max(-180, center.x + g.nextDouble(in: -0.01, 0.01))),
                      y: min(90, max(-90, center.y + g.nextDouble(in: -0.01, 0.01))))
        for point in [p, q] where GreatCircle.distance(center, point) <= radius {
          #expect(a.contains(point) || (b?.contains(point) ?? false), "\(center) r \(radius): \(point) outside \(a) \(String(describing: b))")
          checked += 1
        }
      }
    }
    #expect(checked > 10_000)
  }

  @Test func oddPositionsFindNothingOrAreNormalised() throws {
    let points = [Point(x: 10, y: 10), Point(x: -170, y: 10)]
    let index = try KDTreeIndex(points: points)
    var results: [Neighbor] = []
    index.nearest(to: Point(x: .nan, y: 0), k: 1, into: &results)
    #expect(results.isEmpty)
    index.nearest(to: Point(x: .infinity, y: 0), k: 1, into: &results)
    #expect(results.isEmpty)
    index.nearest(to: Point(x: 0, y: 0), k: 1, maxDistance: -1, into: &results)
    #expect(results.isEmpty)
    index.nearest(to: Point(x: 370, y: 10), k: 1, into: &results)  // 10°E
    #expect(results.map(\.id) == [0])
    index.nearest(to: Point(x: 190, y: 10), k: 1, into: &results)  // 170°W
    #expect(results.map(\.id) == [1])
    index.nearest(to: Point(x: 10, y: 200), k: 2, into: &results)  // the north pole
    #expect(results.map(\.id) == [0, 1])
  }
}
