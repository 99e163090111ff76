import _SpatialIndexesShims

extension KDTreeIndex {
  /// Leaves the walk has met but not scanned yet.
  ///
  /// Memory, not arithmetic, bounds a query over 1M points: a leaf's points
  /// are rarely in cache. So the walk does not scan a leaf when it meets it.
  /// It asks for the leaf's lines and queues it, and the queue is scanned
  /// when it is full or the walk is over. By then the loads have overlapped
  /// instead of following one another. 8 to 32 places measured alike (a
  /// 1e-4 query meets about 5 leaves).
  @usableFromInline
  struct _LeafQueue {
    @usableFromInline var leaves: _Stack16<(start: Int32, size: Int32)>
    @usableFromInline var count: Int

    @inlinable @inline(__always)
    init() {
      leaves = _Stack16(repeating: (0, 0))
      count = 0
    }

    /// Prefetches the leaf of `size` points at `start` (its coordinates in
    /// `xy`, its ids in `ids`) and queues it. True when the queue is full.
    @inlinable @inline(__always)
    mutating func add(
      _ start: Int, _ size: Int, _ xy: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>
    ) -> Bool {
      var i = start
      while i < start &+ size {  // 4 points a 64-byte line
        _spatialPrefetch(xy + 2 &* i)
        i &+= 4
      }
      i = start
      while i < start &+ size {  // 16 ids a line
        _spatialPrefetch(ids + i)
        i &+= 16
      }
      leaves[count] = (Int32(truncatingIfNeeded: start), Int32(truncatingIfNeeded: size))
      count &+= 1
      return count == leaves.count
    }

    /// Scans the queued leaves, oldest first, and empties the queue.
    /// False when `scan` stops the query.
    @inlinable @inline(__always)
    mutating func scanAll(_ scan: (_ start: Int, _ size: Int) -> Bool) -> Bool {
      for k in 0..<count where !scan(Int(leaves[k].start), Int(leaves[k].size)) {
        return false
      }
      count = 0
      return true
    }
  }
}
