import BenchHarness
import SpatialIndexes
import BenchWorkloads
import Foundation
import MapClustering

/// Writing an HTML report (``HTMLReport``) for `bench run`, `recommend` and
/// `report`: the map of `dataset` (when there is one) clustered through the
/// first verdict's winner, the dataset's warnings, never over an existing file.
enum HTMLOutput {
  /// `results/x.csv` → `results/x.html` (a name without `.csv` gains `.html`).
  static func path(besides csv: String) -> String {
    (csv.hasSuffix(".csv") ? String(csv.dropLast(4)) : csv) + ".html"
  }

  /// ``path(besides:)``, or when a file has that name, the first of
  /// `x-2.html`, `x-3.html`… that none has (as report names are chosen):
  /// `bench report r.csv` after `bench run --out r.csv`, which wrote `r.html`.
  static func freePath(besides csv: String) -> String {
    freeName(path(besides: csv))
  }

  /// What to do when the page beside a new report is taken.
  static let pageTaken = "name a new file with --out: its page goes beside it"

  /// `noMap` says why there is no map when `dataset` is `nil`.
  static func write(
    title: String, rows: [ReportRow], budget: FrameBudget, dataset: LoadedDataset?, noMap: String? = nil,
    warnings: [String]? = nil, commands: [String], to path: String
  ) throws {
    let verdict = Verdict.all(in: rows, budget: budget).first
    let map: Result<String, HTMLReport.MapUnavailable>
    if let dataset {
      // the winner's index draws the map, unless it is no index of the
      // package (a database engine's rows): then the default one does
      let winner = verdict.flatMap { indexType(named: $0.winner.index) == nil ? nil : $0.winner }
      let index = winner?.index ?? RenderOptions.defaultIndex
      // without a winner's strategy, `aggregate`: the same markers, and over an
      // index with groups 10 bytes a point beside it where a single pass
      // keeps 24 (`bench run` of 10M points, linear build: peak 853 → 649 MB)
      let strategy = winner?.strategy(of: "cluster").flatMap(ClusterStrategy.init(rawValue:)) ?? .aggregate
      map = .success(try ReportMap.svg(dataset, index: index, strategy: strategy))
    } else {
      map = .failure(.init(noMap ?? "No map: the report names a points file; give it with --dataset FILE to draw it."))
    }
    let report = HTMLReport(
      title: title, rows: rows, budget: budget,
      warnings: warnings ?? dataset.map { DataWarnings.check($0.points) } ?? [], map: map, commands: commands)
    try AtomicFile.write(Array(report.render().utf8), to: path, existing: .keep)
  }

  /// `arguments` as one shell command line, each word quoted when it needs it.
  static func commandLine(_ words: [String]) -> String {
    words.map { word in
      let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=,:+@".contains($0) }
      return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }.joined(separator: " ")
  }
}
