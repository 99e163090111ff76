/// One neighbour found: its id and its great-circle distance in metres.
@frozen
public struct Neighbor: Hashable, Sendable {
  public var id: Int32
  public var distance: Double

  @inlinable
  public init(id: Int32, distance: Double) {
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

  public init() {}

  /// Neighbours in a max-heap on (distance, id) while a search runs: the
  /// root is the farthest kept, the one a nearer point replaces.
  @inlinable @inline(__always)
  static func isFarther(_ a: Neighbor, _ b: Neighbor) -> Bool {
    a.distance > b.distance || (a.distance == b.distance && a.id > b.id)
  }

  // The heaps below move a hole rather than swap (one store a level, not
  // three) and work through buffer pointers: `swapAt` on the arrays
  // checked uniqueness at every level, which `perf` showed as the search's
  // largest cost.

  /// Keeps `candidate` if fewer than `k` are kept or it is nearer than the
  /// farthest kept (which it then replaces). Returns whether the farthest
  /// kept changed.
  @inlinable
  mutating func offer(_ candidate: Neighbor, k: Int) -> Bool {
    if neighbors.count < k {
      neighbors.append(candidate)
      neighbors.withUnsafeMutableBufferPointer { heap in
        var i = heap.count &- 1
        while i > 0 {
          let parent = (i &- 1) / 2
          guard Self.isFarther(candidate, heap[parent]) else { break }
          heap[i] = heap[parent]
          i = parent
        }
        heap[i] = candidate
      }
      return neighbors.count == k
    }
    guard Self.isFarther(neighbors[0], candidate) else { return false }
    neighbors.withUnsafeMutableBufferPointer { Self.siftDown($0, candidate, 0, $0.count) }
    return true
  }

  /// Puts `element` at the hole `start` of the max-heap `heap[0..<end]` and
  /// moves it down to its place.
  @inlinable @inline(__always)
  static func siftDown(_ heap: UnsafeMutableBufferPointer<Neighbor>, _ element: Neighbor, _ start: Int, _ end: Int) {
    var i = start
    while true {
      let l = 2 &* i &+ 1
      guard l < end else { break }
      var c = l
      if l &+ 1 < end && isFarther(heap[l &+ 1], heap[l]) { c = l &+ 1 }
      guard isFarther(heap[c], element) else { break }
      heap[i] = heap[c]
      i = c
    }
    heap[i] = element
  }

  /// Puts the neighbours in order, nearest first, in place: a quicksort
  /// (median of three), ranges of 17 or fewer sorted by insertion. No buffer,
  /// unlike the standard sort; the heapsort this replaced took 8% of a
  /// `bench speed --nearest` run under `perf`, its every step a coin toss.
  @inlinable
  mutating func sortNeighbors() {
    neighbors.withUnsafeMutableBufferPointer { all in
      guard let base = all.baseAddress, all.count > 1 else { return }
      var low = 0, high = all.count &- 1
      // the larger side waits on a stack of at most log2(n) ranges
      withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: 64) { pending in
        var depth = 0
        while true {
          while high &- low > 16 {
            let middle = low &+ (high &- low) / 2
            if Self.isFarther(base[low], base[middle]) { (base[low], base[middle]) = (base[middle], base[low]) }
            if Self.isFarther(base[middle], base[high]) { (base[middle], base[high]) = (base[high], base[middle]) }
            if Self.isFarther(base[low], base[middle]) { (base[low], base[middle]) = (base[middle], base[low]) }
            let (i, j) = _partition(base, low, high, around: base[middle], by: { Self.isFarther($1, $0) })
            if j &- low < high &- i {
              pending[depth] = (i, high)
              high = j
            } else {
              pending[depth] = (low, j)
              low = i
            }
            depth &+= 1
          }
          _insertionSort(base, low, high, by: { Self.isFarther($1, $0) })
          guard depth > 0 else { break }
          depth &-= 1
          (low, high) = pending[depth]
        }
      }
    }
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

  /// Empties both arrays, keeping their storage.
  @inlinable
  mutating func reset() {
    neighbors.removeAll(keepingCapacity: true)
    queue.removeAll(keepingCapacity: true)
    regions.removeAll(keepingCapacity: true)
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
