import BenchFormats
import BenchHarness
import BenchWorkloads
import Foundation

/// The points the map of `bench report` shows, checked to be those the
/// rows measured: a page never shows one dataset over another's figures.
///
/// - With `--dataset NAME|FILE`, the rows it stands for: rows of that
///   bundled dataset or generator, or of a points file with that file's
///   fingerprint (at any path: a file moved keeps it). None: a usage
///   error (exit 64) naming what the rows measured.
/// - Without, the first row's (a query row's before a build's): a bundled
///   dataset or generator made again from its name, n and seed; a points
///   file read again at its path when its fingerprint still matches, else
///   no map, with the reason on the page and on stderr.
///
/// Rows of a report of schema 3 or older do not say what they measured:
/// their name is taken as it reads (`hotels`: the generator), as before.
struct ReportData {
  /// The map's points, or `nil` with `reason`.
  var dataset: LoadedDataset?
  /// Why there is no map.
  var reason: String?
  /// A note for stderr: the rows could not be checked, or the map is missing.
  var note: String?

  static let command = "report"

  static func resolve(rows: [ReportRow], given: String?) throws -> ReportData {
    if let given { return try named(given, rows: rows) }
    guard let row = rows.first(where: { $0.key.workload != "build" }) ?? rows.first else {
      return ReportData(dataset: nil, reason: "No map: the report has no rows.")
    }
    let name = row.key.dataset
    switch row.datasetOrigin {
    case .named:
      return ReportData(dataset: try? load(name, row: row))
    case .unrecorded:
      guard !Datasets.isFile(name) else { return noMap("the report names a points file") }
      return ReportData(dataset: try? load(name, row: row))
    case .file(nil):
      return noMap("the rows' points file \(name) was not a regular file, so it cannot be read again")
    case .file(let recorded?):
      guard let now = try? FileFingerprint.of(file: name) else {
        return noMap("the rows' points file \(name) is not here (paths are as given to bench run)")
      }
      guard now == recorded else {
        return noMap(
          "\(name) is no longer the file the rows measured (now \(now), then \(recorded))", warn: true)
      }
      guard let dataset = try? load(name, row: row) else {
        return noMap("the rows' points file \(name) cannot be read again here", warn: true)
      }
      return ReportData(dataset: dataset)
    }
  }

  /// No map, because `why`; `warn`: say it on stderr too.
  private static func noMap(_ why: String, warn: Bool = false) -> ReportData {
    ReportData(
      dataset: nil, reason: "No map: \(why); give the points with --dataset FILE to draw them.",
      note: warn ? "no map: \(why)" : nil)
  }

  /// The map of the rows `given` stands for.
  private static func named(_ given: String, rows: [ReportRow]) throws -> ReportData {
    let isFile = Datasets.isFile(given)
    let fingerprint = isFile ? try FileFingerprint.of(file: given) : nil
    // what an older report named the file: its base name without extension
    let base = ((given as NSString).lastPathComponent as NSString).deletingPathExtension
    func stands(for row: ReportRow) -> Bool {
      switch row.datasetOrigin {
      case .named: return !isFile && row.key.dataset.lowercased() == given.lowercased()
      case .file(let recorded?): return isFile && recorded == fingerprint
      case .file(nil): return isFile && row.key.dataset == given
      case .unrecorded:
        // an older report named a file by its base name
        return row.key.dataset.lowercased() == given.lowercased() || (isFile && row.key.dataset == base)
      }
    }
    let matching = rows.filter(stands)
    guard let row = matching.first(where: { $0.key.workload != "build" }) ?? matching.first else {
      var seen: [String] = []
      for r in rows {
        let d = r.datasetOrigin.describe(r.key.dataset)
        if !seen.contains(d) { seen.append(d) }
      }
      let what = fingerprint.map { "a points file (\($0.size) bytes, fingerprint \($0))" }
        ?? (isFile ? "a points file" : "a bundled dataset or generator")
      throw UsageError(
        "--dataset \(given) is \(what), not the data of these rows; they measured "
          + seen.prefix(3).joined(separator: "; ") + (seen.count > 3 ? "; …" : ""),
        command: command)
    }
    let unchecked = row.datasetOrigin == .unrecorded || row.datasetOrigin == .file(nil)
    return ReportData(
      dataset: try load(given, row: row),
      note: unchecked ? "cannot tell whether \(given) is the data of the rows naming \(row.key.dataset)" : nil)
  }

  /// The points of `name` at the row's n and seed (a file: that sample of it).
  private static func load(_ name: String, row: ReportRow) throws -> LoadedDataset? {
    var options = RunOptions()
    options.dataset = name
    options.n = [row.key.n]
    options.seed = row.run.seed
    return try loadDatasets(options, command: command).first
  }
}
