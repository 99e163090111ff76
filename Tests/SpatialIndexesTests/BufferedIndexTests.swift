import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport

/// ``BufferedIndex``: what the model check does not see: rebuilds happen
/// where the moves say, in the background, and nearest stays exact.
@Suite struct BufferedIndexTests {
  static let points = Fixtures.clustered(4000, blobs: 8, seed: 31)
    + [Point(x: 180, y: 0), Point(x: -180, y: 0), Point(x: 0, y: 90), Point(x: 0, y: -90)]

  /// Moves every point a little, `rounds` times, on the buffered index and
  /// on a linear scan; `check` runs after each round.
  func moveAll(
    _ index: inout BufferedIndex<KDTreeIndex>, _ reference: inout LinearScanIndex, _ positions: inout [Point],
    rounds: Int, seed: UInt64, check: (BufferedIndex<KDTreeIndex>, LinearScanIndex, [Point]) -> Void
  ) throws {
    var g = SplitMix64(seed: seed)
    for _ in 0..<rounds {
      for _ in 0..<200 {
        let id = Int32(g.nextInt(below: positions.count))
        let from = positions[Int(id)]
        let to = Point(x: min(180, max(-180, from.x + g.nextDouble(in: -0.5, 0.5))), y: min(90, max(-90, from.y + g.nextDouble(in: -0.5, 0.5))))
        #expect(try index.move(id: id, from: from, to: to))
        #expect(try reference.move(id: id, from: from, to: to))
        positions[Int(id)] = to
      }
      check(index, reference, positions)
    }
  }

  @Test func rebuildsComeAtTheSameMovesEveryTime() throws {
    var counts: [[Int]] = []
    for _ in 0..<2 {
      var index = try BufferedIndex<KDTreeIndex>(
        points: Self.points, parameters: BufferedParameters(base: .init(), rebuildShare: 0.1))
      var reference = try LinearScanIndex(points: Self.points)
      var positions = Self.points
      var seen: [Int] = []
      try moveAll(&index, &reference, &positions, rounds: 20, seed: 5) { index, _, _ in
        seen.append(index.rebuilds * 100_000 + index.bufferedCount)
      }
      counts.append(seen)
    }
    #expect(counts[0] == counts[1])
    // 200 moves a round, a trigger at 400 buffered: about one install every two rounds
    #expect((counts[0].last ?? 0) / 100_000 >= 5, "\(counts[0])")
  }

  @Test func queriesAndNearestMatchTheLinearScanWhileBuildsRun() throws {
    var index = try BufferedIndex<KDTreeIndex>(
      points: Self.points, parameters: BufferedParameters(base: .init(), rebuildShare: 0.02))
    var reference = try LinearScanIndex(points: Self.points)
    var positions = Self.points
    var checked = 0
    try moveAll(&index, &reference, &positions, rounds: 12, seed: 6) { index, reference, positions in
      let queries = QueryFixtures.queries(for: positions, count: 20, seed: UInt64(checked))
      for q in queries + [.world] {
        #expect(index.ids(in: q).sorted() == reference.ids(in: q).sorted(), "\(q)")
      }
      var got: [Neighbor] = [], expected: [Neighbor] = []
      for (i, p) in positions.prefix(30).enumerated() {
        for k in [1, 10, 100] {
          index.nearest(to: p, k: k, into: &got)
          reference.nearest(to: p, k: k, into: &expected)
          #expect(got == expected, "point \(i), k \(k)")
        }
      }
      checked += 1
    }
    #expect(checked == 12 && index.rebuilds > 0)
    index.finishRebuild()
    #expect(index.bufferedCount < 200 * 12)
    let broken = index._invariantViolations()
    #expect(broken.isEmpty, "\(broken)")
  }

  @Test func badSharesAreRefused() {
    for share in [0, -0.1, 1.5, .nan, .infinity] {
      #expect(throws: IndexError.self, "\(share)") {
        _ = try BufferedIndex<KDTreeIndex>(points: Self.points, parameters: BufferedParameters(base: .init(), rebuildShare: share))
      }
    }
    var p = BufferedParameters<KDTreeIndex.Parameters>()
    #expect(throws: IndexError.self) { try p.set("rebuildShare", to: "2") }
    #expect(throws: IndexError.self) { try p.set("nodeSize", to: "0") }
    #expect(throws: IndexError.self) { try p.set("nothing", to: "1") }
    #expect(p.rebuildShare == 0.05, "a refused value changes nothing")
  }

  @Test func aCopyTakenDuringABuildFinishesOnItsOwn() throws {
    var index = try BufferedIndex<KDTreeIndex>(
      points: Self.points, parameters: BufferedParameters(base: .init(), rebuildShare: 0.01))
    var positions = Self.points
    for id in Int32(0)..<Int32(60) {  // past the trigger: a build is in flight
      let to = Point(x: positions[Int(id)].x, y: positions[Int(id)].y * 0.5)
      #expect(try index.move(id: id, from: positions[Int(id)], to: to))
      positions[Int(id)] = to
    }
    var copy = index
    index.finishRebuild()
    copy.finishRebuild()  // waits on the same build, does not hang
    #expect(index.rebuilds == copy.rebuilds && index.rebuilds >= 1)
    #expect(index.ids(in: .world).sorted() == copy.ids(in: .world).sorted())
  }
}
