import BenchFormats
import BenchHarness
import BenchWorkloads
import Foundation

/// `bench recommend --dataset NAME|FILE [options]`: measures every index and
/// cluster strategy on the data, then a parameter grid around the defaults
/// of the two best indexes, and prints the verdict (``Verdict``, at most 15
/// lines) with the data's warnings on stderr. Writes the rows as a report
/// and the HTML page beside it, never over earlier ones. Exit 0 when a
/// choice meets the budget, 1 (with the closest) when none does.
func recommendCommand(_ arguments: [String]) throws -> Int32 {
  let started = Stopwatch.now()
  var options = try RecommendOptions.parse(arguments)
  let command = RecommendOptions.command
  // on data with properties, the properties the filter session reads
  let controls = try options.run.filterSession(command: command, note: printError)
  let metadata = RunMetadata.current(seed: options.run.seed, gitDirectory: packageRoot())
  let csv = options.run.out
    ?? ReportFile.defaultPath(suite: command, gitCommit: metadata.gitCommit, date: Date(), directory: resultsFolder())
  let html = HTMLOutput.path(besides: csv)
  let outputs = [
    OutputTarget("--out", csv, existing: .keep, ifTaken: "name a new file with --out"),
    OutputTarget("--out (its .html)", html, existing: .keep, ifTaken: HTMLOutput.pageTaken),
  ]
  try OutputCheck.check(outputs, inputs: options.run.inputs)
  let claims = options.run.out == nil ? nil : try OutputCheck.claim(outputs, inputs: options.run.inputs)
  defer { claims?.release() }

  let datasets = try loadDatasets(options.run, command: command)
  guard datasets.count == 1, let dataset = datasets.first else {
    throw UsageError("recommend takes one dataset and one --n", command: command)
  }
  // No points, no question: every index answers nothing in no time.
  if dataset.count == 0 {
    if options.run.n == [0] { throw UsageError("--n 0: recommend needs at least one point", command: command) }
    throw DataError.badData(
      file: options.run.dataset, line: 1, field: nil, message: "has no points: there is nothing to recommend an index for")
  }
  // started first, so a missing PostgreSQL is one line before minutes of runs
  let server = try options.peer ? options.run.connection.map { try PostgresServer.connect($0) } ?? PostgresServer.start() : nil
  defer { server?.stop() }
  if let server { try PostGISEngine.requirePostGIS(on: server) }
  warnIfDebugBuild()
  let warnings = DataWarnings.check(dataset.points)
  for w in warnings { printError("bench: warning: \(dataset.name): \(w)") }

  let clock = Stopwatch.measureOverhead()
  var rows = try measure(options.run, dataset, controls: controls, metadata: metadata, clock: clock, stage: "1/2")
  // The parameter grid around the first run's leaders
  if let first = Verdict(Candidate.all(in: rows, budget: options.budget), budget: options.budget) {
    for leader in RecommendOptions.leaders(of: first) {
      guard let sweep = RecommendOptions.sweep(for: leader.index) else { continue }
      rows += try measure(
        options.secondRun(for: leader, sweep: sweep), dataset, controls: controls, metadata: metadata, clock: clock,
        stage: "2/2")
    }
  }
  var checks: [PeerCheck] = []
  if let server {
    let peer = try peerRows(options.run, dataset, server: server, metadata: metadata)
    rows += peer.rows
    checks = peer.checks
  }
  guard let verdict = Verdict(Candidate.all(in: rows, budget: options.budget), budget: options.budget) else {
    throw UsageError("no index could be measured on \(dataset.name)", command: command)
  }
  for line in verdict.lines { output(line) }

  let written: String
  if options.run.out != nil {
    try ReportFile.write(rows, to: csv)
    written = csv
  } else {
    written = try ReportFile.writeNew(rows, suite: command, gitCommit: metadata.gitCommit, directory: resultsFolder())
  }
  let page = HTMLOutput.path(besides: written)
  try HTMLOutput.write(
    title: "SpatialBench: which index for \(dataset.name)?", rows: rows, budget: options.budget, dataset: dataset,
    warnings: warnings, commands: ["swift run -c release " + HTMLOutput.commandLine(["bench", command] + arguments)],
    to: page)
  let seconds = Double(Stopwatch.now() &- started) / 1e9
  printError(String(format: "bench: recommend took %.0f s; wrote %d rows to %@ and the page %@", seconds, rows.count, written, page))
  let mismatches = answerMismatches(rows)
  if !mismatches.isEmpty {
    printError("bench: the indexes gave different answers:\n" + mismatches.joined(separator: "\n"))
    return 1
  }
  if let failed = checks.first(where: \.fails) {
    printError("bench: \(failed.label): \(failed.differingSteps) of \(failed.steps) steps differ from the linear scan")
    return 1
  }
  return verdict.met ? 0 : 1
}

/// PostGIS (GiST) on the session `options` makes of `dataset`, the same
/// steps as the indexes', measured and checked as `bench peer` does.
private func peerRows(
  _ options: RunOptions, _ dataset: LoadedDataset, server: PostgresServer, metadata: RunMetadata
) throws -> PeerResult {
  let choices = options.peerChoices
  let measure = options.peerMeasure
  let observer = Progress(quiet: options.quiet, totalUnits: PostGISEngine.units(choices), prefix: "recommend postgis: ")
  var engine = PostGISEngine(server: server, measure: measure, metadata: metadata, observer: observer)
  announceSchema(of: engine, on: server)
  let result = try engine.run(dataset, steps: options.steps(for: dataset, queries: nil), workloads: choices)
  engine.observer.finish()
  return result
}

/// One run of `options` over `dataset`, with progress unless `--quiet`;
/// `controls`: the filter session's, on data with properties.
private func measure(
  _ options: RunOptions, _ dataset: LoadedDataset, controls: FilterSession?, metadata: RunMetadata, clock: Double,
  stage: String
) throws -> [ReportRow] {
  var rows: [ReportRow] = []
  for part in RecommendOptions.parts(options) {
    let plan = try part.plan(metadata: metadata, clockOverhead: clock)
    var engine = RunEngine(
      plan: plan, observer: Progress(quiet: part.quiet, totalUnits: try plan.units(datasets: 1), prefix: "recommend \(stage): "))
    let steps = part.steps(for: dataset, queries: nil)
    let session = try controls.map {
      try compiledSession($0, dataset, steps: steps.count, seed: part.seed, command: RecommendOptions.command)
    }
    rows += try engine.run(dataset, steps: steps, session: session)
    engine.observer.finish()
  }
  return rows
}
