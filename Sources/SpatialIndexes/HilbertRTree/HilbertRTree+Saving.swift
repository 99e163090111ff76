extension HilbertRTree {
  /// The sections of a saved R-tree: the points' coordinates and ids in
  /// Hilbert order. The node boxes follow from them in one O(*n*) pass and
  /// are computed again on opening rather than stored and checked.
  static let savedLayouts = [SavedSectionLayout("XY  ", elementSize: 8), SavedSectionLayout("IDS ", elementSize: 4)]

  /// Writes the tree, with its points, to `path` (docs/formats.md, "Saved
  /// index"); a file already there is replaced once the new one is complete.
  ///
  /// - Complexity: O(*n*): the arrays as they are, and their checksums.
  public func save(to path: String) throws(SavedIndexError) {
    try _savedFile.write(to: path)
  }

  /// The file ``save(to:)`` writes, ready to write.
  package var _savedFile: SavedFileWriter {
    SavedFileWriter(
      kind: Self.name, pointCount: count, parameters: [UInt32(parameters.nodeSize)],
      sections: [(Self.savedLayouts[0], .doubles(coords.array)), (Self.savedLayouts[1], .int32s(ids))])
  }

  /// Opens a tree saved by ``save(to:)``: it answers every query as the
  /// tree that was saved. Nothing in the file is trusted: a file that is
  /// truncated, corrupt, of another kind or version, or checksummed but
  /// not a tree a build makes, throws an error naming it.
  ///
  /// - Complexity: O(*n*): one read of each array, its checksum, a check
  ///   that the ids are a permutation and the coordinates finite, and the
  ///   node boxes packed again (no sort).
  public init(contentsOf path: String) throws(SavedIndexError) {
    var timings = SavedOpenTimings()
    var externalIDs: [UInt64]? = nil
    try self.init(contentsOf: path, timings: &timings, externalIDs: &externalIDs)
  }

  /// ``init(contentsOf:)``, noting in `timings` how long the reads, the
  /// checksums and the structural checks took, and handing back the
  /// points' external ids when the file holds them (`EXID`).
  package init(
    contentsOf path: String, timings: inout SavedOpenTimings, externalIDs: inout [UInt64]?
  ) throws(SavedIndexError) {
    try self.init(contentsOf: path, map: true, timings: &timings, externalIDs: &externalIDs)
  }

  /// The same, the coordinates mapped from the file with `map` where the
  /// system can map it (``SavedMapping``), read into memory without. The
  /// ids are read either way, and the node boxes computed into memory: a
  /// walk indexes memory with them, so they are checked, or made, where
  /// nothing can change them.
  package init(
    contentsOf path: String, map: Bool, timings: inout SavedOpenTimings, externalIDs: inout [UInt64]?
  ) throws(SavedIndexError) {
    self = try Self._open(
      path, layouts: Self.savedLayouts, map: map ? 0..<1 : nil, timings: &timings, externalIDs: &externalIDs,
      read: { file throws(SavedIndexError) in (try file.mapped(0, as: Double.self), try file.read(1, as: Int32.self)) },
      make: { sections, parameters, pointCount throws(SavedStructureProblem) in
        let (coords, ids) = sections
        try SavedStructure.checkUnusedParameters(parameters, used: 1)
        let nodeSize = Int(parameters[0])
        guard (2...256).contains(nodeSize) else { throw .init("nodeSize \(nodeSize) is not in 2...256") }
        guard coords.count == 2 * pointCount else {
          throw .init("\(coords.count) coordinates for \(pointCount) points")
        }
        try SavedStructure.checkPermutation(ids, of: pointCount, "ids")
        try SavedStructure.checkFinite(coords, "points")
        guard var tree = try? Self(points: [], parameters: Parameters(nodeSize: nodeSize)) else {
          throw .init("nodeSize \(nodeSize) is refused")
        }
        tree.coords = coords
        tree.ids = ids
        // Any order of points gives boxes that hold them, so the answers are
        // right whatever the file's order; the Hilbert order only makes them fast.
        if pointCount > 0 { tree.packBoxes() }
        return tree
      })
  }

  /// The points by id, as the tree was built from them.
  package func _pointsByID() -> [Point] { SpatialIndexes._pointsByID(coords: coords, ids: ids) }
}
