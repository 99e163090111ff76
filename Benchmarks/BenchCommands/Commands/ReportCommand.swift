import BenchHarness
import BenchWorkloads
import Foundation

/// `bench report REPORT.csv [REPORT.csv…] [--out FILE.html] [--fps HZ]
/// [--live] [--memory-limit SIZE] [--dataset NAME|FILE]`: the one-page HTML
/// report of the rows (``HTMLReport``): verdicts, budget charts, the table,
/// the other charts, a cluster map of the data, the machine and commands.
/// Default output: the first report's name with `.html`, or when that is
/// taken (`bench run` writes its page there) `-2.html`, `-3.html`…; a page
/// is never replaced. The map shows the rows' own data, never another
/// dataset's (``ReportData``).
func reportCommand(_ arguments: [String]) throws -> Int32 {
  let command = "report"
  var o = ReportOptions()
  try ReportOptions.table.parse(arguments, into: &o)
  let (files, out, budget, datasetName) = (o.files, o.out, o.budget, o.dataset)
  guard let firstFile = files.first else { throw UsageError("report needs at least one report", command: command) }
  let path = out ?? HTMLOutput.freePath(besides: firstFile)
  var inputs = files.map { InputSource("report", $0) }
  if let datasetName { inputs.append(InputSource("--dataset", datasetName)) }
  let outputs = [OutputTarget("--out", path, existing: .keep, ifTaken: "name a new file with --out FILE.html")]
  try OutputCheck.check(outputs, inputs: inputs)
  let claims = out == nil ? nil : try OutputCheck.claim(outputs, inputs: inputs)
  defer { claims?.release() }
  var rows: [ReportRow] = []
  for file in files { rows += try ReportFile.read(file) }
  guard !rows.isEmpty else {
    throw ReportError(.badData, path: firstFile, detail: "the report has no rows")
  }

  // The map: the rows' own points, or those named, checked to be the data
  // the rows measured (``ReportData``).
  let data = try ReportData.resolve(rows: rows, given: datasetName)
  let conflicts = DatasetOrigin.conflicts(in: rows)
  for line in conflicts + (data.note.map { [$0] } ?? []) { printError("bench: warning: \(line)") }

  var commands = ["swift run -c release " + HTMLOutput.commandLine(["bench", command] + arguments)]
  commands += reproduction(rows)
  let title = "SpatialBench report: " + Array(Set(rows.map(\.key.dataset))).sorted().joined(separator: ", ")
  try HTMLOutput.write(
    title: title, rows: rows, budget: budget, dataset: data.dataset, noMap: data.reason,
    warnings: conflicts + (data.dataset.map { DataWarnings.check($0.points) } ?? []), commands: commands, to: path)
  output("wrote \(path)")
  return 0
}

/// What `bench report` reads from the command line.
struct ReportOptions {
  var files: [String] = []
  var out: String?
  var budget = FrameBudget()
  var dataset: String?

  static var table: FlagTable<ReportOptions> {
    FlagTable("report", [
      .out(\.out, "FILE.html", help: "the page (default the first report's name with .html)"),
      .fps(\.budget.framesPerSecond, help: "frame rate of the budget, as bench recommend's (default 60)"),
      .toggle("--live", \.budget.live, help: "the data changes: the live workload counts"),
      Flag("--memory-limit", "SIZE", help: "the most the index and clustering may hold: 512MB, 2GB, 1.5GiB") {
        (o: inout ReportOptions, v: FlagValue) throws(UsageError) in
        o.budget.memoryLimitBytes = try RecommendOptions.byteCount(v.text, flag: v.flag)
      },
      .text("--dataset", "NAME|FILE", \.dataset, help: "the points of the map: data the rows measured (a points file by its fingerprint)"),
    ]).taking("REPORT.csv…") { (o: inout ReportOptions, file: String) throws(UsageError) in o.files.append(file) }
  }
}

/// A `bench run` per dataset and n of `rows` that measures the same rows
/// again (steps and repetitions are not in the rows: the defaults).
func reproduction(_ rows: [ReportRow]) -> [String] {
  orderedGroups(rows, by: { "\($0.key.dataset)\u{0}\($0.key.n)" }).map { g in
    func list(_ values: [String]) -> String {
      var seen = Set<String>()
      return values.filter { seen.insert($0).inserted }.joined(separator: ",")
    }
    let workloads = list(g.map(\.key.workload).filter { !$0.contains(".") })
    return "swift run -c release " + HTMLOutput.commandLine([
      "bench", "run", "--dataset", g[0].key.dataset, "--n", "\(g[0].key.n)", "--index", list(g.map(\.key.index)),
      "--workload", workloads, "--seed", "\(g[0].run.seed)",
    ])
  }
}
