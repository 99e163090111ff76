/// What a filter says of all the points of a node, from its summaries.
@frozen @usableFromInline
package enum CellNodeVerdict {
  /// Every point passes.
  case all
  /// No point passes.
  case none
  /// Some may pass and some fail: the node is split.
  case some
}

/// A filter a ``CellSummingIndex`` applies as it sums cells, by node: the
/// index knows nothing of properties; the filter keeps what it needs of
/// each node (``CellSummingIndex/nodeCount``, ``CellSummingIndex/nodeShape(_:)``)
/// and judges a node by its number (``verdict(node:)``) or a point by its
/// id (``passes(position:id:)``).
///
/// The walk takes a node the filter passes whole, inside the rectangle and
/// inside one cell, as it would without a filter (its count and coordinate
/// sums) and hands it to ``addNode(_:slot:)``, so the filter adds what it
/// keeps of the node (its aggregates); every point taken alone is handed
/// to ``addPoint(id:slot:)`` when ``addsPoints``. A mixed node inside the
/// rectangle and inside one cell is offered to ``addMixed(node:slot:into:coords:ids:counters:)``:
/// a filter that keeps totals by value takes it there; otherwise, when
/// ``scansMixedNodes``, the walk tests its points one by one (they are
/// contiguous), and else it splits the node. The walk is generic over the
/// filter: no existential, every call specialised.
@usableFromInline package protocol CellNodeFilter {
  /// `false` for ``_NoNodeFilter``: every test of the walk folds away.
  static var filters: Bool { get }
  /// Whether ``addPoint(id:slot:)`` wants each point taken alone.
  var addsPoints: Bool { get }
  /// What the filter says of all the points of node `node`.
  func verdict(node: Int) -> CellNodeVerdict
  /// Whether a mixed node inside one cell the filter did not take is read
  /// point by point at once rather than split down to its leaves.
  var scansMixedNodes: Bool { get }
  /// Whether point `id`, at `position` of ``CellSummingIndex/nodeOrderIDs``,
  /// passes.
  func passes(position: Int, id: Int32) -> Bool
  /// Node `node`, mixed, inside the rectangle and inside cell `slot`:
  /// adds the totals of its passing points to `cell` (and the filter's
  /// own by slot) and returns `true`, or returns `false` having added
  /// nothing. `coords` (longitude and latitude interleaved) and `ids` are
  /// the tree's, by position.
  func addMixed<C: QueryCounters>(
    node: Int, slot: Int, into cell: UnsafeMutablePointer<CellTotals>, coords: UnsafePointer<Double>,
    ids: UnsafePointer<Int32>, counters: inout C) -> Bool
  /// Node `node` (which passes whole) was added to cell `slot`.
  func addNode(_ node: Int, slot: Int)
  /// Point `id` (which passes) was added to cell `slot`.
  func addPoint(id: Int32, slot: Int)
}

/// No filter: every point passes, nothing is added beside the totals.
@frozen @usableFromInline
package struct _NoNodeFilter: CellNodeFilter {
  @inlinable package init() {}
  @inlinable package static var filters: Bool { false }
  @inlinable package var addsPoints: Bool { false }
  @inlinable package func verdict(node: Int) -> CellNodeVerdict { .all }
  @inlinable package var scansMixedNodes: Bool { false }
  @inlinable package func passes(position: Int, id: Int32) -> Bool { true }
  @inlinable package func addMixed<C: QueryCounters>(
    node: Int, slot: Int, into cell: UnsafeMutablePointer<CellTotals>, coords: UnsafePointer<Double>,
    ids: UnsafePointer<Int32>, counters: inout C
  ) -> Bool { false }
  @inlinable package func addNode(_ node: Int, slot: Int) {}
  @inlinable package func addPoint(id: Int32, slot: Int) {}
}

/// Which points and children a node has: its points are positions
/// `points` of ``CellSummingIndex/nodeOrderIDs``, its children nodes
/// `children` (empty for a leaf), each after the node itself.
@usableFromInline package struct CellNodeShape: Equatable, Sendable {
  package var points: Range<Int>
  package var children: Range<Int>

  package init(points: Range<Int>, children: Range<Int>) {
    self.points = points
    self.children = children
  }
}

extension CellTree {
  /// The on-map tree's nodes, depth first, node 0 the root.
  @usableFromInline package var nodeCount: Int { nodes.count }

  @usableFromInline package func nodeShape(_ node: Int) -> CellNodeShape {
    let n = nodes[node], start = Int(n.start)
    let first = Int(n.firstChild)
    return CellNodeShape(
      points: start..<(start + Int(n.count)),
      children: n.isLeaf ? first..<first : first..<(first + n.childMask.nonzeroBitCount))
  }

  @usableFromInline package var nodeOrderIDs: [Int32] { ids }
}
