import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// `bench verify [run options]`: runs the chosen workloads on every chosen
/// index and on the linear scan and compares every step's answer. Exit 1
/// with the first differences on any mismatch.
func verifyCommand(_ arguments: [String]) throws -> Int32 {
  var options = try RunOptions.parse(arguments, command: "verify")
  options.workloads.removeAll { $0 == "build" }
  if options.workloads.isEmpty { options.workloads = ["viewport", "cluster", "tap"] }
  var failures = 0
  for dataset in try DatasetResolver.load(options, command: "verify") {
    let inputs = WorkloadInputs(dataset: dataset, options: options, queries: nil)
    // The reference: the linear scan, clustering in a single pass. Every index
    // and every strategy must give exactly its answers, so strategies are
    // checked against each other too.
    var referenceOptions = options
    referenceOptions.strategies = ["single-pass"]
    var reference = AnswerRecorder()
    try visitRunners(
      try LinearScanIndex(points: dataset.points), dataset, inputs, referenceOptions, &reference)
    for name in options.indexes where name != LinearScanIndex.name {
      var operation = VerifyIndex(dataset: dataset, inputs: inputs, options: options,
                                  reference: reference.answers)
      failures += try withIndexType(named: name, &operation)!
    }
  }
  if failures > 0 {
    printError("bench verify: \(failures) workload(s) differ from the linear scan")
    return 1
  }
  print("verify: every index agrees with the linear scan")
  return 0
}

/// ``verify(_:_:_:_:_:)`` for one concrete index type.
private struct VerifyIndex: IndexTypeOperation {
  let dataset: LoadedDataset
  let inputs: WorkloadInputs
  let options: RunOptions
  let reference: [String: [[Int64]]]

  func run<I: SpatialIndex>(_ type: I.Type) throws -> Int {
    try verify(type, dataset, inputs, options, reference)
  }
}

private func verify<I: SpatialIndex>(
  _ type: I.Type, _ dataset: LoadedDataset, _ inputs: WorkloadInputs, _ options: RunOptions,
  _ reference: [String: [[Int64]]]
) throws -> Int {
  var failures = 0
  for parameters in try parameterSets(type, options.params, command: "verify") {
    let index = try I(points: dataset.points, parameters: parameters)
    var checker = AnswerChecker(reference: reference)
    try visitRunners(index, dataset, inputs, options, &checker)
    for (key, steps) in checker.checked.sorted(by: { $0.key < $1.key }) {
      let problems = checker.problems[key] ?? []
      let status = problems.isEmpty ? "ok" : "DIFFERS in \(checker.differingSteps[key] ?? 0) steps"
      print("\(dataset.name) n=\(dataset.count) \(index.label) \(key): \(steps) steps \(status)")
      for p in problems { print("  " + p) }
      if !problems.isEmpty { failures += 1 }
    }
  }
  return failures
}

/// Collects every step's canonical answer.
struct AnswerRecorder: RunnerVisitor {
  var answers: [String: [[Int64]]] = [:]

  mutating func visit<R: StepRunner>(workload: String, strategy: String, _ runner: inout R) throws {
    answers[workload] = (0..<runner.stepCount).map { runner.canonicalAnswer(step: $0) }
  }
}

/// Compares every step's answer with the reference, keeping the first differences.
struct AnswerChecker: RunnerVisitor {
  let reference: [String: [[Int64]]]
  var checked: [String: Int] = [:]
  var differingSteps: [String: Int] = [:]
  var problems: [String: [String]] = [:]

  mutating func visit<R: StepRunner>(workload: String, strategy: String, _ runner: inout R) throws {
    let key = workloadKey(workload, strategy)
    let expected = reference[workload] ?? []
    checked[key] = runner.stepCount
    for step in 0..<runner.stepCount {
      let got = runner.canonicalAnswer(step: step)
      let want = step < expected.count ? expected[step] : []
      guard got != want else { continue }
      differingSteps[key, default: 0] += 1
      if problems[key, default: []].count < 3 {
        let missing = Set(want).subtracting(got).sorted().prefix(5)
        let extra = Set(got).subtracting(want).sorted().prefix(5)
        problems[key, default: []].append(
          "step \(step): \(got.count) values, linear scan \(want.count); missing \(Array(missing)), extra \(Array(extra))")
      }
    }
  }
}

func workloadKey(_ workload: String, _ strategy: String) -> String {
  strategy.isEmpty ? workload : "\(workload)/\(strategy)"
}
