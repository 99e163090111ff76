/// The state of one k-nearest search, whoever walks it (the trees best
/// first, the grid by rings, the default by range queries): the buffer it
/// fills, its metric, and the cut, the bound past which nothing can be kept
/// (from the `k` smallest upper bounds of the points kept, from the far
/// corner of a queued node holding `k` points, from the `k`-th distance
/// settled, or from the maximum distance, whichever is least).
///
/// A point is ranked by its bounds alone while the search runs: it is kept
/// as a candidate if its lower bound does not pass the cut, and its upper
/// bound may lower the cut. Its distance (five calls to the maths library)
/// is taken when the search ends, for the candidates still within the cut:
/// about `k` of them, where it was taken for every point that passed the
/// cut on the way (174 a search for 100 kept, 1M uniform points). Every
/// point of the answer is among them: the cut is never below the `k`-th
/// smallest distance's value in bound space.
///
/// Bounds cannot tell tied points apart: a thousand copies of one place
/// all pass a cut set by their own upper bound. When the bounds stop
/// thinning the candidates, the search settles them (``settle()``): it
/// takes their distances, keeps the `k` nearest, ties to the earlier point,
/// and cuts at the `k`-th distance. So the work on ties stays linear in the
/// points offered, and a run of points at one place (``considerRun(x:y:ids:count:)``,
/// which the trees offer for a subtree or leaf whose points all lie there)
/// costs O(`k`), or O(1) once `k` nearer or earlier ones are settled.
@usableFromInline
struct _NearestSearch<M: _NearestMetric> {
  @usableFromInline var buffer: NearestBuffer
  @usableFromInline let metric: M
  @usableFromInline let k: Int
  @usableFromInline let maxDistance: Double
  @usableFromInline var cut: Double
  /// The candidates' count at which those past the cut are dropped.
  @usableFromInline var tidyAt: Int
  /// Whether identical positions count once (``NearestBuffer/distinctPositions``).
  /// Then neither the upper bounds nor a node's corner may set the cut, as
  /// `k` points may be one position; only settled distances do.
  @usableFromInline let distinct: Bool
  /// The `k`-th settled point once `k` are settled (NaN before): a copy of
  /// it later in the input cannot be kept, and is dropped as it comes
  /// rather than at the next settling. An index that keeps copies of one
  /// place unordered (a grid cell, a quadtree bucket) still reads each,
  /// but a copy then costs two compares.
  @usableFromInline var lastX = Double.nan, lastY = Double.nan
  @usableFromInline var lastID: Int32 = 0

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
    distinct = self.buffer.distinctPositions
  }

  @inlinable @inline(__always)
  static func tidySize(_ k: Int) -> Int { 2 &* Swift.max(k, 32) }

  /// Takes the distances of the candidates within the cut, keeps the `k`
  /// nearest (ties by the smaller id) in order, and hands the buffer back.
  @inlinable
  mutating func end(into buffer: inout NearestBuffer) {
    if self.buffer.settled.isEmpty && !distinct {
      // the usual end: about k candidates, sorted by bucket
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
    } else {
      settle()
      self.buffer.neighbors.removeAll(keepingCapacity: true)
      for c in self.buffer.settled { self.buffer.neighbors.append(Neighbor(id: c.id, distance: c.bound)) }
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
    guard bound <= cut, !(x == lastX && y == lastY && id > lastID) else { return }
    buffer.candidates.append(_NearestCandidate(bound: bound, x: x, y: y, id: id))
    if !distinct { cut = Swift.min(cut, buffer.offerUpper(metric.upper(x: x, y: y), k: k)) }
    if buffer.candidates.count >= tidyAt { tidy() }
  }

  /// Drops the candidates past the cut; when that leaves most of them (they
  /// tie, or lie too close together for bounds to order), settles them.
  @inlinable
  mutating func tidy() {
    buffer.dropCandidates(beyond: cut)
    if distinct || buffer.candidates.count >= Self.tidySize(k) / 2 { settle() }
    tidyAt = buffer.candidates.count &+ Self.tidySize(k)
  }

  /// Takes the distances of the candidates within the cut, ranks them with
  /// those settled before (nearest first, ties to the smaller id, one point
  /// a position when `distinct`), keeps the first `k`, and once it holds
  /// `k`, cuts at the `k`-th distance: a point farther cannot be kept, and
  /// one as far is kept only until the next settling finds its id larger.
  @inlinable
  mutating func settle() {
    let cut = self.cut, maxDistance = self.maxDistance, metric = self.metric
    var x = Double.nan, y = Double.nan, d = 0.0
    for c in buffer.candidates where c.bound <= cut {
      // copies come in runs: one distance a run
      if c.x != x || c.y != y { (x, y, d) = (c.x, c.y, metric.distance(x: c.x, y: c.y)) }
      if d <= maxDistance { buffer.settled.append(_NearestCandidate(bound: d, x: c.x, y: c.y, id: c.id)) }
    }
    buffer.candidates.removeAll(keepingCapacity: true)
    buffer.rankSettled(keeping: k, distinct: distinct)
    if buffer.settled.count == k, k > 0 {
      let last = buffer.settled[k &- 1]
      self.cut = Swift.min(cut, metric.cut(last.bound))
      if !distinct { (lastX, lastY, lastID) = (last.x, last.y, last.id) }
    }
  }

  /// Offers `count` points that all lie at (`x`, `y`), their ids ascending:
  /// at most the first `k` can be kept (one when positions are distinct),
  /// and none when `k` settled points are nearer, or as near and earlier.
  ///
  /// - Returns: the points it looked at (for the counters): one when the
  ///   run adds nothing, else those it offered.
  @inlinable @discardableResult
  mutating func considerRun(x: Double, y: Double, ids: UnsafePointer<Int32>, count: Int) -> Int {
    let bound = metric.bound(x: x, y: y)
    guard count > 0, bound <= cut else { return 1 }
    if distinct || count == 1 {
      consider(bound: bound, x: x, y: y, id: ids[0])
      return 1
    }
    if buffer.settled.count &+ buffer.candidates.count >= k { settle() }
    if buffer.settled.count == k, k > 0 {
      let last = buffer.settled[k &- 1], d = metric.distance(x: x, y: y)
      if d > last.bound || (d == last.bound && ids[0] > last.id) { return 1 }
    }
    let offered = Swift.min(k, count)
    for j in 0..<offered { consider(bound: bound, x: x, y: y, id: ids[j]) }
    return offered
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
  /// order. (Taking the smallest bound again and again cost 64 comparisons
  /// a point kept: 12% of a `bench speed --nearest` run under `perf`.)
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

  /// Considers the points at `range`, sorted by position (`x`, then `y`)
  /// and by id among equal positions, a run of one position at a time
  /// (``considerRun(x:y:ids:count:)``): a leaf that holds copies of one
  /// place costs its runs, not its points. A run's end is found by
  /// galloping, so a run of `m` costs O(log `m`).
  ///
  /// - Returns: the points it looked at, as ``considerRun(x:y:ids:count:)`` counts them.
  @inlinable @discardableResult
  mutating func considerSortedLeaf(_ xy: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>) -> Int {
    var looked = 0
    var i = range.lowerBound
    while i < range.upperBound {
      let x = xy[2 &* i], y = xy[2 &* i &+ 1]
      let high = _endOfCopies(xy, from: i, to: range.upperBound)
      looked &+= considerRun(x: x, y: y, ids: ids + i, count: high &- i)
      i = high
    }
    return looked
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
    if count >= k && !distinct {
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
