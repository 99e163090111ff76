/// An index that saves itself to a file and opens from one (the k-d tree,
/// the Hilbert R-tree and the cell tree): what the bench's `--index-file`
/// and `bench save` reach it through. `package`: an app calls the types'
/// own `save(to:)` and `init(contentsOf:)`.
package protocol SavableIndex: DescribedIndex {
  /// Opens an index saved by ``save(to:)``, checking every byte.
  init(contentsOf path: String) throws(SavedIndexError)
  /// The same, noting how long each part of the open took, and handing
  /// back the points' external ids when the file holds them.
  init(contentsOf path: String, timings: inout SavedOpenTimings, externalIDs: inout [UInt64]?) throws(SavedIndexError)
  /// Writes the index and its points to `path`.
  func save(to path: String) throws(SavedIndexError)
  /// The file ``save(to:)`` writes.
  var _savedFile: SavedFileWriter { get }
  /// The points by id, as the index was built from them.
  func _pointsByID() -> [Point]
}

extension KDTreeIndex: SavableIndex {}
extension HilbertRTree: SavableIndex {}
extension CellTree: SavableIndex {}

/// The kind of index saved at `path` (its catalogue name: `kdtree`,
/// `rtree`, `celltree`), from the header alone, its checksum checked.
package func savedIndexKind(at path: String) throws(SavedIndexError) -> String {
  try SavedFileReader(path: path, kind: nil, layouts: []).kind
}
