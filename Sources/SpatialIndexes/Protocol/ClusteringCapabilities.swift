/// An index that hands whole groups of points to a ``GroupVisitor``: the
/// k-d tree and the R-tree, whose subtrees are runs of one storage order,
/// and the quadtree and the grid while they are as built. The clusterer's
/// `aggregate` strategy adds a group from prefix sums over that order
/// instead of visiting its points; over any other index it reads points.
@usableFromInline package protocol GroupingIndex: SpatialIndex {
  /// Visits the points inside `rect`, handing whole groups of them to
  /// `visitor` where the index stores them together and the visitor accepts
  /// (see ``GroupVisitor``). Every point inside is handed over exactly once,
  /// alone or in a group.
  func forEachGroup<C: QueryCounters, V: GroupVisitor>(
    in rect: Rect, counters: inout C, _ visitor: inout V)

  /// The ids in the order groups refer to (a group is runs of positions in
  /// it); empty while the index forms no groups (a quadtree or grid changed
  /// since its build).
  var groupOrder: [Int32] { get }

  /// The points' coordinates in ``groupOrder``, `x` then `y` interleaved:
  /// the index's own array, shared rather than copied, so a visitor reads
  /// the point handed over at a position beside its neighbours instead of
  /// at random by id (a view of the saved file when the index maps its
  /// coordinates). Empty when the index keeps none in that order.
  var groupCoordinates: _FlatArray<Double> { get }
}

/// An index that keeps totals in the map's own grid and sums points by
/// cell itself (the cell tree): the clusterer's `aggregate` strategy asks it
/// for the cells' totals rather than binning points.
@usableFromInline package protocol CellSummingIndex: SpatialIndex {
  /// Adds every point the map shows (longitude in [−180, 180], latitude in
  /// ``WebMercator/latitudeRange``) inside `rect` (inclusive bounds) to the
  /// totals of its cell of `window`'s grid, in `cells` (the window's dense
  /// slots): the cell of its Web Mercator position, as
  /// ``MapCells/index(_:scale:cellSize:inverse:)`` computes it, with its
  /// coordinates in 1e-7° units (``MapCells/units(_:)``). A point at +180°
  /// (``MapCells/isAntimeridian(_:)``) is in column 0 at −180°
  /// (``MapCells/binX(longitude:)``, ``MapCells/binUnits(longitude:)``),
  /// at ``CellWindow/columnZero`` when column 0 lies outside the window's
  /// columns. Any other point whose cell lies outside the window is left
  /// out. `cells` holds the window's dense slots (``CellWindow/width`` by
  /// its rows); a window whose cell size is below 1 adds nothing.
  func sumCells<C: QueryCounters>(
    in rect: Rect, window: CellWindow, into cells: UnsafeMutableBufferPointer<CellTotals>,
    counters: inout C)

  /// ``sumCells(in:window:into:counters:)`` of only the points `filter`
  /// passes, answering whole nodes from the filter's summaries by node
  /// (see ``CellNodeFilter``).
  func sumCells<C: QueryCounters, F: CellNodeFilter>(
    in rect: Rect, window: CellWindow, into cells: UnsafeMutableBufferPointer<CellTotals>,
    filter: F, counters: inout C)

  /// The nodes a ``CellNodeFilter`` keeps summaries of: their number
  /// (node `k` is `0..<nodeCount`), and which points and children each
  /// has (``CellNodeShape``).
  var nodeCount: Int { get }
  func nodeShape(_ node: Int) -> CellNodeShape

  /// The ids of the points the nodes hold, by position (a node's points
  /// are ``CellNodeShape/points``): the index's own array, shared. A new
  /// array (another storage) means new nodes.
  var nodeOrderIDs: [Int32] { get }
}
