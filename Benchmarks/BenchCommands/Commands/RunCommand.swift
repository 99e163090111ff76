import BenchFormats
import BenchHarness
import BenchWorkloads
import Foundation
import SpatialIndexes

/// `bench run` (and `bench` alone): runs workloads on indexes, prints an
/// aligned table and writes a CSV report, atomically, never over an earlier one.
func runCommand(_ arguments: [String]) throws -> Int32 {
  var options = try RunOptions.parse(arguments, command: "run")
  try options.checkFilter(command: "run")
  let filter = options.runFilter
  if !filter.isEmpty {
    // a misspelt name fails before the points load; only the names are read
    if let names = try datasetPropertyNames(options.dataset, wanted: filter.requests.map(\.name)) {
      try checkPropertyNames(filter, names: names, command: "run")
    }
    options.properties = filter.requests
  }
  let controls = try options.filterSession(command: "run", note: printError)
  try options.resolveIndexFile()
  let metadata = RunMetadata.current(seed: options.seed, gitDirectory: packageRoot())
  // Without --out the report takes the next free default name when it is
  // written; the folder is checked now, with the name it would take now.
  let out = options.out ?? ReportFile.defaultPath(suite: "run", gitCommit: metadata.gitCommit, date: Date(), directory: resultsFolder())
  var outputs = [OutputTarget(
    "--out", out, existing: .keep, appends: options.append,
    ifTaken: "add --append to add rows to it, or name a new file with --out")]
  // The HTML page beside a new report (not an appended one: it would show this run's rows only).
  if !options.append {
    outputs.append(OutputTarget(
      "--out (its .html)", HTMLOutput.path(besides: out), existing: .keep, ifTaken: HTMLOutput.pageTaken))
  }
  if let json = options.json {
    outputs.append(OutputTarget("--json", json, existing: .keep, ifTaken: "name a new file with --json"))
  }
  try OutputCheck.check(outputs, inputs: options.inputs)
  // a name given is claimed for the whole run: a second run given it fails now
  let claims = options.out == nil ? nil : try OutputCheck.claim(outputs, inputs: options.inputs)
  defer { claims?.release() }
  if options.append { try checkAppendable(out) }

  let datasets = try loadDatasets(options, command: "run")
  let queries = try options.queriesFile.map { try QueriesFile(contentsOf: $0) }
  try queries?.requireQueries()
  try refuseRowFilters(queries, command: "run")
  let steps = datasets.map { options.steps(for: $0, queries: queries) }
  for s in steps { try options.checkNeeds(s, command: "run") }
  let filters = try zip(datasets, steps).map { dataset, steps in
    filter.isEmpty ? nil : try compiledFilter(filter, dataset.properties, steps: steps.count, command: "run")
  }
  let sessions = try zip(datasets, steps).map { dataset, steps in
    try controls.map { try compiledSession($0, dataset, steps: steps.count, seed: options.seed, command: "run") }
  }
  // Only once the inputs are known good: a bad input gets one line on stderr.
  warnIfDebugBuild()
  let plan = try options.plan(
    metadata: metadata, clockOverhead: Stopwatch.measureOverhead(), datasets: datasets.count)
  let units = try plan.units(datasets: datasets.count)
  var engine = RunEngine(plan: plan, observer: Progress(quiet: options.quiet, totalUnits: units))
  var rows: [ReportRow] = []
  for (k, (dataset, steps)) in zip(datasets, steps).enumerated() {
    rows += try engine.run(dataset, steps: steps, filter: filters[k], session: sessions[k])
  }
  engine.observer.finish()

  output(ResultsTable.render(rows), terminator: "")
  output(
    "clock: CLOCK_MONOTONIC, \(String(format: "%.0f", plan.measure.clockOverhead)) ns a read; steps shorter "
      + "than 20 reads are timed in batches (the report's batch column)")
  let written: String
  if options.append {
    try ReportFile.append(rows, to: out)
    written = out
  } else if options.out != nil {
    try ReportFile.write(rows, to: out)
    written = out
  } else {
    written = try ReportFile.writeNew(rows, suite: "run", gitCommit: metadata.gitCommit, directory: resultsFolder())
  }
  printError("bench: wrote \(rows.count) rows to \(written)")
  // What it found: the verdict of each dataset, by bench recommend's rules
  // (over the workloads this run measured), and the page.
  let budget = FrameBudget(framesPerSecond: options.framesPerSecond)
  for verdict in Verdict.all(in: rows, budget: budget) {
    output("")
    for line in verdict.lines { output(line) }
  }
  if !options.append {
    let page = HTMLOutput.path(besides: written)
    try HTMLOutput.write(
      title: "SpatialBench: " + datasets.map(\.name).joined(separator: ", "), rows: rows, budget: budget,
      dataset: datasets.first,
      commands: ["swift run -c release " + HTMLOutput.commandLine(["bench"] + arguments)], to: page)
    printError("bench: wrote the HTML report to \(page)")
  }
  if let json = options.json {
    try AtomicFile.write(Array(ReportSchema.json(rows, run: metadata).utf8), to: json, existing: .keep)
    printError("bench: wrote the report as JSON to \(json)")
  }
  let mismatches = answerMismatches(rows)
  if !mismatches.isEmpty {
    printError("bench: the indexes gave different answers:\n" + mismatches.joined(separator: "\n"))
    return 1
  }
  return 0
}

/// ``Datasets/load(_:counts:seed:)`` with a request that cannot be met as a
/// usage error of `command`.
func loadDatasets(_ options: RunOptions, command: String) throws -> [LoadedDataset] {
  if let indexFile = options.indexFile { return [try SavedIndexes.dataset(at: indexFile)] }
  do {
    let perPoint = options.workloads.contains(LiveWorkload.name)
      ? Datasets.liveBytesPerPointEstimate : Datasets.bytesPerPointEstimate
    return try Datasets.load(
      options.dataset, counts: options.n, seed: options.seed, bytesPerPoint: perPoint, properties: options.properties)
  } catch let error as DatasetError {
    if case .unknown(let name, let valid) = error {
      throw UsageError.unknown("dataset", name, valid: valid, command: command)
    }
    throw UsageError(error.description, command: command)
  }
}

/// Refuses a queries file with filters in its rows: `run` and `verify`
/// apply `--filter` to every step, and a report row names one filter
/// (`bench query` reads the column).
func refuseRowFilters(_ queries: QueriesFile?, command: String) throws(UsageError) {
  guard let queries, let row = queries.filters.first(where: { $0 != nil }) ?? nil else { return }
  throw UsageError(
    "\(queries.source):\(row.line): a filter; bench \(command) applies --filter to every step "
      + "(bench query reads a filter column)", command: command)
}

/// Rows of one workload must agree on their answers whatever the index.
func answerMismatches(_ rows: [ReportRow]) -> [String] {
  var first: [String: ReportRow] = [:]
  var problems: [String] = []
  // an engine's rows (`wrong_answers` set) digest their answers their own
  // way and were checked step by step against the linear scan
  for r in rows where r.key.workload != "build" && r.key.zooms == "all" && r.wrongAnswers == nil {
    let group = "\(r.key.dataset) n=\(r.key.n) \(r.key.workload) \(r.key.strategy)"
    // Strategies of one workload must agree too (they compute the same
    // markers), unless its variants ask different things (nearest's k).
    let sharesAnswers = WorkloadCatalog.type(named: r.key.workload)?.variantsShareAnswers ?? true
    let shared = sharesAnswers ? "\(r.key.dataset) n=\(r.key.n) \(r.key.workload)" : group
    if let f = first[shared] {
      if f.checksum != r.checksum || f.resultsTotal != r.resultsTotal {
        problems.append(
          "  \(group): \(r.key.index)(\(r.key.params)) total \(r.resultsTotal) checksum \(String(r.checksum, radix: 16))"
            + " vs \(f.key.index)(\(f.key.params)) \(f.key.strategy) total \(f.resultsTotal) checksum \(String(f.checksum, radix: 16))")
      }
    } else {
      first[shared] = r
    }
  }
  return problems
}

/// Refuses early when `--append` names a report with another header.
func checkAppendable(_ path: String) throws {
  guard FileManager.default.fileExists(atPath: path) else { return }
  _ = try ReportFile.read(path)
  // Compare bytes, as `ReportFile.append` does: `headerLine` ends with its LF,
  // and a Swift `String` would treat CRLF as one character.
  var header = Array(FileManager.default.contents(atPath: path) ?? Data())
  if let end = header.firstIndex(of: UInt8(ascii: "\n")) { header.removeSubrange(end...) }
  if header.last == UInt8(ascii: "\r") { header.removeLast() }
  guard header + [UInt8(ascii: "\n")] == Array(ReportSchema.headerLine.utf8) else {
    throw ReportError(.badData, path: path, detail: "its header differs from this version's report header; not appending")
  }
}

func warnIfDebugBuild() {
  #if DEBUG
  printError("""
    bench: WARNING: this is a DEBUG build; timings are meaningless and rows are marked build_config=debug.
    bench: WARNING: use `swift run -c release bench`.
    """)
  #endif
}

/// The package root, if this binary runs from inside a checkout (for the git commit).
func packageRoot() -> String? {
  let fm = FileManager.default
  var dir = URL(fileURLWithPath: fm.currentDirectoryPath)
  for _ in 0..<6 {
    if fm.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir.path }
    dir = dir.deletingLastPathComponent()
  }
  return nil
}

/// `results/` of the package when run from a checkout, else the current folder.
func resultsFolder() -> String {
  if let root = packageRoot() {
    let folder = root + "/results"
    if FileManager.default.fileExists(atPath: folder) { return folder }
  }
  return "."
}
