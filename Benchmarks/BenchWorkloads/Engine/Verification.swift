import SpatialIndexes

/// `bench verify`'s check: every step's answer of every chosen index,
/// workload and variant against the linear scan's, which is the reference.
public enum Verification {
  /// What one (index, parameters, workload, variant) gave.
  public struct Result: Sendable, Equatable {
    /// The index with its parameters, `kdtree(nodeSize=64)`.
    public var index: String
    /// `viewport`, or `cluster/aggregate` for a variant.
    public var workload: String
    public var steps: Int
    public var differingSteps: Int
    /// The first few differences, described.
    public var problems: [String]

    public var agrees: Bool { differingSteps == 0 }
  }

  /// Checks `indexes` on `workloads` over `dataset` and `steps`, and with
  /// `build` each build (``checkBuild(_:pointCount:)``). The linear scan's
  /// reference variants are the reference; its other variants
  /// (`cluster/aggregate`, which adds whole cells from the clusterer's
  /// totals; live's `buffered`…) are checked like any index's. With
  /// `filter`, every index, the linear scan included, applies it (the
  /// viewport, cluster and tap workloads do); `sessionFilter`: the filter
  /// session's, which the `filters` workload applies.
  public static func run(
    dataset: LoadedDataset, steps: MapSteps, indexes: [String], sweeps: [ParameterSweep],
    workloads: [WorkloadChoice], build: Bool = false, indexFile: String? = nil, filter: StepFilter? = nil,
    sessionFilter: StepFilter? = nil
  ) throws -> [Result] {
    let data = WorkloadData(points: dataset.points, steps: steps, filter: filter, sessionFilter: sessionFilter)
    let reference = try referenceAnswers(data, workloads: workloads)
    var results: [Result] = []
    for name in indexes {
      let choices = name == LinearScanIndex.name ? nonReference(workloads) : workloads
      if choices.isEmpty && !build { continue }
      var check = CheckIndex(
        data: data, sweeps: sweeps, workloads: choices, reference: reference, build: build, indexFile: indexFile)
      results += try withIndexType(named: name, &check) ?? []
    }
    return results
  }

  /// The variants of `workloads` other than the reference's, for the linear
  /// scan to check against its own reference (a workload whose variants
  /// answer different questions, nearest's k, has none).
  static func nonReference(_ workloads: [WorkloadChoice]) -> [WorkloadChoice] {
    workloads.compactMap { choice in
      guard let type = WorkloadCatalog.type(named: choice.name), type.variantsShareAnswers else { return nil }
      let others = choice.variants.filter { $0 != type.referenceVariant }
      return others.isEmpty ? nil : WorkloadChoice(name: choice.name, variants: others)
    }
  }

  /// The linear scan's answers to every step of `workloads`, by ``key(_:_:)``:
  /// each a `[W.Answer]`, one per step.
  static func referenceAnswers(_ data: WorkloadData, workloads: [WorkloadChoice]) throws -> [String: Any] {
    var recorder = Recorder()
    let reference = try LinearScanIndex(points: data.points)
    for choice in workloads {
      guard let type = WorkloadCatalog.type(named: choice.name) else { continue }
      let variants = type.variantsShareAnswers ? [type.referenceVariant] : choice.variants
      var bind = BindWorkload(index: reference, data: data, variants: variants, visitor: recorder)
      _ = try withWorkloadType(named: choice.name, &bind)
      recorder = bind.visitor
    }
    return recorder.answers
  }

  /// Every step's answer of each workload, by ``key(_:_:)``.
  struct Recorder: WorkloadVisitor {
    var answers: [String: Any] = [:]

    mutating func visit<W: Workload, R: StepRunner>(
      _ workload: W.Type, variant: String, _ runner: inout R
    ) throws where R.Answer == W.Answer {
      answers[Verification.key(W.self, variant)] = (0..<runner.stepCount).map { runner.answer(step: $0) }
    }
  }

  /// Where a variant's reference answers are kept: under the workload's
  /// name when its variants share answers, else under the variant too.
  static func key<W: Workload>(_ workload: W.Type, _ variant: String) -> String {
    W.variantsShareAnswers ? W.name : "\(W.name)/\(variant)"
  }

  struct CheckIndex: IndexTypeOperation {
    let data: WorkloadData
    let sweeps: [ParameterSweep]
    let workloads: [WorkloadChoice]
    let reference: [String: Any]
    var build = false
    /// A saved index opened in place of each build.
    var indexFile: String? = nil

    func run<I: DescribedIndex>(_ type: I.Type) throws -> [Verification.Result] {
      var results: [Verification.Result] = []
      for parameters in try parameterSets(type, sweeps) {
        let index = try makeIndex(I.self, points: data.points, parameters: parameters, indexFile: indexFile)
        if build { results.append(Verification.checkBuild(index, pointCount: data.points.count)) }
        var checker = Checker(index: index.label, reference: reference)
        for choice in workloads {
          var bind = BindWorkload(index: index, data: data, variants: choice.variants, visitor: checker)
          _ = try withWorkloadType(named: choice.name, &bind)
          checker = bind.visitor
        }
        results += checker.results
      }
      return results
    }
  }

  /// Compares every step's answer with the reference's, keeping the first differences.
  struct Checker: WorkloadVisitor {
    let index: String
    let reference: [String: Any]
    var results: [Verification.Result] = []

    mutating func visit<W: Workload, R: StepRunner>(
      _ workload: W.Type, variant: String, _ runner: inout R
    ) throws where R.Answer == W.Answer {
      let expected = reference[Verification.key(W.self, variant)] as? [W.Answer] ?? []
      var result = Result(
        index: index, workload: variant.isEmpty ? W.name : "\(W.name)/\(variant)",
        steps: runner.stepCount, differingSteps: 0, problems: [])
      for step in 0..<runner.stepCount {
        let got = runner.answer(step: step)
        if step < expected.count && got == expected[step] { continue }
        result.differingSteps += 1
        if result.problems.count < 3 {
          let why = step < expected.count
            ? W.difference(expected: expected[step], got: got) : "the linear scan has no such step"
          result.problems.append("step \(step): \(why)")
        }
      }
      results.append(result)
    }
  }
}
