import BenchFormats
import BenchHarness
import BenchWorkloads
import SpatialIndexes

/// `bench verify [options]`: runs the chosen workloads on every chosen
/// index and compares every step's answer with the linear scan's (the
/// reference; every strategy is checked against it, so against each other
/// too); `build` checks each build (every point held once). Exit 1 with the
/// first differences on any mismatch.
func verifyCommand(_ arguments: [String]) throws -> Int32 {
  let options = try RunOptions.parse(arguments, command: "verify")
  let build = options.workloads.contains(WorkloadCatalog.buildName)
  try OutputCheck.check([], inputs: options.inputs)
  let queries = try options.queriesFile.map { try QueriesFile(contentsOf: $0) }
  try queries?.requireQueries()
  var failures = 0
  for dataset in try loadDatasets(options, command: "verify") {
    let steps = options.steps(for: dataset, queries: queries)
    try options.checkNeeds(steps, command: "verify")
    let results = try Verification.run(
      dataset: dataset, steps: steps, indexes: options.indexes, sweeps: options.params,
      workloads: options.workloadChoices, build: build)
    // each index's build first, then its workloads by name
    let order = { (r: Verification.Result) in (r.index, r.workload == Verification.buildCheck ? "" : r.workload) }
    for r in results.sorted(by: { order($0) < order($1) }) {
      // --quiet: only what differs, and the closing line
      if options.quiet && r.agrees { continue }
      let status = r.workload == Verification.buildCheck
        ? (r.agrees ? "\(dataset.count) points, each found once: ok" : "DIFFERS")
        : (r.agrees ? "\(r.steps) steps ok" : "\(r.steps) steps DIFFERS in \(r.differingSteps) steps")
      output("\(dataset.name) n=\(dataset.count) \(r.index) \(r.workload): \(status)")
      for p in r.problems { output("  " + p) }
      if !r.agrees { failures += 1 }
    }
  }
  if failures > 0 {
    printError("bench verify: \(failures) workload(s) differ from the linear scan")
    return 1
  }
  output("verify: every index agrees with the linear scan")
  return 0
}
