import SpatialIndexes

/// A deliberately wrong index for the fuzzer's tests: the cell tree, whose
/// filtered walk tells the filter twice of each node it answers whole and
/// each point it takes alone. Its markers are right, and so are `min` and
/// `max`; a `sum` over points with values comes out doubled, but only
/// with a filter or an aggregate asked, and only by `aggregate`.
struct SumDoublingTree: DescribedIndex, CellSummingIndex {
  typealias Parameters = NoParameters
  static let name = "sumdoubling"
  static let summary = "a cell tree whose filtered walk adds each node's aggregates twice (wrong on purpose)"

  let tree: CellTree

  init(points: [Point], parameters: NoParameters) throws(IndexError) {
    tree = try CellTree(points: points, parameters: CellTree.Parameters(leafSize: 2))
  }

  var count: Int { tree.count }
  var parameters: NoParameters { NoParameters() }
  var parameterValues: [ParameterValue] { [] }
  var memoryBytes: Int { tree.memoryBytes }

  @discardableResult
  func forEach<C: QueryCounters>(in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool) -> Bool {
    tree.forEach(in: rect, counters: &counters, visit)
  }

  func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double, into buffer: inout NearestBuffer, counters: inout C
  ) {
    tree.nearest(to: position, k: k, maxDistance: maxDistance, into: &buffer, counters: &counters)
  }

  func sumCells<C: QueryCounters>(
    in rect: Rect, window: CellWindow, into cells: UnsafeMutableBufferPointer<CellTotals>, counters: inout C
  ) {
    tree.sumCells(in: rect, window: window, into: cells, counters: &counters)
  }

  func sumCells<C: QueryCounters, F: CellNodeFilter>(
    in rect: Rect, window: CellWindow, into cells: UnsafeMutableBufferPointer<CellTotals>, filter: F,
    counters: inout C
  ) {
    tree.sumCells(in: rect, window: window, into: cells, filter: Doubling(base: filter), counters: &counters)
  }

  var nodeCount: Int { tree.nodeCount }
  func nodeShape(_ node: Int) -> CellNodeShape { tree.nodeShape(node) }
  var nodeOrderIDs: [Int32] { tree.nodeOrderIDs }

  /// `base`, told twice of every node and point added.
  struct Doubling<F: CellNodeFilter>: CellNodeFilter {
    let base: F
    static var filters: Bool { F.filters }
    var addsPoints: Bool { base.addsPoints }
    func verdict(node: Int) -> CellNodeVerdict { base.verdict(node: node) }
    var scansMixedNodes: Bool { base.scansMixedNodes }
    func passes(position: Int, id: Int32) -> Bool { base.passes(position: position, id: id) }
    func addMixed<C: QueryCounters>(
      node: Int, slot: Int, into cell: UnsafeMutablePointer<CellTotals>, coords: UnsafePointer<Double>,
      ids: UnsafePointer<Int32>, counters: inout C
    ) -> Bool {
      base.addMixed(node: node, slot: slot, into: cell, coords: coords, ids: ids, counters: &counters)
    }
    func addNode(_ node: Int, slot: Int) {
      base.addNode(node, slot: slot)
      base.addNode(node, slot: slot)
    }
    func addPoint(id: Int32, slot: Int) {
      base.addPoint(id: id, slot: slot)
      base.addPoint(id: id, slot: slot)
    }
  }
}
