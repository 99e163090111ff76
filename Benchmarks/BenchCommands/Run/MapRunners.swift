import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// The cluster workload: each step clusters one viewport of the session into
/// markers with one strategy, then diffs them against the previous step's, as
/// the original did on the main thread.
struct ClusterRunner<I: SpatialIndex>: StepRunner {
  var clusterer: Clusterer<I>
  let viewports: [Viewport]
  let strategy: ClusterStrategy
  var markers: [ClusterMarker] = []
  var diff = MarkerDiff()
  /// Markers added plus removed since step 0 last ran: one pass's churn
  /// (a step repeated in a timing batch diffs against itself and adds 0).
  var markerChurn = 0

  init(index: I, points: [Point], viewports: [Viewport], strategy: String, table: ClusterCellTable) {
    clusterer = Clusterer(index: index, points: points, cellTable: table)
    self.viewports = viewports
    self.strategy = ClusterStrategy(rawValue: strategy)!
  }

  var stepCount: Int { viewports.count }

  mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepResult {
    if step == 0 {
      diff.reset()
      markerChurn = 0
    }
    clusterer.cluster(viewports[step], strategy: strategy, into: &markers, counters: &counters)
    diff.update(with: markers)
    markerChurn &+= diff.added.count &+ diff.removed.count
    var digest: UInt64 = 0
    for m in markers { digest = digest &* 0x100_0000_01B3 &+ markerHash(m) }
    return StepResult(digest: digest, count: markers.count)
  }

  var churn: Int? { markerChurn }

  mutating func canonicalAnswer(step: Int) -> [Int64] {
    var none = NoCounters()
    _ = run(step: step, counters: &none)
    return markers.flatMap { m in
      [Int64(m.key.zoom), Int64(m.key.column), Int64(m.key.row), Int64(m.key.count),
       Int64(bitPattern: m.coordinate.x.bitPattern), Int64(bitPattern: m.coordinate.y.bitPattern),
       Int64(m.id ?? -1)]
    }
  }

  private func markerHash(_ m: ClusterMarker) -> UInt64 {
    var h = mix64(UInt64(bitPattern: Int64(m.key.column)) &+ UInt64(m.key.zoom) << 58)
    h = mix64(h ^ UInt64(bitPattern: Int64(m.key.row)))
    h = mix64(h ^ UInt64(m.key.count))
    h = mix64(h ^ m.coordinate.x.bitPattern)
    h = mix64(h ^ m.coordinate.y.bitPattern)
    return mix64(h ^ UInt64(bitPattern: Int64(m.id ?? -1)))
  }
}

/// The tap workload: each step finds the nearest point within the touch
/// target of one tap, through the index's range queries.
struct TapRunner<I: SpatialIndex>: StepRunner {
  let index: I
  let points: [Point]
  let taps: [Tap]

  var stepCount: Int { taps.count }

  mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepResult {
    let hit = index.nearestByRangeQuery(to: taps[step], points: points, counters: &counters)
    return StepResult(digest: mix64(UInt64(bitPattern: Int64(hit?.id ?? -1))), count: hit == nil ? 0 : 1)
  }

  mutating func canonicalAnswer(step: Int) -> [Int64] {
    [Int64(index.nearestByRangeQuery(to: taps[step], points: points)?.id ?? -1)]
  }
}
