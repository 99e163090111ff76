import SpatialIndexes
import Testing
import _SpatialTestSupport
@testable import MapClustering

/// Counts what a grouped query hands the clusterer's visitor.
private struct CountingSummer: GroupVisitor {
  var inner: _CellSummer
  var grouped = 0
  var alone = 0

  mutating func acceptsGroup(in box: Rect) -> Bool { inner.acceptsGroup(in: box) }

  mutating func takeGroup(_ positions: Range<Int>) {
    grouped += positions.count
    inner.takeGroup(positions)
  }

  mutating func take(_ id: Int32, at position: Int) {
    alone += 1
    inner.take(id, at: position)
  }
}

/// The `aggregate` strategy gives the markers of the other strategies (see
/// ``ClusteringTests``) while adding most points of a wide view as whole
/// subtrees, from prefix sums, without visiting them.
@Suite struct AggregateStrategyTests {
  /// Points handed over in groups and alone, over every rectangle of `v`.
  private func handOver<I: DescribedIndex>(_ clusterer: Clusterer<I>, _ v: Viewport) -> (grouped: Int, alone: Int) {
    var clusterer = clusterer
    let layout = clusterer._layout(v.visibleArea)!
    let groups = clusterer._groups(), unitRow = clusterer._families.unitRow(layout.zoom)
    var cells = [CellTotals](repeating: CellTotals(), count: layout.cellCount)
    var total = (grouped: 0, alone: 0)
    cells.withUnsafeMutableBufferPointer { buffer in
      groups.coordinates.withUnsafeBufferPointer { xy in
        for k in 0..<layout.rectCount {
          var visitor = CountingSummer(
            inner: _CellSummer(layout, layout.rect(k), buffer, groups, xy.baseAddress!, unitRow, clusterer.points))
          var none = NoCounters()
          _forEachGroup(clusterer.index, in: layout.rect(k).rect, counters: &none, &visitor)
          visitor.inner.flush()
          total.grouped += visitor.grouped
          total.alone += visitor.alone
        }
      }
    }
    return total
  }

  @Test(arguments: [0, 1, 2, 3])
  func wideViewsAddMostPointsAsWholeSubtrees(zoom: Int) throws {
    let points = Fixtures.clustered(50_000, seed: 21)
    try check(Clusterer<KDTreeIndex>(points: points), zoom: zoom)
    try check(Clusterer<BucketQuadtree>(points: points), zoom: zoom)
    try check(Clusterer<GridHashIndex>(points: points), zoom: zoom)
  }

  private func check<I: DescribedIndex>(_ clusterer: Clusterer<I>, zoom: Int) throws {
    let v = Viewport(center: Point(x: 10, y: 30), zoom: zoom)
    let visible = v.rects.reduce(0) { $0 + clusterer.index.count(in: $1) }
    let (grouped, alone) = handOver(clusterer, v)
    #expect(grouped + alone == visible)
    #expect(visible > 5_000)
    #expect(grouped * 2 > visible, "\(I.name) zoom \(zoom): \(grouped) of \(visible) in groups")
  }

  /// What each strategy keeps beside the index, before any step ran (no
  /// scratch yet): a 24-byte record a point for `singlePass` and `perCell`;
  /// for `aggregate` over an index with groups (the k-d tree), a 4-byte row a
  /// point and two Int64 sums every 8th position (and at the end), and
  /// nothing of the records; over one without (the linear scan) or once
  /// points moved, the records and the totals by cell (a fixed 3.4 MB).
  @Test func memoryCountsWhatEachStrategyKeeps() throws {
    let points = Fixtures.uniform(1000, seed: 2)
    let linear = try Clusterer<LinearScanIndex>(points: points)
    var kd = try Clusterer<KDTreeIndex>(points: points)
    let pyramid = _CellPyramid.bytes(table: .default)
    for strategy in [ClusterStrategy.perCell, .singlePass] {
      #expect(linear.memoryBytes(for: strategy) == 1000 * 24)
    }
    #expect(linear.memoryBytes(for: .aggregate) == 1000 * 24 + pyramid)
    #expect(kd.memoryBytes(for: .singlePass) == 1000 * 24)
    #expect(kd.memoryBytes(for: .aggregate) == 1000 * 8 + (1000 / 8 + 1) * 16)
    // once built, still: the sums share the index's coordinates (scratch
    // is in both strategies' figures alike)
    var markers: [ClusterMarker] = []
    kd.cluster(Viewport(center: Point(x: 0, y: 0), zoom: 2).visibleArea, strategy: .aggregate, into: &markers)
    #expect(!markers.isEmpty)
    #expect(kd.memoryBytes(for: .aggregate) - kd.memoryBytes(for: .singlePass)
            == 1000 * 8 + (1000 / 8 + 1) * 16 - 1000 * 24)
    try kd.move([PointMove(id: 3, to: Point(x: 1, y: 1))], rebuildingWith: .init())
    #expect(kd.memoryBytes(for: .aggregate) - kd.memoryBytes(for: .singlePass) == pyramid)
  }

  /// Above `_tablePointLimit` points `singlePass` and `perCell` keep no
  /// records (each step reads the points); once a step made them (a
  /// filtered one), they count again.
  @Test func noRecordsAboveTheTableLimit() throws {
    let points = Fixtures.uniform(1000, seed: 2)
    var kd = try Clusterer<KDTreeIndex>(points: points)
    kd._tablePointLimit = 999
    for strategy in [ClusterStrategy.perCell, .singlePass] { #expect(kd.memoryBytes(for: strategy) == 0) }
    var markers: [ClusterMarker] = []
    let area = Viewport(center: Point(x: 0, y: 0), zoom: 2).visibleArea
    kd.cluster(area, strategy: .singlePass, into: &markers)
    #expect(!markers.isEmpty && kd._tableStorage == nil)
    let scratch = kd.memoryBytes(for: .singlePass)
    _ = kd._table()
    #expect(kd.memoryBytes(for: .singlePass) == scratch + 1000 * 24)
  }
}
