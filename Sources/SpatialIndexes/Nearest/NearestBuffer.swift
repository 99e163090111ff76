/// One neighbour found: its id and its great-circle distance in metres.
@frozen
public struct Neighbor: Hashable, Sendable {
  /// The point's id: its position in the array the index was built from.
  public var id: Int32
  /// Metres from the position searched, on the sphere (``GreatCircle/distance(_:_:)``).
  public var distance: Double

  @inlinable
  package init(id: Int32, distance: Double) {
    self.id = id
    self.distance = distance
  }
}

/// The answer of a k-nearest search and the working storage that found it.
///
/// Pass the same buffer to every search: its arrays keep their capacity,
/// so once they have grown to a query's needs a search allocates nothing.
public struct NearestBuffer: Sendable {
  /// The last search's neighbours, nearest first, ties by the smaller id
  /// (each search replaces them).
  public var neighbors: [Neighbor] = []
  /// A best-first search's queue of nodes, a binary heap on their bounds.
  @usableFromInline var queue: [_NearestNode] = []
  /// The k-d tree's queued subtrees, which its queue entries point into.
  @usableFromInline var regions: [_NearestRegion] = []
  /// The points a search has kept so far, ranked by bounds only (see
  /// ``_NearestSearch``); their distances are taken when it ends.
  @usableFromInline var candidates: [_NearestCandidate] = []
  /// The `k` smallest upper bounds of the candidates, a max-heap: its root
  /// is the search's cut once it holds `k`.
  @usableFromInline var uppers: [Double] = []
  /// Candidates whose distance a search has taken before it ends (in
  /// `bound`, which holds the distance there), the nearest first and at
  /// most `k`: see ``_NearestSearch/settle()``.
  @usableFromInline var settled: [_NearestCandidate] = []
  /// Whether a search counts identical positions once, by their earliest
  /// point: a tap ranks positions on screen, where such points tie, so the
  /// `k` it asks for are `k` places, not `k` copies of one place.
  @usableFromInline package var distinctPositions = false
  /// ``sortNeighbors()``'s buckets and counts.
  @usableFromInline var sortScratch: [Neighbor] = []
  @usableFromInline var sortCounts: [Int] = []

  /// An empty buffer; its storage grows to the largest search it serves.
  public init() {}

  // The heaps below move a hole rather than swap (one store a level, not
  // three) and work through buffer pointers: `swapAt` on the arrays
  // checked uniqueness at every level, which `perf` showed as the search's
  // largest cost.

  /// Puts the neighbours in order, nearest first, ties by the smaller id.
  ///
  /// A bucket sort on the squared distance (as many buckets as neighbours:
  /// around a position the neighbours of a 2-D spread fill the squared
  /// distance about evenly), then each bucket in order by insertion, or by
  /// ``_sortRange(_:_:_:by:)`` when crowded (duplicates share one). Comparison
  /// sorts, every step a mispredicted branch, cost 3.5-5 µs for 100
  /// neighbours on this machine, the bucket sort 1.2 µs.
  @inlinable
  package mutating func sortNeighbors() {
    let n = neighbors.count
    guard n > 1 else { return }
    if n <= 16 {
      neighbors.withUnsafeMutableBufferPointer { _insertionSort($0.baseAddress!, 0, n &- 1, by: Self.isNearer) }
      return
    }
    if sortScratch.count < n {
      sortScratch = Array(repeating: Neighbor(id: 0, distance: 0), count: Swift.max(n, 2 &* sortScratch.count))
      sortCounts = Array(repeating: 0, count: sortScratch.count &+ 1)
    }
    neighbors.withUnsafeMutableBufferPointer { all in
      sortScratch.withUnsafeMutableBufferPointer { scratch in
        sortCounts.withUnsafeMutableBufferPointer { counts in
          let a = all.baseAddress!, s = scratch.baseAddress!
          var farthest = 0.0
          for i in 0..<n { farthest = Swift.max(farthest, a[i].distance) }
          // below n: the product rounds up by at most an ulp (one bucket
          // for all when the squares underflow)
          let ratio = Double(n) / (farthest * farthest) * (1 - 1e-9)
          let scale = ratio.isFinite ? ratio : 0
          @inline(__always) func bucket(_ d: Double) -> Int { Int(d * d * scale) }
          for b in 0...n { counts[b] = 0 }
          for i in 0..<n { counts[bucket(a[i].distance) &+ 1] &+= 1 }
          for b in 0..<n { counts[b &+ 1] &+= counts[b] }
          // counts[b] is where bucket b starts; after the scatter, where it ends
          for i in 0..<n {
            let b = bucket(a[i].distance)
            s[counts[b]] = a[i]
            counts[b] &+= 1
          }
          a.update(from: s, count: n)
          var start = 0
          for b in 0..<n {
            let end = counts[b]
            if end &- start > 16 {
              _sortRange(a, start, end &- 1, by: Self.isNearer)
            } else if end &- start > 1 {
              _insertionSort(a, start, end &- 1, by: Self.isNearer)
            }
            start = end
          }
        }
      }
    }
  }

  /// Whether `a` ranks before `b`: nearer, or as near with a smaller id.
  @inlinable @inline(__always)
  static func isNearer(_ a: Neighbor, _ b: Neighbor) -> Bool {
    a.distance < b.distance || (a.distance == b.distance && a.id < b.id)
  }

  @inlinable
  mutating func push(_ node: _NearestNode) {
    queue.append(node)
    queue.withUnsafeMutableBufferPointer { heap in
      var i = heap.count &- 1
      while i > 0 {
        let parent = (i &- 1) / 2
        guard node.bound < heap[parent].bound else { break }
        heap[i] = heap[parent]
        i = parent
      }
      heap[i] = node
    }
  }

  /// The node of smallest bound, removed from the queue.
  @inlinable
  mutating func pop() -> _NearestNode? {
    guard let last = queue.popLast() else { return nil }
    guard !queue.isEmpty else { return last }
    return queue.withUnsafeMutableBufferPointer { heap in
      let first = heap[0]
      let end = heap.count
      var i = 0
      while true {
        let l = 2 &* i &+ 1
        guard l < end else { break }
        var c = l
        if l &+ 1 < end && heap[l &+ 1].bound < heap[l].bound { c = l &+ 1 }
        guard heap[c].bound < last.bound else { break }
        heap[i] = heap[c]
        i = c
      }
      heap[i] = last
      return first
    }
  }

  /// Empties the working arrays and the answer, keeping their storage.
  @inlinable
  mutating func reset() {
    neighbors.removeAll(keepingCapacity: true)
    queue.removeAll(keepingCapacity: true)
    regions.removeAll(keepingCapacity: true)
    candidates.removeAll(keepingCapacity: true)
    settled.removeAll(keepingCapacity: true)
    uppers.removeAll(keepingCapacity: true)
  }

  /// Adds `upper` to the max-heap of the `k` smallest upper bounds; returns
  /// the heap's root once it holds `k` (the `k`-th smallest so far), else
  /// infinity.
  @inlinable @inline(__always)
  mutating func offerUpper(_ upper: Double, k: Int) -> Double {
    if uppers.count < k {
      uppers.append(upper)
      uppers.withUnsafeMutableBufferPointer { heap in
        var i = heap.count &- 1
        while i > 0 {
          let parent = (i &- 1) / 2
          guard upper > heap[parent] else { break }
          heap[i] = heap[parent]
          i = parent
        }
        heap[i] = upper
      }
      return uppers.count == k ? uppers[0] : .infinity
    }
    return uppers.withUnsafeMutableBufferPointer { heap in
      guard upper < heap[0] else { return heap[0] }
      var i = 0
      let end = heap.count
      while true {
        let l = 2 &* i &+ 1
        guard l < end else { break }
        var c = l
        if l &+ 1 < end && heap[l &+ 1] > heap[l] { c = l &+ 1 }
        guard heap[c] > upper else { break }
        heap[i] = heap[c]
        i = c
      }
      heap[i] = upper
      return heap[0]
    }
  }

  /// Puts ``settled`` in order (nearest first, ties to the smaller id),
  /// drops a point at a position an earlier one holds when `distinct`, and
  /// keeps the first `k`.
  @inlinable
  mutating func rankSettled(keeping k: Int, distinct: Bool) {
    let kept = settled.withUnsafeMutableBufferPointer { all -> Int in
      guard let a = all.baseAddress, all.count > 1 else { return all.count }
      @inline(__always) func nearer(_ p: _NearestCandidate, _ q: _NearestCandidate) -> Bool {
        p.bound < q.bound || (p.bound == q.bound && p.id < q.id)
      }
      _sortRange(a, 0, all.count &- 1, by: nearer)
      guard distinct else { return all.count }
      // a position's copies share its distance: look back over the run of
      // that distance only
      var kept = 0, runStart = 0
      for i in 0..<all.count {
        let c = all[i]
        if kept == 0 || all[kept &- 1].bound != c.bound { runStart = kept }
        var copy = false
        for j in runStart..<kept where all[j].x == c.x && all[j].y == c.y {
          copy = true
          break
        }
        if !copy {
          all[kept] = c
          kept &+= 1
        }
      }
      return kept
    }
    let keep = Swift.min(kept, Swift.max(0, k))
    settled.removeLast(settled.count &- keep)
  }

  /// Drops the candidates whose bound passes `cut`, keeping the order.
  @inlinable
  mutating func dropCandidates(beyond cut: Double) {
    let kept = candidates.withUnsafeMutableBufferPointer { all in
      var kept = 0
      for i in 0..<all.count where all[i].bound <= cut {
        all[kept] = all[i]
        kept &+= 1
      }
      return kept
    }
    candidates.removeLast(candidates.count &- kept)
  }
}

/// A point a search keeps while it runs: its lower bound in the metric's
/// bound space, its coordinates (for its distance at the end) and its id.
@frozen @usableFromInline
struct _NearestCandidate: Sendable {
  @usableFromInline var bound: Double
  @usableFromInline var x: Double
  @usableFromInline var y: Double
  @usableFromInline var id: Int32

  @inlinable @inline(__always)
  init(bound: Double, x: Double, y: Double, id: Int32) {
    self.bound = bound
    self.x = x
    self.y = y
    self.id = id
  }
}

/// A node waiting in a best-first search, 16 bytes so the heap moves
/// little: the lower bound on the distance of its points, where it is in
/// its tree (`node`, `level`: each tree says), and whether the bound is
/// already the tight one (``_NearestMetric/tightBound(minX:minY:maxX:maxY:)``).
@frozen @usableFromInline
struct _NearestNode: Sendable {
  @usableFromInline var bound: Double
  @usableFromInline var node: Int32
  @usableFromInline var level: Int16
  @usableFromInline var tight: Bool

  @inlinable @inline(__always)
  init(bound: Double, node: Int, level: Int = 0, tight: Bool = false) {
    self.bound = bound
    self.node = Int32(truncatingIfNeeded: node)
    self.level = Int16(truncatingIfNeeded: level)
    self.tight = tight
  }
}

/// A k-d subtree a search has queued, kept beside the queue (its region
/// would make every queue entry four times larger): as the range walk's
/// frame, its split point, first leaf point, size, split points, split
/// axis (0 for x) and region.
@frozen @usableFromInline
struct _NearestRegion: Sendable {
  @usableFromInline var split: Int32
  @usableFromInline var leaf: Int32
  @usableFromInline var size: Int32
  @usableFromInline var splits: Int32
  @usableFromInline var axis: Int32
  @usableFromInline var box: Rect

  @inlinable @inline(__always)
  init(split: Int, leaf: Int, size: Int, splits: Int, axis: Int, box: Rect) {
    self.split = Int32(truncatingIfNeeded: split)
    self.leaf = Int32(truncatingIfNeeded: leaf)
    self.size = Int32(truncatingIfNeeded: size)
    self.splits = Int32(truncatingIfNeeded: splits)
    self.axis = Int32(truncatingIfNeeded: axis)
    self.box = box
  }
}
