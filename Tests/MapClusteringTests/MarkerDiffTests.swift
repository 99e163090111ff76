import SpatialIndexes
import Testing
import _SpatialTestSupport
import MapClustering
import _SeededRandom

@Suite struct MarkerDiffTests {
  func marker(_ z: Int, _ col: Int, _ row: Int, _ n: Int, at x: Double = 0) -> ClusterMarker {
    ClusterMarker(key: MarkerKey(zoom: z, column: col, row: row, count: n),
                  coordinate: Point(x: x, y: 0), id: n == 1 ? 7 : nil)
  }

  @Test func handMadeSteps() {
    var diff = MarkerDiff()
    let a = marker(5, 1, 1, 3), b = marker(5, 2, 1, 1)
    diff.update(with: [a, b])
    #expect(diff.added == [a, b])
    #expect(diff.removed.isEmpty && diff.kept.isEmpty)
    #expect(diff.churn == 2)

    // a stays (new position, same key); b's count changes; c appears
    let a2 = marker(5, 1, 1, 3, at: 1), b2 = marker(5, 2, 1, 2), c = marker(5, 0, 2, 4)
    diff.update(with: [a2, b2, c])
    #expect(diff.kept == [a2])
    #expect(diff.added == [b2, c])
    #expect(diff.removed == [b])
    #expect(diff.churn == 3)

    // the same step again: nothing changes
    diff.update(with: [a2, b2, c])
    #expect(diff.kept.count == 3 && diff.churn == 0)

    // zooming in: every marker is new
    let d = marker(6, 2, 2, 3)
    diff.update(with: [d])
    #expect(diff.kept.isEmpty)
    #expect(diff.added == [d])
    #expect(diff.removed == [a2, b2, c])
    #expect(diff.churn == 4)

    diff.update(with: [])
    #expect(diff.removed == [d] && diff.added.isEmpty && diff.churn == 1)
  }

  @Test func orderOfTheInputDoesNotMatter() {
    let step1 = [marker(3, 0, 0, 2), marker(3, 1, 0, 5), marker(3, 0, 1, 1), marker(3, 4, 1, 9)]
    let step2 = [marker(3, 4, 1, 9), marker(3, 2, 2, 2), marker(3, 0, 0, 3), marker(3, 0, 1, 1)]
    var sorted = MarkerDiff(), shuffled = MarkerDiff()
    sorted.update(with: step1.sorted { $0.key < $1.key })
    sorted.update(with: step2.sorted { $0.key < $1.key })
    shuffled.update(with: step1.reversed())
    shuffled.update(with: step2)
    #expect(sorted.kept == shuffled.kept)
    #expect(sorted.added == shuffled.added)
    #expect(sorted.removed == shuffled.removed)
    #expect(sorted.kept.map(\.key) == [marker(3, 0, 1, 1).key, marker(3, 4, 1, 9).key])
    #expect(sorted.churn == 4)
  }

  @Test func resetForgetsThePreviousStep() {
    var diff = MarkerDiff()
    diff.update(with: [marker(1, 0, 0, 2)])
    diff.reset()
    diff.update(with: [marker(1, 0, 0, 2)])
    #expect(diff.added.count == 1 && diff.kept.isEmpty && diff.removed.isEmpty)
  }

  /// Panning through clustered data: the diff agrees with set arithmetic on keys.
  @Test func panningAgreesWithSets() throws {
    let points = Fixtures.clustered(20_000, seed: 60)
    var clusterer = try Clusterer<KDTreeIndex>(points: points)
    var markers: [ClusterMarker] = []
    var diff = MarkerDiff()
    var previous: Set<MarkerKey> = []
    var center = points[0]
    var g = SplitMix64(seed: 61)
    for step in 0..<60 {
      let zoom = 4 + step / 10
      center.x = max(-179, min(179, center.x + g.nextDouble(in: -0.5, 0.5) * 40 / Double(zoom * zoom)))
      clusterer.cluster(Viewport(center: center, zoom: zoom), into: &markers)
      diff.update(with: markers)
      let now = Set(markers.map(\.key))
      #expect(Set(diff.kept.map(\.key)) == now.intersection(previous))
      #expect(Set(diff.added.map(\.key)) == now.subtracting(previous))
      #expect(Set(diff.removed.map(\.key)) == previous.subtracting(now))
      #expect(diff.churn == now.symmetricDifference(previous).count)
      previous = now
    }
  }
}
