extension HilbertRTree {
  /// The tree's five arrays as raw pointers, taken once for a whole query
  /// (``HilbertRTree/search(_:_:_:_:)``).
  ///
  /// Positions follow from the packing (the invariant checker verifies it),
  /// so the pointers are read without bounds checks.
  @usableFromInline
  struct _Storage {
    /// Coordinates interleaved, `x` then `y`, in Hilbert order.
    @usableFromInline let xy: UnsafePointer<Double>
    /// The id of each point, in the same order.
    @usableFromInline let ids: UnsafePointer<Int32>
    /// Every node's box, level after level (see ``HilbertRTree/boxes``).
    @usableFromInline let boxes: UnsafePointer<Double>
    /// Where each level starts in `boxes`, in nodes.
    @usableFromInline let levelStarts: UnsafePointer<Int>
    /// Points under one node of each level.
    @usableFromInline let spans: UnsafePointer<Int>
    @usableFromInline let pointCount: Int
    @usableFromInline let levelCount: Int
    @usableFromInline let nodeSize: Int

    /// The arrays' buffers, which must not be empty (an empty array has no
    /// address).
    @inlinable @inline(__always)
    init(
      xy: UnsafeBufferPointer<Double>, ids: UnsafeBufferPointer<Int32>, boxes: UnsafeBufferPointer<Double>,
      levelStarts: UnsafeBufferPointer<Int>, spans: UnsafeBufferPointer<Int>, nodeSize: Int
    ) {
      self.xy = xy.baseAddress!
      self.ids = ids.baseAddress!
      self.boxes = boxes.baseAddress!
      self.levelStarts = levelStarts.baseAddress!
      self.spans = spans.baseAddress!
      pointCount = ids.count
      levelCount = levelStarts.count &- 1
      self.nodeSize = nodeSize
    }

    /// The box of node `node` of `level`.
    @inlinable @inline(__always)
    func box(level: Int, node: Int) -> Rect {
      let b = boxes + 4 &* (levelStarts[level] &+ node)
      return Rect(minX: b[0], minY: b[1], maxX: b[2], maxY: b[3])
    }

    /// The positions of the points under node `node` of `level`: one run.
    @inlinable @inline(__always)
    func points(level: Int, node: Int) -> Range<Int> {
      let span = spans[level]
      let first = node &* span
      return Range(uncheckedBounds: (first, Swift.min(pointCount, first &+ span)))
    }

    /// The children of node `node` of `level`, as node numbers of the level
    /// below.
    @inlinable @inline(__always)
    func children(level: Int, node: Int) -> Range<Int> {
      let belowCount = levelStarts[level] &- levelStarts[level &- 1]
      let first = node &* nodeSize
      return Range(uncheckedBounds: (first, Swift.min(belowCount, first &+ nodeSize)))
    }
  }
}
