import BenchFormats
import BenchHarness
import BenchWorkloads
import Foundation
import SpatialIndexes

/// `bench save --index NAME --dataset … [--n N] --out FILE`: builds one
/// static index over the dataset and writes it, with its points, as a
/// saved index (docs/formats.md, "Saved index") that `--index-file` opens.
/// The points' ids go with them when they are not their positions (a
/// points file's `id` column), so `query --index-file` answers with them.
/// The file is written as every report is: never over an existing file,
/// claimed for the run, complete or absent.
func saveCommand(_ arguments: [String]) throws -> Int32 {
  let command = "save"
  let options = try RunOptions.parse(arguments, command: command)
  let name = options.indexes[0]
  guard options.indexes.count == 1 else { throw UsageError("--index takes one name here", command: command) }
  guard indexType(named: name) is any SavableIndex.Type else {
    let savable = allIndexTypes.filter { $0 is any SavableIndex.Type }.map { $0.name }
    throw UsageError(
      "\(name) cannot be saved (it changes after its build); these can: \(savable.joined(separator: ", "))",
      command: command)
  }
  guard (options.n?.count ?? 1) == 1 else { throw UsageError("--n takes one count here", command: command) }
  guard options.params.allSatisfy({ $0.values.count == 1 }) else {
    throw UsageError("--param takes one value here", command: command)
  }
  let out = options.out!  // the table requires it
  let outputs = [OutputTarget("--out", out, existing: .keep, ifTaken: "name a new file with --out")]
  try OutputCheck.check(outputs, inputs: options.inputs)
  let claims = try OutputCheck.claim(outputs, inputs: options.inputs)
  defer { claims.release() }
  let dataset = try loadDatasets(options, command: command)[0]
  var save = SaveIndex(points: dataset.points, ids: dataset.ids, sweeps: options.params, command: command)
  guard let bytes = try withIndexType(named: name, &save) ?? nil else {
    throw UsageError("\(name) cannot be saved", command: command)
  }
  try AtomicFile.write(bytes, to: out, existing: .keep)
  // opened again at once: the file checks, and what each part of an open costs
  let t = try SavedIndexes.timedOpen(at: out)
  if !options.quiet {
    printError("bench: saved \(name) over \(dataset.count) points of \(dataset.name) to \(out) (\(bytes.count) bytes"
      + (dataset.ids == .rows(dataset.count) ? ")" : ", with the points' ids)"))
    let crc = SavedIndexes.hardwareChecksums ? "CRC32C instruction" : "CRC32C in software"
    printError(String(
      format: "bench: opened again in %.1f ms: reading %.1f ms, checksums %.1f ms (%@), structural checks %.1f ms",
      t.reading + t.checksums + t.structure, t.reading, t.checksums, crc, t.structure))
  }
  return 0
}

/// Builds the index and returns its saved file's bytes, with the points'
/// ids when they are not their positions (nil: it cannot be saved).
private struct SaveIndex: IndexTypeOperation {
  let points: [Point]
  let ids: ExternalIDs
  let sweeps: [ParameterSweep]
  let command: String

  func run<I: DescribedIndex>(_ type: I.Type) throws -> [UInt8]? {
    let parameters = try parameterSets(type, sweeps, command: command)[0]
    let index = try I(points: points, parameters: parameters)
    return SavedIndexes.savedFile(index, ids: ids)
  }
}
