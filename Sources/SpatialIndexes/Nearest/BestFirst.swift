/// A tree that a best-first k-nearest search can walk: a root, the box of
/// a queued node, and the expansion of a node, which offers its own points
/// and queues its children with their bounds.
@usableFromInline
protocol _BestFirstTree: SpatialIndex {
  /// The root with its bound, or nil for an empty tree.
  func _nearestRoot<M: _NearestMetric>(_ search: inout _NearestSearch<M>) -> _NearestNode?
  /// The box whose points `node` holds, for its tight bound.
  func _nearestBox<M: _NearestMetric>(_ node: _NearestNode, _ search: _NearestSearch<M>) -> Rect
  /// Offers the points `node` holds itself (``_NearestSearch/consider(x:y:id:)``)
  /// and queues its children (``_NearestSearch/push(_:)``).
  func _expand<M: _NearestMetric, C: QueryCounters>(
    _ node: _NearestNode, _ search: inout _NearestSearch<M>, _ counters: inout C)
}

/// The state of one best-first search: the buffer it fills, its metric, and
/// the cut, the bound past which nothing can be kept (from the farthest
/// kept once there are `k`, else from the maximum distance).
@usableFromInline
struct _NearestSearch<M: _NearestMetric> {
  @usableFromInline var buffer: NearestBuffer
  @usableFromInline let metric: M
  @usableFromInline let k: Int
  @usableFromInline let maxDistance: Double
  @usableFromInline var cut: Double

  /// A search that fills `buffer`, emptied and taken over until ``end(into:)``.
  @inlinable
  init(taking buffer: inout NearestBuffer, metric: M, k: Int, maxDistance: Double) {
    buffer.reset()
    self.buffer = NearestBuffer()
    swap(&self.buffer, &buffer)
    self.metric = metric
    self.k = k
    self.maxDistance = maxDistance
    cut = metric.cut(maxDistance)
  }

  /// Puts the neighbours in order and hands the buffer back.
  @inlinable
  mutating func end(into buffer: inout NearestBuffer) {
    self.buffer.sortNeighbors()
    self.buffer.queue.removeAll(keepingCapacity: true)
    self.buffer.regions.removeAll(keepingCapacity: true)
    swap(&self.buffer, &buffer)
  }

  /// Keeps the point if it is among the `k` nearest so far: the cheap bound
  /// first, the exact distance only for a point that passes it.
  @inlinable @inline(__always)
  mutating func consider(x: Double, y: Double, id: Int32) {
    guard metric.bound(x: x, y: y) <= cut else { return }
    let d = metric.distance(x: x, y: y)
    guard d <= maxDistance else { return }
    if buffer.offer(Neighbor(id: id, distance: d), k: k) {
      cut = Swift.min(cut, metric.cut(buffer.neighbors[0].distance))
    }
  }

  /// Considers the points at `range` (coordinates interleaved in `xy`).
  ///
  /// While fewer than `k` are kept there is no cut, and every point would
  /// cost its exact distance (50 ns: five calls to the maths library). So
  /// the points of smallest cheap bound go first, until `k` are kept; the
  /// cut they set then spares most of the others.
  @inlinable
  mutating func considerLeaf(_ xy: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>) {
    var from = range.lowerBound
    while from < range.upperBound && buffer.neighbors.count < k {
      let to = Swift.min(range.upperBound, from &+ 64)
      withUnsafeTemporaryAllocation(of: Double.self, capacity: 64) { bounds in
        for i in from..<to { bounds[i &- from] = metric.bound(x: xy[2 &* i], y: xy[2 &* i &+ 1]) }
        // a point considered is marked NaN: never the smallest, never ≤ the cut
        var left = to &- from
        while left > 0 && buffer.neighbors.count < k {
          var best = -1
          for j in 0..<(to &- from) where !bounds[j].isNaN && (best < 0 || bounds[j] < bounds[best]) { best = j }
          bounds[best] = .nan
          left &-= 1
          let i = from &+ best
          consider(x: xy[2 &* i], y: xy[2 &* i &+ 1], id: ids[i])
        }
        for j in 0..<(to &- from) where bounds[j] <= cut {
          let i = from &+ j
          consider(x: xy[2 &* i], y: xy[2 &* i &+ 1], id: ids[i])
        }
      }
      from = to
    }
    for i in from..<range.upperBound { consider(x: xy[2 &* i], y: xy[2 &* i &+ 1], id: ids[i]) }
  }

  /// Queues a node whose bound does not pass the cut.
  @inlinable @inline(__always)
  mutating func push(_ node: _NearestNode) {
    if node.bound <= cut { buffer.push(node) }
  }

  /// Queues a node of `count` points in `box`, and when it holds at least
  /// `k`, lowers the cut to its farthest corner's bound: its points alone
  /// are `k` within that, so nothing farther can be kept. Before the first
  /// leaf there is no other cut, and every child of every node on the way
  /// down would be queued (`perf`: the heap's moves were the largest cost).
  @inlinable @inline(__always)
  mutating func push(_ node: _NearestNode, count: Int, box: Rect) {
    guard node.bound <= cut else { return }
    buffer.push(node)
    if count >= k {
      cut = Swift.min(cut, metric.upperBound(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY))
    }
  }
}

extension _NearestSearch where M == _SphereMetric {
  /// A search on the sphere from `position` (see ``_nearestCenter(_:k:maxDistance:count:)``),
  /// or nil, `buffer` emptied, when it finds nothing.
  @inlinable
  static func begin(
    _ position: Point, k: Int, maxDistance: Double, count: Int, _ buffer: inout NearestBuffer
  ) -> Self? {
    guard let center = _nearestCenter(position, k: k, maxDistance: maxDistance, count: count) else {
      buffer.reset()
      return nil
    }
    return Self(taking: &buffer, metric: _SphereMetric(center: center), k: k, maxDistance: maxDistance)
  }
}

extension _BestFirstTree {
  /// Best first (see ``_bestFirst(_:_:)``); `points` is not read: the
  /// trees keep their coordinates.
  @inlinable
  public func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double, points: [Point],
    into buffer: inout NearestBuffer, counters: inout C
  ) {
    guard var search = _NearestSearch.begin(position, k: k, maxDistance: maxDistance, count: count, &buffer)
    else { return }
    _bestFirst(&search, &counters)
    search.end(into: &buffer)
  }

  /// The same search with planar distance in degrees, to measure what the
  /// sphere costs (`bench speed --nearest`).
  package func _nearestPlanar(to position: Point, k: Int, into buffer: inout NearestBuffer) {
    var none = NoCounters()
    var search = _NearestSearch(taking: &buffer, metric: _PlanarMetric(center: position), k: k, maxDistance: .infinity)
    _bestFirst(&search, &none)
    search.end(into: &buffer)
  }

  /// Pops the node of smallest bound until that bound passes the cut: then
  /// no point left can be nearer than the `k` kept (a node whose bound ties
  /// the farthest kept is still opened, for a tie broken by a smaller id).
  ///
  /// Nodes are queued with the cheap bound. Once there is a cut, a node
  /// popped with it gets its tight bound first, and goes back in the queue
  /// if that is no longer the smallest: near a pole, where the cheap bound
  /// of every box that reaches it is the latitude gap alone, this keeps the
  /// search from opening every box around the pole.
  @inlinable
  func _bestFirst<M: _NearestMetric, C: QueryCounters>(_ search: inout _NearestSearch<M>, _ counters: inout C) {
    guard search.k > 0 else { return }
    if let root = _nearestRoot(&search) { search.push(root) }
    while var node = search.buffer.pop() {
      if node.bound > search.cut { break }
      if M.refines && !node.tight && search.cut < .infinity {
        let b = _nearestBox(node, search)
        node.bound = Swift.max(
          node.bound, search.metric.tightBound(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY))
        node.tight = true
        if node.bound > search.cut { continue }
        if let next = search.buffer.queue.first, next.bound < node.bound {
          search.buffer.push(node)
          continue
        }
      }
      _expand(node, &search, &counters)
    }
  }
}

/// A tree whose best-first search also runs with planar distance in
/// degrees, so `bench speed --nearest` can show what the sphere costs.
package protocol _PlanarNearestSearching {
  func _nearestPlanar(to position: Point, k: Int, into buffer: inout NearestBuffer)
}

extension KDTreeIndex: _PlanarNearestSearching {}
extension HilbertRTree: _PlanarNearestSearching {}
