import BenchFormats
import BenchHarness
import BenchWorkloads
import Foundation

/// `bench peer postgis`: the workloads on PostGIS, beside the indexes (see
/// ``PostGISEngine``): a table, the answer checks, and a CSV report never
/// written over an earlier one.
func peerCommand(_ arguments: [String]) throws -> Int32 {
  let engines = ["postgis"]
  guard let engine = arguments.first, !engine.hasPrefix("-") else {
    throw UsageError("name the engine: bench peer postgis", command: "peer")
  }
  guard engines.contains(engine) else { throw UsageError.unknown("engine", engine, valid: engines, command: "peer") }
  let rest = Array(arguments.dropFirst())
  var options = try RunOptions.parse(rest, command: "peer")
  try options.checkFilter(command: "peer")
  let filter = options.runFilter
  if !filter.isEmpty {
    // a misspelt name fails before the points load; only the names are read
    if let names = try datasetPropertyNames(options.dataset, wanted: filter.requests.map(\.name)) {
      try checkPropertyNames(filter, names: names, command: "peer")
    }
    options.properties = filter.requests
  }
  let choices = options.peerChoices
  guard !choices.isEmpty else {
    throw UsageError("bench peer runs viewport, cluster, tap and nearest (the load is its build row)", command: "peer")
  }
  let metadata = RunMetadata.current(seed: options.seed, gitDirectory: packageRoot())
  let suite = "peer-postgis"
  let out = options.out
    ?? ReportFile.defaultPath(suite: suite, gitCommit: metadata.gitCommit, date: Date(), directory: resultsFolder())
  let outputs = [OutputTarget("--out", out, existing: .keep, ifTaken: "name a new file with --out")]
  try OutputCheck.check(outputs, inputs: options.inputs)
  let claims = options.out == nil ? nil : try OutputCheck.claim(outputs, inputs: options.inputs)
  defer { claims?.release() }

  let datasets = try loadDatasets(options, command: "peer")
  let queries = try options.queriesFile.map { try QueriesFile(contentsOf: $0) }
  try queries?.requireQueries()
  try refuseRowFilters(queries, command: "peer")
  let steps = datasets.map { options.steps(for: $0, queries: queries) }
  for s in steps { try options.checkNeeds(s, command: "peer") }
  let filters = try zip(datasets, steps).map { dataset, steps -> (text: String, run: RunFilter, compiled: StepFilter)? in
    guard !filter.isEmpty else { return nil }
    let compiled = try compiledFilter(filter, dataset.properties, steps: steps.count, command: "peer")
    return (text: options.filterText, run: filter, compiled: compiled)
  }

  let server = try options.connection.map { try PostgresServer.connect($0) } ?? PostgresServer.start()
  defer { server.stop() }
  // once the server is known good: a missing one gets one line on stderr
  warnIfDebugBuild()
  if !options.quiet { printError("bench: PostGIS on \(server.description)") }
  try PostGISEngine.requirePostGIS(on: server)
  let knn = PostGISEngine.readsKNNOrder(choices)
  for method in options.peerMethods where !method.ordersByDistance && knn {
    printError(
      "bench: warning: \(method.indexName) cannot order by distance on geography: queries in KNN order"
        + " (nearest, tap through KNN) sort the whole table at every step")
  }
  let units = datasets.count * options.peerMethods.count * PostGISEngine.units(choices)
  let measure = options.peerMeasure
  var observer: any RunObserver = Progress(quiet: options.quiet, totalUnits: units)
  var rows: [ReportRow] = []
  var checks: [PeerCheck] = []
  for (k, (dataset, steps)) in zip(datasets, steps).enumerated() {
    for method in options.peerMethods {
      var run = PostGISEngine(server: server, method: method, measure: measure, metadata: metadata, observer: observer)
      announceSchema(of: run, on: server)
      let result = try run.run(dataset, steps: steps, workloads: choices, filter: filters[k])
      observer = run.observer
      rows += result.rows
      checks += result.checks
    }
  }
  observer.finish()

  output(ResultsTable.render(rows), terminator: "")
  output("")
  for c in checks {
    let verdict = c.differingSteps == 0
      ? "all \(c.steps) steps agree with the linear scan"
      : "\(c.differingSteps) of \(c.steps) steps differ from the linear scan" + (c.exact ? "" : " (not exact by design)")
    output("\(c.label): \(verdict)")
    for p in c.problems { output("  \(p)") }
  }
  let written: String
  if options.out != nil {
    try ReportFile.write(rows, to: out)
    written = out
  } else {
    written = try ReportFile.writeNew(rows, suite: suite, gitCommit: metadata.gitCommit, directory: resultsFolder())
  }
  printError("bench: wrote \(rows.count) rows to \(written)")
  return checks.contains(where: \.fails) ? 1 : 0
}

/// On a server of the user's, the schema a run creates, as one line that
/// stays on stderr (also with `--quiet`): one that a Ctrl-C leaves behind
/// can then be found and dropped.
func announceSchema(of engine: PostGISEngine, on server: PostgresServer) {
  guard !server.isOwn else { return }
  printError("bench: working in schema \(engine.schemaName) of the server of --connection; dropped at the end")
}

extension RunOptions {
  /// The workloads an engine runs of those asked: all but live and the
  /// filter session.
  var peerChoices: [WorkloadChoice] {
    workloadChoices.filter { $0.name != LiveWorkload.name && $0.name != FilterSessionWorkload.name }
  }

  /// How an engine times them: passes and budget as asked (2 s a row by
  /// default: a server's rows are few); the server's clock has no overhead
  /// to subtract.
  var peerMeasure: MeasureOptions {
    MeasureOptions(repeats: repeats, warmup: warmup, budget: (budget ?? 2) * 1e9, clockOverhead: 0)
  }
}
