/// A tree that saves its points alone (the k-d tree, the Hilbert R-tree):
/// their coordinates (`XY  `) and ids (`IDS `) in the tree's own order, and
/// one parameter, the node size. Everything else the tree holds follows
/// from these (the k-d tree's shape from the count, the R-tree's boxes from
/// the coordinates), so the file holds nothing else, and every such tree
/// opens it the same way: the coordinates mapped where the system can map
/// them, the ids read into memory, then the tree made from them by
/// ``init(savedCoords:ids:nodeSize:pointCount:)``.
package protocol SavedPointTree: SavableIndex {
  /// The node size, the coordinates and the ids, as the file holds them.
  var _savedPoints: (nodeSize: Int, coords: _FlatArray<Double>, ids: [Int32]) { get }

  /// The tree from its saved arrays, its unused parameters checked zero:
  /// throws unless the node size is one a build takes and the points are
  /// ``SavedStructure/checkPoints(_:_:pointCount:)``'s, so that every walk
  /// stays in bounds.
  init(savedCoords coords: _FlatArray<Double>, ids: [Int32], nodeSize: Int, pointCount: Int) throws(SavedStructureProblem)
}

extension SavedPointTree {
  /// The two sections, in file order.
  package static var savedLayouts: [SavedSectionLayout] {
    [SavedSectionLayout("XY  ", elementSize: 8), SavedSectionLayout("IDS ", elementSize: 4)]
  }

  package var _savedFile: SavedFileWriter {
    let (nodeSize, coords, ids) = _savedPoints
    return SavedFileWriter(
      kind: Self.name, pointCount: ids.count, parameters: [UInt32(nodeSize)],
      sections: [(Self.savedLayouts[0], .doubles(coords.array)), (Self.savedLayouts[1], .int32s(ids))])
  }

  /// Opens the tree saved at `path`: the coordinates mapped with `map`
  /// where the system can map them (``SavedMapping``), read into memory
  /// without; the ids read either way, since a walk indexes memory with
  /// them, so they are checked where nothing can change them.
  package init(
    contentsOf path: String, map: Bool, timings: inout SavedOpenTimings, externalIDs: inout [UInt64]?
  ) throws(SavedIndexError) {
    self = try Self._open(
      path, layouts: Self.savedLayouts, map: map ? 0..<1 : nil, timings: &timings, externalIDs: &externalIDs,
      read: { file throws(SavedIndexError) in (try file.mapped(0, as: Double.self), try file.read(1, as: Int32.self)) },
      make: { sections, parameters, pointCount throws(SavedStructureProblem) in
        try SavedStructure.checkUnusedParameters(parameters, used: 1)
        return try Self(savedCoords: sections.0, ids: sections.1, nodeSize: Int(parameters[0]), pointCount: pointCount)
      })
  }

  /// The points by id, as the tree was built from them.
  package func _pointsByID() -> [Point] {
    let (_, coords, ids) = _savedPoints
    var points = [Point](repeating: Point(x: 0, y: 0), count: ids.count)
    for (k, id) in ids.enumerated() { points[Int(id)] = Point(x: coords[2 * k], y: coords[2 * k + 1]) }
    return points
  }
}

extension KDTreeIndex: SavedPointTree {}
extension HilbertRTree: SavedPointTree {}
