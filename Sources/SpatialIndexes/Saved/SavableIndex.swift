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
  /// The same, with `map` the arrays that only decide answers mapped from
  /// the file where the system can map it (``SavedMapping``), without it
  /// every array read into memory.
  init(
    contentsOf path: String, map: Bool, timings: inout SavedOpenTimings, externalIDs: inout [UInt64]?
  ) throws(SavedIndexError)
  /// Writes the index and its points to `path`.
  func save(to path: String) throws(SavedIndexError)
  /// The file ``save(to:)`` writes.
  var _savedFile: SavedFileWriter { get }
  /// The points by id, as the index was built from them.
  func _pointsByID() -> [Point]
}

extension CellTree: SavableIndex {}

/// The kind of index saved at `path` (its catalogue name: `kdtree`,
/// `rtree`, `celltree`), from the header alone, its checksum checked.
package func savedIndexKind(at path: String) throws(SavedIndexError) -> String {
  try SavedFileReader(path: path, kind: nil, layouts: []).kind
}

extension SavableIndex {
  /// ``init(contentsOf:map:timings:externalIDs:)`` mapped where the system
  /// can map the file: what the bench opens with, noting in `timings` how
  /// long the reads, the checksums and the structural checks took, and
  /// handing back the points' external ids when the file holds them
  /// (`EXID`).
  package init(
    contentsOf path: String, timings: inout SavedOpenTimings, externalIDs: inout [UInt64]?
  ) throws(SavedIndexError) {
    try self.init(contentsOf: path, map: true, timings: &timings, externalIDs: &externalIDs)
  }

  /// The same without the timings and external ids: each kind's public
  /// `init(contentsOf:)`.
  init(_mappedContentsOf path: String) throws(SavedIndexError) {
    var timings = SavedOpenTimings()
    var externalIDs: [UInt64]? = nil
    try self.init(contentsOf: path, map: true, timings: &timings, externalIDs: &externalIDs)
  }

  /// The one way every kind opens: the header and table checked (the
  /// sections `map` mapped too), the sections read or viewed in the mapping by
  /// `read` (each checksummed as it is read), the
  /// external ids, then the index made by `make`, whose problems are
  /// reported as the file's. `timings` gets each part's time.
  static func _open<Sections>(
    _ path: String, layouts: [SavedSectionLayout], map: Range<Int>? = nil, timings: inout SavedOpenTimings, externalIDs: inout [UInt64]?,
    read: (inout SavedFileReader) throws(SavedIndexError) -> Sections,
    make: (_ sections: Sections, _ parameters: [UInt32], _ pointCount: Int) throws(SavedStructureProblem) -> Self
  ) throws(SavedIndexError) -> Self {
    let clock = ContinuousClock(), started = clock.now
    var file = try SavedFileReader(path: path, kind: name, layouts: layouts, map: map)
    let sections = try read(&file)
    externalIDs = try file.readExternalIDs()
    let readAt = clock.now
    let parameters = file.parameters, pointCount = file.pointCount
    let index = try file.structure { () throws(SavedStructureProblem) in try make(sections, parameters, pointCount) }
    timings = SavedOpenTimings(
      reading: readAt - started - file.checksumTime, checksums: file.checksumTime, structure: clock.now - readAt)
    return index
  }
}
