import BenchFormats
import MapClustering
import SpatialIndexes

/// One step's answer rows from the server: the six values `a…f` of each
/// (``PostGISQuery``), `nil` for SQL `NULL`.
typealias PeerRows = [[Int64?]]

/// Checks a query's answers against the linear scan's, step by step.
struct PeerChecker {
  let query: PostGISQuery
  let steps: MapSteps
  /// ``Verification/referenceAnswers(_:workloads:)``.
  let reference: [String: Any]
  /// Turns the server's cell totals into markers by this package's rules.
  let clusterer: Clusterer<LinearScanIndex>?
  /// The points, by id: a neighbour's distance by this package's formula.
  let points: [Point]
  /// The scale of each aggregate a cluster row ends with (`g0`…), in order.
  var aggregateScales: [Int] = []

  /// How step `step`'s rows differ from the linear scan's answer, or `nil`
  /// when they agree.
  func difference(step: Int, rows: PeerRows) -> String? {
    switch query {
    case .viewport:
      guard let expected = (reference[ViewportWorkload.name] as? [[Int32]])?[safe: step] else { return "no reference" }
      let want = Self.digest(expected)
      let got: [Int64] = rows.first.map { [$0[0] ?? 0, $0[1] ?? 0, $0[2] ?? 0] } ?? [0, 0, 0]
      if got == want { return nil }
      return "\(got[0]) points, linear scan \(want[0]) (id sums \(got[1]), \(want[1]))"
    case .cluster:
      guard let expected = (reference[ClusterWorkload.name] as? [ClusterAnswer])?[safe: step],
            let clusterer, let area = steps.areas?[safe: step]
      else { return "no reference" }
      let got = ClusterAnswer(markers: markers(rows, area: area, clusterer))
      guard got.markers == expected.markers else { return ClusterWorkload.difference(expected: expected, got: got) }
      return aggregateDifference(rows, got.markers, expected)
    case .tap:
      guard let expected = (reference[TapWorkload.name] as? [Int32?])?[safe: step] else { return "no reference" }
      let got = rows.first.flatMap { $0[0] }.map { Int32(truncatingIfNeeded: $0) }
      return got == expected ? nil : TapWorkload.difference(expected: expected, got: got)
    case .nearest(let k):
      guard let expected = (reference["\(NearestWorkload.name)/k=\(k)"] as? [[Neighbor]])?[safe: step] else {
        return "no reference"
      }
      let got = rows.map { Int32(truncatingIfNeeded: $0[0] ?? -1) }
      let want = expected.map(\.id)
      if got == want { return nil }
      if let position = steps.positions?[safe: step], tiesApart(got, expected, from: position) { return nil }
      guard let rank = zip(got, want).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
        return "\(got.count) neighbours, linear scan \(want.count)"
      }
      return "rank \(rank + 1): id \(got[rank]), linear scan id \(want[rank]) at \(expected[rank].distance) m"
    }
  }

  /// Whether `got` differs from `expected` only in the order of ties: at
  /// each rank the same id, or one at the same distance (by
  /// ``GreatCircle/distance(_:_:)``, to 1e-12 of it). PostGIS computes the
  /// distance its own way, so two points this package finds equally far
  /// (+180° and −180° on one parallel) may differ in its last bits, and
  /// its tie by id then picks the other.
  func tiesApart(_ got: [Int32], _ expected: [Neighbor], from position: Point) -> Bool {
    guard got.count == expected.count, Set(got).count == got.count else { return false }
    for (id, want) in zip(got, expected) where id != want.id {
      guard let p = points[safe: Int(id)] else { return false }
      let d = GreatCircle.distance(position, p)
      guard abs(d - want.distance) <= 1e-12 * max(want.distance, 1) else { return false }
    }
    return true
  }

  /// How the aggregates of a step's rows (after the six totals, units of
  /// each column's scale, `NULL` when no point has a value) differ from the
  /// linear scan's, as the answer file prints them; `nil` when they agree.
  func aggregateDifference(_ rows: PeerRows, _ markers: [ClusterMarker], _ expected: ClusterAnswer) -> String? {
    let width = aggregateScales.count
    guard expected.aggregates.count == markers.count * width else {
      return "\(expected.aggregates.count) aggregates in the linear scan's answer, \(markers.count * width) asked"
    }
    // the markers come in the clusterer's order; the rows by cell
    var byCell: [SIMD2<Int>: [Int64?]] = [:]
    for r in rows { byCell[SIMD2(Int(r[0] ?? 0), Int(r[1] ?? 0))] = Array(r.dropFirst(6)) }
    for (m, marker) in markers.enumerated() {
      let values = byCell[SIMD2(marker.key.column, marker.key.row)] ?? []
      for a in 0..<width {
        let got = (a < values.count ? values[a] : nil).map { DecimalColumn.text($0, scale: aggregateScales[a]) } ?? ""
        let want = expected.aggregates[m * width + a].description
        if got != want { return "marker \(m) aggregate \(a) is \"\(got)\", linear scan \"\(want)\"" }
      }
    }
    return nil
  }

  /// Results the step's answer counts, as a run's `results_total` does:
  /// ids in view, markers, hits, neighbours.
  func results(_ rows: PeerRows) -> Int {
    switch query {
    case .viewport: Int(rows.first?[0] ?? 0)
    case .cluster, .nearest: rows.count
    case .tap: rows.first?[0] == nil ? 0 : 1
    }
  }

  /// The markers of a step's cell totals.
  func markers(_ rows: PeerRows, area: VisibleArea, _ clusterer: Clusterer<LinearScanIndex>) -> [ClusterMarker] {
    clusterer.markers(of: area, totals: rows.map { r in
      var t = CellTotals()
      t.count = Int32(truncatingIfNeeded: r[2] ?? 0)
      t.sumLon = r[3] ?? 0
      t.sumLat = r[4] ?? 0
      t.anyID = Int32(truncatingIfNeeded: r[5] ?? 0)
      return (column: Int(r[0] ?? 0), row: Int(r[1] ?? 0), totals: t)
    })
  }

  /// The viewport's digest of a set of ids, as the SQL computes it: count,
  /// sum, and the sum of `id² mod 4294967291`.
  static func digest(_ ids: [Int32]) -> [Int64] {
    var sum: Int64 = 0, mixed: Int64 = 0
    for id in ids {
      sum &+= Int64(id)
      mixed &+= Int64(id) &* Int64(id) % 4_294_967_291
    }
    return [Int64(ids.count), sum, mixed]
  }
}

extension Array {
  subscript(safe i: Int) -> Element? { i >= 0 && i < count ? self[i] : nil }
}
