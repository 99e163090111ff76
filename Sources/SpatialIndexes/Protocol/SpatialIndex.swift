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

  /// Builds the index over `points`; the id of `points[i]` is `i`.
  ///
  /// Throws ``IndexError`` for a parameter that makes no sense, a non-finite
  /// coordinate, or more points than 32-bit ids can name.
  init(points: [Point], parameters: Parameters) throws(IndexError)

  /// The number of points currently held.
  var count: Int { get }

  /// Calls `visit` with the id of each point inside `rect` (inclusive bounds).
  ///
  /// - Returns: `false` if `visit` stopped the query by returning `false`.
  @discardableResult
  func forEach<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool
  ) -> Bool

  /// Appends the id of each point inside `rect` to `ids`.
  ///
  /// Call `ids.removeAll(keepingCapacity: true)` between queries to reuse the
  /// buffer. The default appends from ``forEach(in:counters:_:)``.
  func query<C: QueryCounters>(in rect: Rect, into ids: inout [Int32], counters: inout C)

  /// The number of points inside `rect`. The default counts ``forEach(in:counters:_:)``.
  func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int

  /// The `k` points nearest to `position` by great-circle distance
  /// (``GreatCircle/distance(_:_:)``), at most `maxDistance` metres away,
  /// nearest first, ties by the smaller id (the point earlier in the
  /// input), into `buffer.neighbors`, its storage reused (see
  /// ``NearestBuffer``). Every index keeps its points' current coordinates
  /// and reads them there.
  ///
  /// A longitude outside ±180 is wrapped and a latitude outside ±90
  /// clamped; a NaN or infinite longitude, a NaN latitude, `k <= 0` or a
  /// NaN or negative `maxDistance` find nothing. The trees search best
  /// first; an index of your own that keeps its points by id can answer
  /// with ``nearestThroughRanges(to:k:maxDistance:into:counters:position:)``.
  func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double,
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
  /// Nothing: an index that cannot tell where a point sits from its id.
  @inlinable public func prefetchMove(id: Int32) {}
  /// Nothing: an index without a second stage.
  @inlinable public func prefetchMoveTarget(id: Int32) {}
  /// False: an index that does no work in the background.
  @inlinable public var isWorkingInBackground: Bool { false }
}

extension SpatialIndex {
  /// Builds with default parameters.
  @inlinable
  public init(points: [Point]) throws(IndexError) {
    try self.init(points: points, parameters: Parameters())
  }

  /// Appends from ``forEach(in:counters:_:)``: the default of an index
  /// that has no faster way.
  @inlinable
  public func query<C: QueryCounters>(
    in rect: Rect, into ids: inout [Int32], counters: inout C
  ) {
    forEach(in: rect, counters: &counters) { id in
      ids.append(id)
      return true
    }
  }

  /// Counts what ``forEach(in:counters:_:)`` visits: the default of an
  /// index that has no faster way.
  @inlinable
  public func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int {
    var n = 0
    forEach(in: rect, counters: &counters) { _ in
      n &+= 1
      return true
    }
    return n
  }

  // MARK: Without counters

  /// Calls `visit` with the id of each point inside `rect` (inclusive
  /// bounds) until it returns `false`.
  ///
  /// - Returns: `false` if `visit` stopped the query.
  @inlinable @discardableResult
  public func forEach(in rect: Rect, _ visit: (Int32) -> Bool) -> Bool {
    var none = NoCounters()
    return forEach(in: rect, counters: &none, visit)
  }

  /// Appends the id of each point inside `rect` (inclusive bounds) to
  /// `ids`; call `ids.removeAll(keepingCapacity: true)` between queries to
  /// reuse its storage.
  @inlinable
  public func query(in rect: Rect, into ids: inout [Int32]) {
    var none = NoCounters()
    query(in: rect, into: &ids, counters: &none)
  }

  /// The number of points inside `rect` (inclusive bounds).
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
}
