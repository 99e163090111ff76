import BenchFormats
import BenchWorkloads
import SpatialIndexes

/// `bench verify [run options]`: runs the chosen workloads on every chosen
/// index and compares every step's answer with the linear scan's (the
/// reference; every strategy is checked against it, so against each other
/// too). Exit 1 with the first differences on any mismatch.
func verifyCommand(_ arguments: [String]) throws -> Int32 {
  var options = try RunOptions.parse(arguments, command: "verify")
  options.workloads.removeAll { $0 == WorkloadCatalog.buildName }
  if options.workloads.isEmpty { options.workloads = WorkloadCatalog.names }
  let queries = try options.queriesFile.map { try QueriesFile(contentsOf: $0) }
  try queries?.requireQueries()
  var failures = 0
  for dataset in try loadDatasets(options, command: "verify") {
    let steps = options.steps(for: dataset, queries: queries)
    try options.checkNeeds(steps, command: "verify")
    let results = try Verification.run(
      dataset: dataset, steps: steps, indexes: options.indexes, sweeps: options.params,
      workloads: options.workloadChoices)
    for r in results.sorted(by: { ($0.index, $0.workload) < ($1.index, $1.workload) }) {
      let status = r.agrees ? "ok" : "DIFFERS in \(r.differingSteps) steps"
      // --quiet: only what differs, and the closing line
      if options.quiet && r.agrees { continue }
      output("\(dataset.name) n=\(dataset.count) \(r.index) \(r.workload): \(r.steps) steps \(status)")
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
