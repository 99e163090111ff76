import BenchFormats
import BenchHarness
import BenchWorkloads
import SpatialIndexes

/// The sessions `bench verify` checks, in the order it runs them.
enum VerifySession: String, CaseIterable {
  /// The seeded pan-and-zoom session (or the rows of `--queries`), as `run` measures.
  case map
  /// Steps made from the dataset to land on its hostile spots (``AdversarialSession``).
  case adversarial
}

/// `bench verify [options]`: runs the chosen workloads on every chosen
/// index and compares every step's answer with the linear scan's (the
/// reference; every strategy is checked against it, so against each other
/// too), over the map session, then the adversarial session (`--session`
/// picks one); `build` checks each build (every point held once). Exit 1
/// with the first differences on any mismatch.
///
/// On a dataset whose properties it knows (``FilterCheck/defaults(for:)``),
/// or with `--filter` and `--aggregate`, each session's viewport, cluster
/// and tap steps run again filtered, the aggregates on cluster's markers,
/// each index against the linear scan with the same filter.
func verifyCommand(_ arguments: [String]) throws -> Int32 {
  var options = try RunOptions.parse(arguments, command: "verify")
  try options.checkFilter(command: "verify")
  try options.resolveIndexFile()
  let build = options.workloads.contains(WorkloadCatalog.buildName)
  try OutputCheck.check([], inputs: options.inputs)
  let queries = try options.queriesFile.map { try QueriesFile(contentsOf: $0) }
  try queries?.requireQueries()
  try refuseRowFilters(queries, command: "verify")
  let checks = try filterChecks(options)
  options.properties = FilterCheck.requests(checks)
  let controls = try options.filterSession(command: "verify", note: printError)
  let filtered = options.workloadChoices.filter { RunFilter.filteredWorkloads.contains($0.name) }
  var failures = 0
  for dataset in try loadDatasets(options, command: "verify") {
    for session in options.sessions {
      let steps = options.steps(for: dataset, session: session, queries: queries)
      try options.checkNeeds(steps, command: "verify")
      let controlled = try controls.map {
        try compiledSession($0, dataset, steps: steps.count, seed: options.seed, command: "verify").filter
      }
      // the builds do not depend on the steps: checked once
      let results = try Verification.run(
        dataset: dataset, steps: steps, indexes: options.indexes, sweeps: options.params,
        workloads: options.workloadChoices, build: build && session == options.sessions.first,
        indexFile: options.indexFile, sessionFilter: controlled)
      // each index's build first, then its workloads by name
      let order = { (r: Verification.Result) in (r.index, r.workload == Verification.buildCheck ? "" : r.workload) }
      for r in results.sorted(by: { order($0) < order($1) }) {
        // --quiet: only what differs, and the closing line
        if options.quiet && r.agrees { continue }
        let status = r.workload == Verification.buildCheck
          ? (r.agrees ? "\(dataset.count) points, each found once: ok" : "DIFFERS")
          : (r.agrees ? "\(r.steps) steps ok" : "\(r.steps) steps DIFFERS in \(r.differingSteps) steps")
        let named = r.workload == Verification.buildCheck ? "" : "\(session) "  // a build has no session
        output("\(dataset.name) n=\(dataset.count) \(named)\(r.index) \(r.workload): \(status)")
        for p in r.problems { output("  " + p) }
        if !r.agrees { failures += 1 }
      }
      // the same steps filtered, each check against the filtered linear scan
      for check in checks where !filtered.isEmpty {
        let filter = try compiledFilter(check.filter, dataset.properties, steps: steps.count, command: "verify")
        let results = try Verification.run(
          dataset: dataset, steps: steps, indexes: options.indexes, sweeps: options.params, workloads: filtered,
          filter: filter)
        for r in results.sorted(by: { ($0.index, $0.workload) < ($1.index, $1.workload) }) {
          if options.quiet && r.agrees { continue }
          let status = r.agrees ? "\(r.steps) steps ok" : "\(r.steps) steps DIFFERS in \(r.differingSteps) steps"
          let workload = r.workload.split(separator: "/").first.map(String.init) ?? r.workload
          output("\(dataset.name) n=\(dataset.count) \(session) \(r.index) \(r.workload) {\(check.label(workload: workload))}: \(status)")
          for p in r.problems { output("  " + p) }
          if !r.agrees { failures += 1 }
        }
      }
    }
  }
  if failures > 0 {
    printError("bench verify: \(failures) workload(s) differ from the linear scan")
    return 1
  }
  output("verify: every index agrees with the linear scan")
  return 0
}

/// The filtered checks of a verify run: `--filter` and `--aggregate` when
/// given (their names checked against the dataset's before it loads), else
/// the dataset's defaults (none for a file or a generator without
/// properties, or a saved index, which holds none).
func filterChecks(_ options: RunOptions) throws -> [FilterCheck] {
  if options.indexFile != nil { return [] }
  let given = options.runFilter
  if !given.isEmpty {
    if let names = try datasetPropertyNames(options.dataset, wanted: given.requests.map(\.name)) {
      try checkPropertyNames(given, names: names, command: "verify")
    }
    return [FilterCheck(text: options.filterText, filter: given)]
  }
  // constants a test parses: a fault would be the bench's own (exit 70)
  return try FilterCheck.defaults(for: options.dataset)
}

extension RunOptions {
  /// The steps of `session` over `dataset`: the map session's (or the
  /// queries file's), or the adversarial session's, of as many steps.
  func steps(for dataset: LoadedDataset, session: VerifySession, queries: QueriesFile?) -> MapSteps {
    switch session {
    case .map:
      return steps(for: dataset, queries: queries)
    case .adversarial:
      var steps = AdversarialSession.steps(points: dataset.points, count: self.steps, seed: seed)
      steps.live = LiveSettings(share: moving, framesPerSecond: framesPerSecond, seed: seed, rebuildShare: rebuildShare)
      return steps
    }
  }
}
