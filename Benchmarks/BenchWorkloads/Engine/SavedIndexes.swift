import BenchFormats
import BenchHarness
import SpatialIndexes

/// Indexes opened from saved files (`--index-file`) rather than built.
public enum SavedIndexes {
  /// The catalogue name of the index saved at `path` (its header alone).
  ///
  /// - Throws: ``SpatialIndexes/SavedIndexError`` when the header is not a
  ///   saved index's.
  public static func kind(at path: String) throws -> String {
    try savedIndexKind(at: path)
  }

  /// The points of the index saved at `path`, as a dataset named by the
  /// path (ids the 0-based positions, as the index's): the whole file is
  /// checked, so a corrupt one fails here, before any work.
  public static func dataset(at path: String) throws -> LoadedDataset {
    var open = PointsOf(path: path)
    guard let points = try withIndexType(named: try kind(at: path), &open) else {
      throw SavedIndexError(file: path, .structureInvalid("no index of this kind in the catalogue"))
    }
    return LoadedDataset(
      name: path, points: points, ids: .rows(points.count), origin: .file(try FileFingerprint.of(file: path)))
  }

  private struct PointsOf: IndexTypeOperation {
    let path: String
    func run<I: DescribedIndex>(_ type: I.Type) throws -> [Point] {
      try open(type, path)._pointsByID()
    }
  }

  /// The index of type `I` saved at `path`.
  static func open<I: DescribedIndex>(_ type: I.Type, _ path: String) throws -> any SavableIndex {
    guard let savable = type as? any SavableIndex.Type else {
      throw SavedIndexError(file: path, .foreignKind(found: "a saved index", expected: I.name))
    }
    return try savable.init(contentsOf: path)
  }
}

/// The index of type `I` over `points` with `parameters`, or, given
/// `indexFile`, the one saved there (its parameters and points its own).
func makeIndex<I: DescribedIndex>(
  _ type: I.Type, points: [Point], parameters: I.Parameters, indexFile: String?
) throws -> I {
  guard let indexFile else { return try I(points: points, parameters: parameters) }
  guard let index = try SavedIndexes.open(type, indexFile) as? I else {
    throw SavedIndexError(file: indexFile, .foreignKind(found: "another index", expected: I.name))
  }
  return index
}
