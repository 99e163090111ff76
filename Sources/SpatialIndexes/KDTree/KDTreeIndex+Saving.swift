extension KDTreeIndex {
  /// The sections of a saved k-d tree: the points' coordinates and ids in
  /// the tree's order. The shape, the bounds and the runs follow from them.
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
  /// - Complexity: O(*n*): one read of each array, its checksum, and a
  ///   check that the ids are a permutation and the coordinates finite.
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
  /// ids are read either way: a walk indexes memory with them, so they are
  /// checked where nothing can change them.
  package init(
    contentsOf path: String, map: Bool, timings: inout SavedOpenTimings, externalIDs: inout [UInt64]?
  ) throws(SavedIndexError) {
    self = try Self._open(
      path, layouts: Self.savedLayouts, map: map ? 0..<1 : nil, timings: &timings, externalIDs: &externalIDs,
      read: { file throws(SavedIndexError) in (try file.mapped(0, as: Double.self), try file.read(1, as: Int32.self)) },
      make: { sections, parameters, pointCount throws(SavedStructureProblem) in
        try SavedStructure.checkUnusedParameters(parameters, used: 1)
        let (coords, ids) = sections
        return try Self(savedCoords: coords, ids: ids, nodeSize: Int(parameters[0]), pointCount: pointCount)
      })
  }

  /// A tree from its saved arrays, checked so that every walk stays in
  /// bounds: the node size in range, `pointCount` points, each id once, no
  /// coordinate NaN or infinite. The split points, leaves and runs then
  /// follow from the shape, which depends on the count alone.
  init(savedCoords coords: _FlatArray<Double>, ids: [Int32], nodeSize: Int, pointCount: Int) throws(SavedStructureProblem) {
    guard (1...65536).contains(nodeSize) else { throw .init("nodeSize \(nodeSize) is not in 1...65536") }
    guard coords.count == 2 * pointCount else {
      throw .init("\(coords.count) coordinates for \(pointCount) points")
    }
    try SavedStructure.checkPermutation(ids, of: pointCount, "ids")
    try SavedStructure.checkFinite(coords, "points")
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

  /// The points by id, as the tree was built from them.
  package func _pointsByID() -> [Point] { SpatialIndexes._pointsByID(coords: coords, ids: ids) }
}
