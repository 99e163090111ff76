/// A static index that follows moving points: the static `Base` built over
/// a snapshot of the positions, and beside it small buffers of the points
/// that moved since, searched point by point. A point in a buffer is stale
/// in the base, whose queries skip it.
///
/// **Rebuilds.** When the active buffer reaches ``BufferedParameters/rebuildShare``
/// of the points, it is frozen and a new base is built from the snapshot
/// and the frozen buffer on another thread, while moves go on into a fresh
/// active buffer. The new base is installed when the active buffer fills up
/// again: the next trigger waits for the build if it is not done, installs
/// it (the frozen buffer is then empty), and freezes the active buffer for
/// the next. So installs happen at points fixed by the sequence of moves,
/// never by the clock: answers and work counters are the same on any
/// machine; only a wait's length depends on how fast the build ran.
///
/// A map moving 1% of a million points a frame at 60 Hz, with the default
/// share (5%), triggers every five or six frames: the background build
/// (k-d tree, 1M points, about 50-70 ms on one core) has that long.
///
/// Ids and positions: `nearest` goes through range queries, reading each
/// point's current position where the index keeps it (``position(of:)``).
/// Removed points stay in the base until the next rebuild, where they are
/// kept as dead ids that queries skip.
public struct BufferedIndex<Base: SpatialIndex>: DynamicSpatialIndex {
  /// The base's parameters, and when to rebuild it.
  public typealias Parameters = BufferedParameters<Base.Parameters>

  /// The static index, over ``basePoints``.
  @usableFromInline var base: Base
  /// The positions the base was built from; ids past its count were added since.
  @usableFromInline var basePoints: [Point]
  /// The points moved or added since the freeze (newest), and those moved
  /// between the last install and the freeze (being built into the next base).
  @usableFromInline var active: _PointBuffer
  @usableFromInline var frozen: _PointBuffer
  /// Per id: ``_Stale`` bits (in `active`, in `frozen`, removed).
  @usableFromInline var stale: [UInt8]
  @usableFromInline var pending: _PendingBuild<Base>? = nil
  @usableFromInline package let parameters: Parameters
  @usableFromInline var liveCount: Int
  /// Installs done since the build at init, for tests and reports.
  package internal(set) var rebuilds = 0

  /// - Complexity: the base's build.
  public init(points: [Point], parameters: Parameters = Parameters()) throws(IndexError) {
    try parameters.check()
    base = try Base(points: points, parameters: parameters.base)
    basePoints = points
    stale = Array(repeating: 0, count: points.count)
    active = _PointBuffer(count: points.count)
    frozen = _PointBuffer(count: points.count)
    self.parameters = parameters
    liveCount = points.count
  }

  /// The number of points held (removed ones not counted).
  public var count: Int { liveCount }
  /// The id the next insert gets.
  public var nextID: Int32 { Int32(truncatingIfNeeded: stale.count) }

  /// Points in the buffers, searched one by one by every query.
  package var bufferedCount: Int { active.count + frozen.count }

  /// The active buffer's size that triggers a rebuild.
  @inlinable
  var threshold: Int { max(1, Int(parameters.rebuildShare * Double(max(1, liveCount)))) }

  /// After each change: a rebuild step when the active buffer is full.
  @inlinable
  mutating func afterChange() {
    if active.count >= threshold { rebuildStep() }
  }

  // MARK: Queries

  /// The base's points that did not move since its build, then the
  /// buffers' points, each scanned.
  @inlinable @discardableResult
  public func forEach<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool
  ) -> Bool {
    let goOn = stale.withUnsafeBufferPointer { stale in
      base.forEach(in: rect, counters: &counters) { id in
        stale[Int(id)] != 0 || visit(id)
      }
    }
    guard goOn else { return false }
    // a frozen entry moved again since is stale there too; removed entries are NaN
    guard frozen.forEach(in: rect, skipping: _Stale.active, stale, &counters, visit) else { return false }
    return active.forEach(in: rect, skipping: 0, stale, &counters, visit)
  }

  // MARK: Changes

  /// Adds `point` to the active buffer under ``nextID``.
  public mutating func insert(_ point: Point) throws(IndexError) -> Int32 {
    guard point.isFinite else { throw .nonFinitePoint(id: stale.count, point: point) }
    guard stale.count < maximumPointCount else {
      throw .tooManyPoints(count: stale.count + 1, limit: maximumPointCount)
    }
    let id = nextID
    stale.append(0)
    active.grow(to: stale.count)
    frozen.grow(to: stale.count)
    put(id, point)
    liveCount += 1
    afterChange()
    return id
  }

  /// Marks point `id` removed; its entry in the base stays until the next
  /// rebuild, skipped by every query.
  @discardableResult
  public mutating func remove(id: Int32, at point: Point) -> Bool {
    guard position(of: id) == point else { return false }
    put(id, Point(x: .nan, y: .nan))  // no rectangle contains NaN
    stale[Int(id)] |= _Stale.removed
    liveCount -= 1
    afterChange()
    return true
  }

  /// Puts point `id` at `to` in the active buffer, stale in the base.
  @inlinable @discardableResult
  public mutating func move(id: Int32, from: Point, to: Point) throws(IndexError) -> Bool {
    guard position(of: id) == from else { return false }
    guard to.isFinite else { throw .nonFinitePoint(id: Int(id), point: to) }
    put(id, to)
    afterChange()
    return true
  }

  /// Loads the id's stale byte and buffer slots.
  @inlinable
  public func prefetchMove(id: Int32) {
    let i = Int(id)
    guard i >= 0, i < stale.count else { return }
    stale.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + i) }
    active.slots.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + i) }
    frozen.slots.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + i) }
    basePoints.withUnsafeBufferPointer { if i < $0.count { _prefetchLine($0.baseAddress! + i) } }
  }

  /// Through range queries
  /// (``SpatialIndex/nearestThroughRanges(to:k:maxDistance:into:counters:point:)``),
  /// each point read where it is now (``position(of:)``).
  @inlinable
  public func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double,
    into buffer: inout NearestBuffer, counters: inout C
  ) {
    nearestThroughRanges(
      to: position, k: k, maxDistance: maxDistance, into: &buffer, counters: &counters
    ) { id in self.position(of: id) }
  }

  /// Where point `id` is now, or nil when it was removed or never added.
  @inlinable
  package func position(of id: Int32) -> Point? {
    guard id >= 0, Int(id) < stale.count else { return nil }
    let s = stale[Int(id)]
    if s & _Stale.removed != 0 { return nil }
    if s & _Stale.active != 0 { return active.point(of: id) }
    if s & _Stale.frozen != 0 { return frozen.point(of: id) }
    return basePoints[Int(id)]
  }

  /// Records `id` at `point` in the active buffer.
  @inlinable
  mutating func put(_ id: Int32, _ point: Point) {
    active.set(id, point)
    stale[Int(id)] |= _Stale.active
  }
}

/// The bits of ``BufferedIndex``'s per-id stale byte.
@usableFromInline
enum _Stale {
  @usableFromInline static let active: UInt8 = 1
  @usableFromInline static let frozen: UInt8 = 2
  @usableFromInline static let removed: UInt8 = 4
}

/// Points held beside a static index, searched one by one: ids and
/// coordinates in flat arrays, and by id where each sits.
@usableFromInline
struct _PointBuffer: Sendable {
  @usableFromInline var ids: [Int32] = []
  @usableFromInline var xs: [Double] = []
  @usableFromInline var ys: [Double] = []
  /// Position in the arrays by id, -1 for none (an array, not a dictionary:
  /// a frame moves ten thousand points).
  @usableFromInline var slots: [Int32]

  init(count: Int) { slots = Array(repeating: -1, count: count) }

  @inlinable var count: Int { ids.count }
  var memoryBytes: Int { ids.capacity * 4 + (xs.capacity + ys.capacity) * 8 + slots.capacity * 4 }

  @inlinable
  func point(of id: Int32) -> Point? {
    let s = Int(slots[Int(id)])
    return s < 0 ? nil : Point(x: xs[s], y: ys[s])
  }

  /// Makes room for ids up to `count - 1`.
  mutating func grow(to count: Int) {
    if slots.count < count { slots.append(contentsOf: repeatElement(-1, count: count - slots.count)) }
  }

  @inlinable
  mutating func set(_ id: Int32, _ p: Point) {
    let s = Int(slots[Int(id)])
    if s >= 0 {
      xs[s] = p.x
      ys[s] = p.y
      return
    }
    slots[Int(id)] = Int32(ids.count)
    ids.append(id)
    xs.append(p.x)
    ys.append(p.y)
  }

  /// Empties the buffer, keeping its storage.
  mutating func removeAll() {
    for id in ids { slots[Int(id)] = -1 }
    ids.removeAll(keepingCapacity: true)
    xs.removeAll(keepingCapacity: true)
    ys.removeAll(keepingCapacity: true)
  }

  /// Visits the buffered points inside `rect` whose stale byte has none of `skip`.
  @inlinable
  func forEach<C: QueryCounters>(
    in rect: Rect, skipping skip: UInt8, _ stale: [UInt8], _ counters: inout C,
    _ visit: (Int32) -> Bool
  ) -> Bool {
    counters.testPoints(ids.count)
    for i in ids.indices where rect.contains(x: xs[i], y: ys[i]) {
      let id = ids[i]
      if stale[Int(id)] & skip != 0 { continue }
      counters.reportPoints(1)
      if !visit(id) { return false }
    }
    return true
  }
}

extension BufferedIndex: DescribedIndex where Base: DescribedIndex {
  @usableFromInline package static var name: String { "buffered-\(Base.name)" }
  @usableFromInline package static var summary: String {
    "\(Base.name) over a snapshot, with buffers of moved points, rebuilt in the background"
  }

  @usableFromInline package var parameterValues: [ParameterValue] {
    base.parameterValues + [ParameterValue("rebuildShare", BufferedParameters<Base.Parameters>.text(parameters.rebuildShare))]
  }

  @usableFromInline package var memoryBytes: Int {
    base.memoryBytes + basePoints.capacity * MemoryLayout<Point>.stride + stale.capacity
      + active.memoryBytes + frozen.memoryBytes
  }
}
