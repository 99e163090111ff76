/// A 2-D point index that answers rectangle queries in the id space of its input.
///
/// Ids are positions in the array the index was built from (`0..<points.count`),
/// so every implementation answers in the same id space and the linear scan can
/// check all of them. Queries come in three forms:
/// - ``forEach(in:counters:_:)``: visits each id, stops early when the visitor
///   returns `false`; the visitor is non-escaping, so nothing is allocated.
/// - ``query(in:into:counters:)``: appends the ids to a buffer the caller reuses.
/// - ``count(in:counters:)``: how many points lie inside.
///
/// Hot loops should call an index through a generic parameter (`<I: SpatialIndex>`)
/// so the query specialises and inlines; `any SpatialIndex` belongs at the edge,
/// where a command line picks an index by name.
///
/// The order in which ids are reported is unspecified and differs between indexes.
public protocol SpatialIndex: Sendable {
  /// The named, documented build parameters (bucket capacity, cell size…).
  associatedtype Parameters: IndexParameters

  /// Short lowercase name used on the command line and in reports (`kdtree`).
  static var name: String { get }
  /// One line saying what the index is.
  static var summary: String { get }

  /// Builds the index over `points`; the id of `points[i]` is `i`.
  ///
  /// Throws ``IndexError`` for a parameter that makes no sense, a non-finite
  /// coordinate, or more points than 32-bit ids can name.
  init(points: [Point], parameters: Parameters) throws(IndexError)

  /// The number of points currently held.
  var count: Int { get }

  /// The parameters it was built with, as given (a value derived from the
  /// data stays unset; see ``parameterValues``): what a rebuild passes.
  var parameters: Parameters { get }

  /// The parameters in effect, defaults resolved against the data
  /// (for example the grid's cell size), as name and value text for reports.
  var parameterValues: [ParameterValue] { get }

  /// Bytes of storage the index holds (array capacities, not counts).
  var memoryBytes: Int { get }

  /// Calls `visit` with the id of each point inside `rect` (inclusive bounds).
  ///
  /// - Returns: `false` if `visit` stopped the query by returning `false`.
  @discardableResult
  func forEach<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool
  ) -> Bool

  /// Appends the id of each point inside `rect` to `ids`.
  ///
  /// Call `ids.removeAll(keepingCapacity: true)` between queries to reuse the buffer.
  func query<C: QueryCounters>(in rect: Rect, into ids: inout [Int32], counters: inout C)

  /// The number of points inside `rect`.
  func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int

  /// Visits the points inside `rect`, handing whole groups of them to
  /// `visitor` where the index stores them together and the visitor accepts
  /// (see ``GroupVisitor``). Every point inside is handed over exactly once,
  /// alone or in a group. The default hands every id alone.
  func forEachGroup<C: QueryCounters, V: GroupVisitor>(
    in rect: Rect, counters: inout C, _ visitor: inout V)

  /// The ids in the order groups refer to (a group is runs of positions in
  /// it); empty for an index that never forms groups, the default.
  var groupOrder: [Int32] { get }

  /// The points' coordinates in ``groupOrder``, `x` then `y` interleaved:
  /// the index's own array, shared rather than copied, so a visitor reads
  /// the point handed over at a position beside its neighbours instead of
  /// at random by id. Empty when the index keeps none in that order, the
  /// default.
  var groupCoordinates: [Double] { get }

  /// Whether ``sumCells(in:window:into:counters:)`` sums points by cell (an
  /// index that keeps totals in the map's own grid); `false`, the default,
  /// for an index whose caller bins points itself.
  static var sumsCells: Bool { get }

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
  /// out. Returns `false`, touching nothing, when the index does not sum
  /// cells (the default).
  func sumCells<C: QueryCounters>(
    in rect: Rect, window: CellWindow, into cells: UnsafeMutableBufferPointer<CellTotals>,
    counters: inout C
  ) -> Bool

  /// The `k` points nearest to `position` by great-circle distance
  /// (``GreatCircle/distance(_:_:)``), at most `maxDistance` metres away,
  /// nearest first, ties by the smaller id (the point earlier in the
  /// input), into `buffer.neighbors`, its
  /// storage reused (see ``NearestBuffer``). `points` are those the index
  /// was built from (ids are positions in it), for an index that keeps no
  /// coordinates; an id past its end is not considered.
  ///
  /// A longitude outside ±180 is wrapped and a latitude outside ±90
  /// clamped; a NaN or infinite longitude, a NaN latitude, `k <= 0` or a
  /// NaN or negative `maxDistance` find nothing. The trees search best
  /// first; the default goes through range queries (see the extension).
  func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double, points: [Point],
    into buffer: inout NearestBuffer, counters: inout C)
}

/// An index that accepts inserts and removals after it was built.
public protocol DynamicSpatialIndex: SpatialIndex {
  /// The id the next insert gets: the number of points ever added, removed or not.
  var nextID: Int32 { get }

  /// Adds `point` under the id ``nextID`` and returns that id.
  mutating func insert(_ point: Point) throws(IndexError) -> Int32

  /// Removes the point `id`, which was added at `point`.
  ///
  /// - Returns: `false` if no such point is held.
  @discardableResult
  mutating func remove(id: Int32, at point: Point) -> Bool

  /// Moves the point `id`, held at `from`, to `to`, under the same id (a
  /// vehicle on a live map keeps its identity as it moves).
  ///
  /// Each index does it in place where the point stays in its node or cell;
  /// otherwise it is a removal and an insert of the same id.
  ///
  /// - Returns: `false`, changing nothing, if no point `id` is held at `from`.
  /// - Throws: as ``insert(_:)`` does for `to` (not finite, outside fixed
  ///   bounds); the point then stays at `from`.
  @discardableResult
  mutating func move(id: Int32, from: Point, to: Point) throws(IndexError) -> Bool

  /// A hint that point `id` is about to move: an index whose storage for
  /// it is known from the id alone starts loading it, so a batch of moves
  /// overlaps its cache misses. The default does nothing.
  func prefetchMove(id: Int32)

  /// The second stage of ``prefetchMove(id:)``, a few moves later: an
  /// index that found in the first stage where the point sits (the grid's
  /// slot of each id) starts loading that. The default does nothing.
  func prefetchMoveTarget(id: Int32)

  /// Whether the index has work running on another thread (a build in the
  /// background): a batch of moves then keeps to one thread rather than
  /// take a core from it. The default is false.
  var isWorkingInBackground: Bool { get }
}

extension DynamicSpatialIndex {
  @inlinable public func prefetchMove(id: Int32) {}
  @inlinable public func prefetchMoveTarget(id: Int32) {}
  @inlinable public var isWorkingInBackground: Bool { false }
}

extension SpatialIndex {
  /// Builds with default parameters.
  @inlinable
  public init(points: [Point]) throws(IndexError) {
    try self.init(points: points, parameters: Parameters())
  }

  @inlinable
  public func query<C: QueryCounters>(
    in rect: Rect, into ids: inout [Int32], counters: inout C
  ) {
    forEach(in: rect, counters: &counters) { id in
      ids.append(id)
      return true
    }
  }

  @inlinable
  public func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int {
    var n = 0
    forEach(in: rect, counters: &counters) { _ in
      n &+= 1
      return true
    }
    return n
  }

  @inlinable
  public func forEachGroup<C: QueryCounters, V: GroupVisitor>(
    in rect: Rect, counters: inout C, _ visitor: inout V
  ) {
    forEach(in: rect, counters: &counters) { id in
      visitor.take(id, at: -1)
      return true
    }
  }

  @inlinable public var groupOrder: [Int32] { [] }

  @inlinable public var groupCoordinates: [Double] { [] }

  @inlinable public static var sumsCells: Bool { false }

  @inlinable
  public func sumCells<C: QueryCounters>(
    in rect: Rect, window: CellWindow, into cells: UnsafeMutableBufferPointer<CellTotals>,
    counters: inout C
  ) -> Bool {
    false
  }

  // MARK: Without counters

  @inlinable @discardableResult
  public func forEach(in rect: Rect, _ visit: (Int32) -> Bool) -> Bool {
    var none = NoCounters()
    return forEach(in: rect, counters: &none, visit)
  }

  @inlinable
  public func query(in rect: Rect, into ids: inout [Int32]) {
    var none = NoCounters()
    query(in: rect, into: &ids, counters: &none)
  }

  @inlinable
  public func count(in rect: Rect) -> Int {
    var none = NoCounters()
    return count(in: rect, counters: &none)
  }

  /// The ids inside `rect` in a new array: convenient, but allocates; hot loops
  /// use ``query(in:into:counters:)`` with a reused buffer.
  @inlinable
  public func ids(in rect: Rect) -> [Int32] {
    var ids: [Int32] = []
    query(in: rect, into: &ids)
    return ids
  }

  /// The name and parameters as one word: `quadtree(capacity=16)`.
  public var label: String {
    let params = parameterValues.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
    return params.isEmpty ? Self.name : "\(Self.name)(\(params))"
  }
}
