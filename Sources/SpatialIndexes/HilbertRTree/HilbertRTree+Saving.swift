extension HilbertRTree {
  /// Writes the tree, with its points, to `path` (docs/formats.md, "Saved
  /// index"): their coordinates and ids in Hilbert order (``SavedPointTree``).
  /// The node boxes follow from them in one O(*n*) pass and are computed
  /// again on opening rather than stored and checked. A file already there
  /// is replaced once the new one is complete.
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
  /// - Complexity: O(*n*): one read of each array, its checksum, a check
  ///   that the ids are a permutation and the coordinates finite, and the
  ///   node boxes packed again (no sort).
  public init(contentsOf path: String) throws(SavedIndexError) {
    try self.init(_mappedContentsOf: path)
  }

  /// A tree from its saved arrays: the node size in range, the points
  /// checked, the boxes packed into memory from the coordinates. Any order
  /// of points gives boxes that hold them, so the answers are right
  /// whatever the file's order; the Hilbert order only makes them fast.
  package init(savedCoords coords: _FlatArray<Double>, ids: [Int32], nodeSize: Int, pointCount: Int) throws(SavedStructureProblem) {
    guard (2...256).contains(nodeSize), var tree = try? Self(points: [], parameters: Parameters(nodeSize: nodeSize)) else {
      throw .init("nodeSize \(nodeSize) is not in 2...256")
    }
    try SavedStructure.checkPoints(coords, ids, pointCount: pointCount)
    tree.coords = coords
    tree.ids = ids
    if pointCount > 0 { tree.packBoxes() }
    self = tree
  }

  package var _savedPoints: (nodeSize: Int, coords: _FlatArray<Double>, ids: [Int32]) {
    (parameters.nodeSize, coords, ids)
  }
}
