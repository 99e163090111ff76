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
  /// path, with the ids the file stores (`EXID`, what the points file
  /// named them), else the 0-based positions, as the index's: the whole
  /// file is checked, so a corrupt one fails here, before any work.
  public static func dataset(at path: String) throws -> LoadedDataset {
    var open = PointsOf(path: path)
    guard let (points, ids) = try withIndexType(named: try kind(at: path), &open) else {
      throw SavedIndexError(file: path, .structureInvalid("no index of this kind in the catalogue"))
    }
    return LoadedDataset(
      name: path, points: points, ids: ids.map(ExternalIDs.init) ?? .rows(points.count),
      origin: .file(try FileFingerprint.of(file: path)))
  }

  /// The file `index` saves, with `ids` as its external ids unless they
  /// are the positions 0..<n, which a file without them stands for.
  package static func savedFile<I: DescribedIndex>(_ index: I, ids: ExternalIDs) -> [UInt8]? {
    guard let file = (index as? any SavableIndex)?._savedFile else { return nil }
    return (ids == .rows(ids.count) ? file : file.addingExternalIDs(Array(ids))).bytes()
  }

  /// Opens the index saved at `path` once and says how long the parts of
  /// the open took, in milliseconds: reading the sections, their checksums,
  /// the structural checks.
  public static func timedOpen(at path: String) throws -> (reading: Double, checksums: Double, structure: Double) {
    var open = TimedOpen(path: path)
    guard let timings = try withIndexType(named: try kind(at: path), &open) else {
      throw SavedIndexError(file: path, .structureInvalid("no index of this kind in the catalogue"))
    }
    func ms(_ d: Duration) -> Double {
      Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15
    }
    return (ms(timings.reading), ms(timings.checksums), ms(timings.structure))
  }

  /// Whether the checksums run on the CPU's CRC32C instruction.
  public static var hardwareChecksums: Bool { CRC32C.usesHardware }

  private struct TimedOpen: IndexTypeOperation {
    let path: String
    func run<I: DescribedIndex>(_ type: I.Type) throws -> SavedOpenTimings {
      guard let savable = type as? any SavableIndex.Type else {
        throw SavedIndexError(file: path, .foreignKind(found: "a saved index", expected: I.name))
      }
      var timings = SavedOpenTimings()
      var ids: [UInt64]? = nil
      _ = try savable.init(contentsOf: path, timings: &timings, externalIDs: &ids)
      return timings
    }
  }

  private struct PointsOf: IndexTypeOperation {
    let path: String
    func run<I: DescribedIndex>(_ type: I.Type) throws -> ([Point], [UInt64]?) {
      guard let savable = type as? any SavableIndex.Type else {
        throw SavedIndexError(file: path, .foreignKind(found: "a saved index", expected: I.name))
      }
      var timings = SavedOpenTimings()
      var ids: [UInt64]? = nil
      let index = try savable.init(contentsOf: path, timings: &timings, externalIDs: &ids)
      return (index._pointsByID(), ids)
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
