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

extension _BestFirstTree {
  /// Best first (see ``_bestFirst(_:_:)``), over the coordinates the tree keeps.
  @inlinable
  public func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double,
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
  /// popped with it gets its tight bound first where the metric finds it
  /// worth it (``_NearestMetric/refines(minX:minY:maxX:maxY:)``), and goes back in the queue
  /// if that is no longer the smallest: near a pole, where the cheap bound
  /// of every box that reaches it is the latitude gap alone, this keeps the
  /// search from opening every box around the pole.
  @inlinable
  func _bestFirst<M: _NearestMetric, C: QueryCounters>(_ search: inout _NearestSearch<M>, _ counters: inout C) {
    guard search.k > 0 else { return }
    if let root = _nearestRoot(&search) { search.push(root) }
    while var node = search.buffer.pop() {
      if node.bound > search.cut { break }
      if M.refines && !node.tight && search.cut < .infinity,
         case let b = _nearestBox(node, search),
         search.metric.refines(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY) {
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

/// The value of rank `rank` (0 for the smallest) among `values[0..<count]`,
/// which it reorders: Hoare's selection, the median of three as pivot,
/// ranges of nine values or fewer sorted by insertion. No NaN.
@inlinable
package func _smallest(rank: Int, of values: UnsafeMutablePointer<Double>, count: Int) -> Double {
  var low = 0, high = count &- 1
  while high &- low > 8 {
    let a = values[low], b = values[low &+ (high &- low) / 2], c = values[high]
    let pivot = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
    let (i, j) = _partition(values, low, high, around: pivot, by: <)
    if rank <= j { high = j } else if rank >= i { low = i } else { return pivot }
  }
  _insertionSort(values, low, high, by: <)
  return values[rank]
}
