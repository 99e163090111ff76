import BenchHarness
import Foundation

/// `bench plot REPORT.csv [REPORT.csv…] [--out DIR]`: SVG charts of one or
/// more reports. Prints one line per chart written and one per chart skipped
/// for lack of data. Never writes to the reports.
func plotCommand(_ arguments: [String]) throws -> Int32 {
  let command = "plot"
  var o = PlotOptions()
  try PlotOptions.table.parse(arguments, into: &o)
  let (files, out) = (o.files, o.out)
  guard !files.isEmpty else {
    throw UsageError("plot needs at least one report", command: command)
  }
  let inputs = files.map { InputSource("report", $0) }
  // before any work; the charts' names are checked once they are known
  try OutputCheck.check([], inputs: inputs)
  var rows: [ReportRow] = []
  for file in files { rows += try ReportFile.read(file) }
  // rows of one dataset name that measured other files would share charts
  for line in DatasetOrigin.conflicts(in: rows) { printError("bench: warning: \(line)") }

  let folder = out ?? defaultPlotFolder()
  try makeFolder(folder)
  let (charts, skipped) = ReportPlots.make(rows)
  let paths = charts.map { (folder.hasSuffix("/") ? folder : folder + "/") + $0.name }
  try OutputCheck.check(paths.map { OutputTarget("--out", $0) }, inputs: inputs)
  for (chart, path) in zip(charts, paths) {
    try AtomicFile.write(Array(chart.svg.utf8), to: path)
    output("wrote \(path)")
  }
  for skip in skipped { output("\(skip)") }
  return 0
}

/// What `bench plot` reads from the command line.
struct PlotOptions {
  var files: [String] = []
  var out: String?

  static var table: FlagTable<PlotOptions> {
    FlagTable("plot", [
      .out(\.out, "DIR", help: "the folder of the charts (default results/plots from the package\nroot, else plots; made if missing)"),
    ]).taking("REPORT.csv…") { (o: inout PlotOptions, file: String) throws(UsageError) in o.files.append(file) }
  }
}

/// `results/plots` when run from the package root, else `plots`.
private func defaultPlotFolder() -> String {
  isAtPackageRoot() ? "results/plots" : "plots"
}

/// The current folder is the package's root: it holds `Package.swift` and a
/// `results` folder (where default outputs go).
func isAtPackageRoot() -> Bool {
  let manager = FileManager.default
  var isDirectory: ObjCBool = false
  return manager.fileExists(atPath: "Package.swift")
    && manager.fileExists(atPath: "results", isDirectory: &isDirectory) && isDirectory.boolValue
}

/// Creates `folder` and its parents if missing; `.cannotCreate` (73) when it
/// cannot be made or something else is in its place.
func makeFolder(_ folder: String) throws(ReportError) {
  var isDirectory: ObjCBool = false
  if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
    guard isDirectory.boolValue else {
      throw ReportError(.cannotCreate, path: folder, detail: "not a folder")
    }
    return
  }
  do {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  } catch {
    throw ReportError(.cannotCreate, path: folder, detail: "cannot create the folder")
  }
}
