// k-nearest among copies. A leaf at the depth cap takes any number of
// points, and copies of one place all end there: through range queries
// (the protocol's default search) every copy is reported and read, O(n)
// a search. Sorted by position, then id, a crowded leaf's copies of a
// place lie together in input order, and a search takes the first `k` of
// them and skips the rest by galloping (``_NearestSearch/considerSortedLeaf(_:_:_:)``).

extension BucketQuadtree {
  /// Marks a sorted crowded leaf's record (in place of its -1 first child).
  @usableFromInline static let sortedLeaf: Int32 = -2

  /// The search through range queries
  /// (``SpatialIndex/nearestThroughRanges(to:k:maxDistance:into:counters:point:)``'s,
  /// each point read beside its id in the buckets) while no leaf is crowded; otherwise the same circles, widened fourfold
  /// from the same first radius, walked here: each bucket whose box meets
  /// them is offered whole, and a sorted crowded leaf a run of copies at a
  /// time.
  ///
  /// - Complexity: as the default; on `n` copies of one place, O(`k` +
  ///   depth · `capacity`) a circle instead of O(`n`).
  @inlinable
  public func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double,
    into buffer: inout NearestBuffer, counters: inout C
  ) {
    guard hasCrowdedLeaves else {
      _nearestThroughRanges(to: position, k: k, maxDistance: maxDistance, into: &buffer, counters: &counters) {
        rect, counters, consider in _forEachPoint(in: rect, counters: &counters, consider)
      }
      return
    }
    buffer.reset()
    guard let center = _nearestCenter(position, k: k, maxDistance: maxDistance, count: count) else { return }
    let area = 4 * Double.pi * GreatCircle.earthRadius * GreatCircle.earthRadius
    var radius = Swift.min(maxDistance, Swift.max(1, (area * Double(k) / Double(count) / .pi).squareRoot()))
    let metric = _SphereMetric(center: center)
    while true {
      var search = _NearestSearch(taking: &buffer, metric: metric, k: k, maxDistance: radius)
      let (first, second) = GreatCircle.boxes(around: center, radius: radius)
      _nearestWalk(first, second ?? first, &search, &counters)
      search.end(into: &buffer)
      let everywhere = radius >= .pi * GreatCircle.earthRadius
      if buffer.neighbors.count >= k || radius >= maxDistance || everywhere { break }
      radius = Swift.min(maxDistance, radius * 4)
    }
  }

  /// Offers the points of every bucket whose node's box meets `first` or
  /// `second` (a circle's boxes, split at the antimeridian) and does not
  /// lie past the search's cut, once: whole buckets (points outside the
  /// circle are farther than its radius, the search's maximum distance, and
  /// are dropped), sorted crowded leaves a run at a time.
  @inlinable
  func _nearestWalk<C: QueryCounters>(
    _ first: Rect, _ second: Rect, _ search: inout _NearestSearch<_SphereMetric>, _ counters: inout C
  ) {
    @inline(__always) func meets(_ box: Rect) -> Bool {
      (first.isValid && first.intersects(box)) || (second.isValid && second.intersects(box))
    }
    guard liveCount > 0, meets(bounds) else { return }
    var stack = _Stack(repeating: Frame())
    var visited = 0, tested = 0
    nodes.withUnsafeBufferPointer { nodes in
      coords.withUnsafeBufferPointer { xy in
        ids.withUnsafeBufferPointer { ids in
          let nodeBase = nodes.baseAddress!
          stack[0] = Frame(box: bounds, record: nodeBase, end: 0, inside: false)
          var top = 1
          while top > 0 {
            top &-= 1
            let frame = stack[top]
            let b = frame.box
            guard search.metric.bound(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY) <= search.cut
            else { continue }
            visited &+= 1
            let start = Int(frame.start), n = Int(frame.count)
            if n > 0 {
              let range = start..<(start &+ n)
              if frame.firstChild == Self.sortedLeaf {
                tested &+= search.considerSortedLeaf(xy.baseAddress!, ids.baseAddress!, range)
              } else if Self.isRun(xy.baseAddress!, ids.baseAddress!, range) {
                // a bucket above a crowded leaf: copies, first come first kept;
                // later copies of the k-th kept cannot be kept, and their
                // distance is not taken again
                tested &+= n
                let x = xy[2 &* start], y = xy[2 &* start &+ 1]
                if !(x == search.lastX && y == search.lastY && ids[start] > search.lastID) {
                  search.considerRun(x: x, y: y, ids: ids.baseAddress! + start, count: n)
                }
              } else {
                tested &+= n
                search.considerLeaf(xy.baseAddress!, ids.baseAddress!, range)
              }
            }
            guard frame.firstChild >= 0 else { continue }
            let children = nodeBase + Int(frame.firstChild) &* Field.stride
            let c = Self.center(of: b)
            for q in (0..<4).reversed() {
              let record = children + q &* Field.stride
              if record[Field.bucketCount] == 0 && record[Field.firstChild] < 0 { continue }
              let box = Self.quadrantBox(b, c, q)
              if meets(box) {
                stack[top] = Frame(box: box, record: record, end: 0, inside: false)
                top &+= 1
              }
            }
          }
        }
      }
    }
    counters.visitNodes(visited)
    counters.testPoints(tested)
  }

  /// Whether the points at `range` all lie at one position, ids ascending:
  /// copies fill every bucket on their way down to the depth cap, each
  /// with the first to arrive. Compares cost less than the points' bounds.
  @inlinable @inline(__always)
  static func isRun(_ xy: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ range: Range<Int>) -> Bool {
    let start = range.lowerBound
    guard range.count > 1 else { return false }
    let x = xy[2 &* start], y = xy[2 &* start &+ 1]
    var same = true
    for i in (start &+ 1)..<range.upperBound {
      same = same && xy[2 &* i] == x && xy[2 &* i &+ 1] == y && ids[i &- 1] < ids[i]
    }
    return same
  }

  /// Forgets that `node`'s bucket is sorted: a change to it does not keep
  /// the order. It is read point by point until the next ``compact()``.
  @inline(__always)
  mutating func markUnsorted(_ node: Int) {
    let r = node * Field.stride + Field.firstChild
    if nodes[r] == Self.sortedLeaf { nodes[r] = -1 }
  }

  /// Sorts the bucket of every leaf holding more than `capacity` points (at
  /// the depth cap) by position (`x`, then `y`), then id, and marks it
  /// ``sortedLeaf``. A build keeps input order within a bucket, so a leaf
  /// of copies is already sorted and costs one pass.
  ///
  /// - Complexity: O(nodes), plus O(*m* log *m*) a crowded leaf of *m*
  ///   points not in order.
  mutating func sortCrowdedLeaves() {
    hasCrowdedLeaves = false
    var order: [Int] = []
    for node in 0..<nodeCount {
      let r = node * Field.stride
      let n = Int(nodes[r + Field.bucketCount])
      guard nodes[r + Field.firstChild] < 0, n > capacity else { continue }
      hasCrowdedLeaves = true
      nodes[r + Field.firstChild] = Self.sortedLeaf
      let start = Int(nodes[r + Field.bucketStart]), end = start + n
      if _isSortedByPosition(start..<end, coords: coords, ids: ids) { continue }
      _sortByPosition(start..<end, coords: &coords, ids: &ids, order: &order)
    }
  }
}
