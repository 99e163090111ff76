extension KDTreeIndex {
  /// Writes the tree, with its points, to `path` (docs/formats.md, "Saved
  /// index"): their coordinates and ids in the tree's order, from which the
  /// shape, the bounds and the runs follow (``SavedPointTree``). A file
  /// already there is replaced once the new one is complete.
  ///
  /// - Complexity: O(*n*): the arrays as they are, and their checksums.
  public func save(to path: String) throws(SavedIndexError) {
    try _savedFile.write(to: path)
  }

  /// Opens a tree saved by ``save(to:)``: it answers every query as the
  /// tree that was saved, its coordinates read from the file mapped in
  /// memory where the system maps files. Nothing in the file is trusted: a
  /// file that is truncated, corrupt, of another kind or version, or
  /// checksummed but not a tree a build makes, throws an error naming it.
  ///
  /// - Complexity: O(*n*): one read of each array, its checksum, and a
  ///   check that the ids are a permutation and the coordinates finite.
  public init(contentsOf path: String) throws(SavedIndexError) {
    try self.init(_mappedContentsOf: path)
  }

  /// A tree from its saved arrays, checked so that every walk stays in
  /// bounds: the node size in range, `pointCount` points, each id once, no
  /// coordinate NaN or infinite. The split points, leaves and runs then
  /// follow from the shape, which depends on the count alone.
  package init(savedCoords coords: _FlatArray<Double>, ids: [Int32], nodeSize: Int, pointCount: Int) throws(SavedStructureProblem) {
    guard (1...65536).contains(nodeSize) else { throw .init("nodeSize \(nodeSize) is not in 1...65536") }
    try SavedStructure.checkPoints(coords, ids, pointCount: pointCount)
    parameters = Parameters(nodeSize: nodeSize)
    self.coords = coords
    self.ids = ids
    splitCount = Self._splitCount(size: pointCount, nodeSize: nodeSize)
    bounds = Rect(minX: 0, minY: 0, maxX: -1, maxY: -1)
    runs = []
    if pointCount > 0 {
      var box = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
      coords.withUnsafeBufferPointer { xy in
        for i in 0..<pointCount {
          box.minX = Swift.min(box.minX, xy[2 &* i]); box.maxX = Swift.max(box.maxX, xy[2 &* i])
          box.minY = Swift.min(box.minY, xy[2 &* i &+ 1]); box.maxY = Swift.max(box.maxY, xy[2 &* i &+ 1])
        }
      }
      bounds = box
    }
    markRuns()
  }

  package var _savedPoints: (nodeSize: Int, coords: _FlatArray<Double>, ids: [Int32]) {
    (parameters.nodeSize, coords, ids)
  }
}
