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
/// the cut, the bound past which nothing can be kept (from the `k` smallest
/// upper bounds of the points kept, from the far corner of a queued node
/// holding `k` points, or from the maximum distance, whichever is least).
///
/// A point is ranked by its bounds alone while the search runs: it is kept
/// as a candidate if its lower bound does not pass the cut, and its upper
/// bound may lower the cut. Its distance (five calls to the maths library)
/// is taken when the search ends, for the candidates still within the cut:
/// about `k` of them, where it was taken for every point that passed the
/// cut on the way (174 a search for 100 kept, 1M uniform points). Every
/// point of the answer is among them: the cut is never below the `k`-th
/// smallest distance's value in bound space.
@usableFromInline
struct _NearestSearch<M: _NearestMetric> {
  @usableFromInline var buffer: NearestBuffer
  @usableFromInline let metric: M
  @usableFromInline let k: Int
  @usableFromInline let maxDistance: Double
  @usableFromInline var cut: Double
  /// The candidates' count at which those past the cut are dropped.
  @usableFromInline var tidyAt: Int

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
    tidyAt = Self.tidySize(k)
  }

  @inlinable @inline(__always)
  static func tidySize(_ k: Int) -> Int { 2 &* Swift.max(k, 32) }

  /// Takes the distances of the candidates within the cut, keeps the `k`
  /// nearest (ties by the smaller id) in order, and hands the buffer back.
  @inlinable
  mutating func end(into buffer: inout NearestBuffer) {
    let cut = self.cut, maxDistance = self.maxDistance, metric = self.metric
    self.buffer.neighbors.removeAll(keepingCapacity: true)
    for c in self.buffer.candidates where c.bound <= cut {
      let d = metric.distance(x: c.x, y: c.y)
      if d <= maxDistance { self.buffer.neighbors.append(Neighbor(id: c.id, distance: d)) }
    }
    self.buffer.sortNeighbors()
    if self.buffer.neighbors.count > k {
      self.buffer.neighbors.removeLast(self.buffer.neighbors.count &- k)
    }
    // the working arrays are emptied when the next search begins
    swap(&self.buffer, &buffer)
  }

  /// A distance no smaller than the `k`-th nearest's, or `maxDistance`:
  /// nothing farther can be kept.
  @inlinable
  var radius: Double {
    cut < .infinity ? Swift.min(maxDistance, metric.distance(covering: cut)) : maxDistance
  }

  /// Keeps the point if it may be among the `k` nearest.
  @inlinable @inline(__always)
  mutating func consider(x: Double, y: Double, id: Int32) {
    consider(bound: metric.bound(x: x, y: y), x: x, y: y, id: id)
  }

  /// The same with the point's lower bound already at hand.
  @inlinable @inline(__always)
  mutating func consider(bound: Double, x: Double, y: Double, id: Int32) {
    guard bound <= cut else { return }
    buffer.candidates.append(_NearestCandidate(bound: bound, x: x, y: y, id: id))
    cut = Swift.min(cut, buffer.offerUpper(metric.upper(x: x, y: y), k: k))
    if buffer.candidates.count >= tidyAt {
      buffer.dropCandidates(beyond: cut)
      tidyAt = buffer.candidates.count &+ Self.tidySize(k)
    }
  }

  /// Considers the points at `range` (coordinates interleaved in `xy`), in
  /// blocks of up to 64 whose cheap bounds are taken in one loop first
  /// (no branch in it, so the processor overlaps the points).
  ///
  /// While fewer than `k` are kept the cut is at most a maximum distance's
  /// or a box corner's, and most points would be kept. So the points whose
  /// bound is at most the `k − kept`-th smallest go first, in order (more on ties;
  /// the bound at that rank found by selection); the cut they set then
  /// spares most of the others. A block that cannot fill the `k` goes in
  /// order. (Taking the smallest bound again and again, as this did before,
  /// cost 64 comparisons a point kept: 12% of a `bench speed --nearest` run
  /// under `perf`.)
  @inlinable
  mutating func considerLeaf(_ xy: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>) {
    withUnsafeTemporaryAllocation(of: Double.self, capacity: 128) { scratch in
      let bounds = scratch.baseAddress!, ranked = bounds + 64
      var from = range.lowerBound
      while from < range.upperBound {
        let to = Swift.min(range.upperBound, from &+ 64)
        let n = to &- from, block = xy + 2 &* from
        metric.bounds(block, count: n, into: bounds, cut: cut)
        // the bound up to which points go first, in order
        var first = -Double.infinity
        let need = k &- buffer.uppers.count
        if need >= n {
          first = .infinity
        } else if need > 0 {
          ranked.initialize(from: bounds, count: n)
          first = _smallest(rank: need &- 1, of: ranked, count: n)
        }
        if first > -Double.infinity {
          for j in 0..<n where bounds[j] <= first {
            consider(bound: bounds[j], x: block[2 &* j], y: block[2 &* j &+ 1], id: ids[from &+ j])
          }
        }
        for j in 0..<n where bounds[j] > first {
          consider(bound: bounds[j], x: block[2 &* j], y: block[2 &* j &+ 1], id: ids[from &+ j])
        }
        from = to
      }
    }
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
