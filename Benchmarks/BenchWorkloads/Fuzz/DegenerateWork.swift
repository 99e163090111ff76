import MapClustering
import SpatialIndexes

/// The work of a search over identical points, which a fuzz case is too
/// small to show as time: a k = 1 search, or a tap, over a thousand
/// duplicates takes microseconds even where it costs O(n²).
///
/// Each index (but the linear scan, a scan by design) answers a k = 1
/// search and a tap by each strategy from a position on, beside (across the
/// antimeridian) and far from `n` identical points, at two sizes 16 times
/// apart. The work is counted, deterministically: nodes visited, points
/// tested and points reported (a tap by range queries looks at every point
/// reported). A count that grows faster than the search promises fails:
/// - every index but the linear scan hands a run of copies over in id
///   order (the trees by their layout, the grid a crowded cell sorted, the
///   quadtree a crowded leaf at its depth cap sorted), so its k-nearest
///   search, and a tap through it, cost O(k + log n): growth within
///   ``logarithmicLimit``;
/// - a tap by range queries reads copies side by side and turns to
///   k-nearest after ``Tap/copiesInARow`` of them, but an index counts a
///   subtree or cell it hands over whole even when the reader stops early:
///   its counters grow O(n) and must stay within ``linearLimit`` (the
///   stall this guards against was quadratic). TapTests counts the reads;
/// - clustering by `aggregate` adds a run of copies whole (a tree's leaf,
///   the grid's and the cell tree's sorted runs), so the nodes it visits and
///   the points it tests over a phone's view at each of ``clusterZooms``
///   grow within ``logarithmicLimit``. Every copy is still reported (added
///   to its cell), so that count is left out.
public enum DegenerateWork {
  /// The two sizes compared.
  public static let sizes = (small: 1 << 10, large: 1 << 14)
  /// The zooms of the clustering search: every zoom a map shows, since
  /// whether the cells of a zoom cut the copies' place depends on the zoom.
  public static let clusterZooms = Array(0...20)
  /// Growth allowed to a search that costs O(k + log n): log n grows 1.4×.
  public static let logarithmicLimit = 4.0
  /// Growth allowed to a search that reads each copy once: n grows 16×.
  public static let linearLimit = 20.0
  /// The indexes whose k-nearest search takes runs of copies whole: every
  /// index of the catalogue but the linear scan, so a new index is held to
  /// the bound from its registry line on.
  public static var runIndexes: Set<String> {
    Set(allIndexTypes.map { $0.name }).subtracting([LinearScanIndex.name])
  }

  /// The growth a search may show on index `name`: `logarithmic` names
  /// the indexes whose k-nearest search promises O(k + log n).
  public static func growthLimit(
    index name: String, workload: String, variant: String, logarithmic: Set<String> = runIndexes
  ) -> Double {
    let throughNearest = workload == NearestWorkload.name || variant == "nearest"
    let wholeRuns = workload == ClusterWorkload.name
    return logarithmic.contains(name) && (throughNearest || wholeRuns) ? logarithmicLimit : linearLimit
  }

  /// Where the identical points lie, and where the search is made from.
  public static let probes: [(points: Point, from: Point)] = [
    (Point(latitude: 48.85, longitude: 2.35), Point(latitude: 48.85, longitude: 2.35)),
    (Point(latitude: 60, longitude: -180), Point(latitude: 60, longitude: HostileSpots.besideAntimeridian)),
    (Point(latitude: 48.85, longitude: 2.35), Point(latitude: -40, longitude: -110)),
  ]

  /// The searches whose work grows too fast, one failure each (its worst
  /// probe), of the indexes `check` checks.
  public static func failures(_ check: FuzzCheck, logarithmic: Set<String> = runIndexes) -> [FuzzFailure] {
    var failures: [FuzzFailure] = []
    for name in check.indexes where name != LinearScanIndex.name {
      var op = Measure()
      guard let counts = try? check.withIndex(named: name, &op) else { continue }
      for (search, perProbe) in counts {
        let (workload, variant) = search
        let limit = growthLimit(index: name, workload: workload, variant: variant, logarithmic: logarithmic)
        guard let worst = perProbe.max(by: { growth($0) < growth($1) }), growth(worst) > limit else { continue }
        failures.append(FuzzFailure(
          .init(kind: .work, index: name, workload: workload, variant: variant), step: 0,
          detail: "\(sizes.small) identical points at \(worst.probe.points), from \(worst.probe.from): "
            + "work \(worst.small); \(sizes.large) points: \(worst.large) (×\(rounded(growth(worst))))"))
      }
    }
    return failures
  }

  typealias Count = (probe: (points: Point, from: Point), small: Int, large: Int)

  static func growth(_ c: Count) -> Double { Double(c.large) / Double(max(1, c.small)) }

  static func rounded(_ v: Double) -> Double { (v * 10).rounded() / 10 }

  /// Per search (workload, variant), the work at both sizes for each probe.
  struct Measure: IndexTypeOperation {
    func run<I: DescribedIndex>(_ type: I.Type) throws -> [((String, String), [Count])] {
      var result: [((String, String), [Count])] = [
        ((NearestWorkload.name, "k=1"), []), ((TapWorkload.name, "range"), []), ((TapWorkload.name, "nearest"), []),
        ((ClusterWorkload.name, ClusterStrategy.aggregate.rawValue), []),
      ]
      for probe in probes {
        let small = try work(I.self, probe, sizes.small), large = try work(I.self, probe, sizes.large)
        for s in result.indices { result[s].1.append((probe, small[s], large[s])) }
      }
      return result
    }

    /// The work of each search over `n` points at the probe's place.
    func work<I: DescribedIndex>(_ type: I.Type, _ probe: (points: Point, from: Point), _ n: Int) throws -> [Int] {
      let points = Array(repeating: probe.points, count: n)
      let index = try I(points: points)
      var buffer = NearestBuffer()
      var nearest = WorkCounters(), range = WorkCounters(), neighbours = WorkCounters()
      index.nearest(to: probe.from, k: 1, maxDistance: .infinity, into: &buffer, counters: &nearest)
      let tap = Tap(at: probe.from, zoom: 15)
      _ = index.nearestByRangeQuery(to: tap, points: points, buffer: &buffer, counters: &range)
      _ = index.nearestByNeighbours(to: tap, points: points, buffer: &buffer, counters: &neighbours)
      var clustering = WorkCounters()
      var clusterer = try Clusterer(index: index, points: points)
      var markers: [ClusterMarker] = []
      for zoom in clusterZooms {
        clusterer.cluster(Viewport(center: probe.from, zoom: zoom), strategy: .aggregate, into: &markers, counters: &clustering)
      }
      return [nearest, range, neighbours].map { $0.nodesVisited + $0.pointsTested + $0.pointsReported }
        + [clustering.nodesVisited + clustering.pointsTested]
    }
  }
}
