import BenchHarness
import Foundation
import SpatialIndexes

/// The fuzzer's check of one case: every workload of the registry, every
/// variant, on every index of the catalogue, against the linear scan; and
/// the linear scan against each workload's documented rule (``AnswerRule``).
///
/// Each check reports its first differing step, once. With `only`, just
/// that check runs (and the linear scan's reference answers it needs): the
/// shrinker calls it hundreds of times on a case.
public struct FuzzCheck {
  /// The indexes checked, by name: the catalogue's, then `extraIndexes`'.
  public var indexes: [String]
  /// Index types outside the catalogue (the fuzzer's tests plant a wrong one).
  package var extraIndexes: [any DescribedIndex.Type]
  /// The workloads checked, by name: the registry's.
  public var workloads: [String]
  /// The slowest (index, workload) of the last case, and its seconds.
  public private(set) var slowest: (signature: FuzzFailure.Signature, seconds: Double)? = nil

  package init(extraIndexes: [any DescribedIndex.Type] = []) {
    self.extraIndexes = extraIndexes
    indexes = allIndexTypes.map { $0.name } + extraIndexes.map { $0.name }
    workloads = WorkloadCatalog.names
  }

  /// Every failing check of `c`, each at its first differing step; with
  /// `only`, that check alone.
  public mutating func failures(of c: FuzzCase, only: FuzzFailure.Signature? = nil) -> [FuzzFailure] {
    var failures: [FuzzFailure] = []
    slowest = nil
    let data: WorkloadData
    do {
      data = try c.workloadData()
    } catch {
      let workload = only?.workload ?? ClusterWorkload.name
      return [FuzzFailure(
        .init(kind: .error, index: LinearScanIndex.name, workload: workload, variant: ""), step: 0,
        detail: "the case's filter: \(error)")]
    }
    for name in workloads where only == nil || only!.workload == name {
      var op = CheckWorkload(check: self, fuzzCase: c, data: data, only: only)
      do {
        _ = try withWorkloadType(named: name, &op)
      } catch {
        failures.append(FuzzFailure(
          .init(kind: .error, index: LinearScanIndex.name, workload: name, variant: ""), step: 0,
          detail: "\(error)"))
      }
      failures += op.failures
      for t in op.timings where t.seconds > (slowest?.seconds ?? -1) { slowest = t }
    }
    return failures
  }

  /// Runs `operation` with the index type called `name`: a catalogue type
  /// (specialised), else one of `extraIndexes`.
  func withIndex<O: IndexTypeOperation>(named name: String, _ operation: inout O) throws -> O.Result? {
    if let result = try withIndexType(named: name, &operation) { return result }
    guard let type = extraIndexes.first(where: { $0.name == name }) else { return nil }
    return try Self.open(type, &operation)
  }

  private static func open<I: DescribedIndex, O: IndexTypeOperation>(
    _ type: I.Type, _ operation: inout O
  ) throws -> O.Result {
    try operation.run(type)
  }
}

/// One workload of a case: the linear scan's answers, the rule's check of
/// them, then every index's.
private struct CheckWorkload: WorkloadTypeOperation {
  let check: FuzzCheck
  let fuzzCase: FuzzCase
  let data: WorkloadData
  let only: FuzzFailure.Signature?
  var failures: [FuzzFailure] = []
  var timings: [(signature: FuzzFailure.Signature, seconds: Double)] = []

  mutating func run<W: Workload>(_ type: W.Type) throws {
    let all = fuzzCase.variants(of: W.self)
    // a failure that names no variant (a build that threw) runs them all
    let wanted = only.map { o in o.variant.isEmpty ? all : all.filter { $0 == o.variant } } ?? all
    if wanted.isEmpty { return }
    let references = W.variantsShareAnswers ? [W.referenceVariant] : wanted
    let linearName = LinearScanIndex.name
    // the linear scan's answers: the reference variants, and the others it is checked on
    let linearOthers = W.variantsShareAnswers ? wanted.filter { $0 != W.referenceVariant } : []
    let checksLinear = only == nil || only!.index == linearName && only!.kind != .rule
    let linearVariants = all.filter { references.contains($0) || checksLinear && linearOthers.contains($0) }
    var recorder = Recorder()
    let t0 = Stopwatch.now()
    do {
      let linear = try LinearScanIndex(points: data.points)
      try W.visitRunners(on: linear, data, variants: linearVariants, &recorder)
    } catch {
      failures.append(FuzzFailure(signature(.error, linearName, W.name, ""), step: 0, detail: "\(error)"))
      return
    }
    timings.append((signature(.index, linearName, W.name, ""), seconds(since: t0)))

    if only == nil || only!.kind == .rule {
      for variant in references {
        if let failure = ruleFailure(W.self, variant, recorder.answers[variant] as? [W.Answer] ?? []) {
          failures.append(failure)
        }
      }
    }
    if only?.kind == .rule { return }
    let names = only.map { [$0.index] } ?? check.indexes
    for name in names {
      let variants = name == linearName ? linearOthers : wanted
      if variants.isEmpty { continue }
      let t1 = Stopwatch.now()
      var op = CheckIndex(
        workload: W.self, variants: variants, fuzzCase: fuzzCase, data: data, reference: recorder.answers)
      do {
        failures += try check.withIndex(named: name, &op) ?? []
      } catch IndexError.invalidParameter {
        // refused as a usage error (exit 64: a quadtree box too small for
        // the live workload), not answered wrong
      } catch {
        failures.append(FuzzFailure(signature(.error, name, W.name, ""), step: 0, detail: "\(error)"))
      }
      timings.append((signature(.index, name, W.name, ""), seconds(since: t1)))
    }
  }

  /// The first step where the linear scan's answers of `variant` break the rule.
  func ruleFailure<W: Workload>(_ w: W.Type, _ variant: String, _ linear: [W.Answer]) -> FuzzFailure? {
    let sig = signature(.rule, LinearScanIndex.name, W.name, variant)
    guard let rule = AnswerRules.rule(for: W.name) else {
      return FuzzFailure(sig, step: 0, detail: "no documented rule checks this workload (AnswerRules.all)")
    }
    return ruleFailure(rule, W.self, variant, linear, sig)
  }

  func ruleFailure<R: AnswerRule, W: Workload>(
    _ rule: R.Type, _ w: W.Type, _ variant: String, _ linear: [W.Answer], _ sig: FuzzFailure.Signature
  ) -> FuzzFailure? {
    let expected = R.answers(data, variant: variant)
    guard let got = linear as? [R.Answer], let expectedAnswers = expected as? [W.Answer] else {
      return FuzzFailure(sig, step: 0, detail: "the rule's answers are not the workload's type")
    }
    guard got.count == expected.count else {
      return FuzzFailure(sig, step: 0, detail: "\(got.count) answers, the rule \(expected.count)")
    }
    for step in got.indices
    where !R.allows(got[step], expected: expected[step], step: step, data: data, variant: variant) {
      return FuzzFailure(
        sig, step: step, detail: W.difference(expected: expectedAnswers[step], got: linear[step])
          .replacingLinearScan(with: "the rule"))
    }
    return nil
  }

  func signature(_ kind: FuzzFailure.Kind, _ index: String, _ workload: String, _ variant: String) -> FuzzFailure.Signature {
    FuzzFailure.Signature(kind: kind, index: index, workload: workload, variant: variant)
  }

  func seconds(since t0: UInt64) -> Double { Double(Stopwatch.now() &- t0) / 1e9 }
}

/// One index on one workload's variants, against the linear scan's answers.
private struct CheckIndex<W: Workload>: IndexTypeOperation {
  let workload: W.Type
  let variants: [String]
  let fuzzCase: FuzzCase
  let data: WorkloadData
  let reference: [String: Any]

  func run<I: DescribedIndex>(_ type: I.Type) throws -> [FuzzFailure] {
    let parameters = try parameterSets(I.self, fuzzCase.parameters(of: I.name))[0]
    let index = try I(points: data.points, parameters: parameters)
    var comparer = Comparer(index: I.name, reference: reference)
    try W.visitRunners(on: index, data, variants: variants, &comparer)
    return comparer.failures
  }
}

/// Every step's answer of each variant, by variant.
private struct Recorder: WorkloadVisitor {
  var answers: [String: Any] = [:]

  mutating func visit<W: Workload, R: StepRunner>(
    _ workload: W.Type, variant: String, _ runner: inout R
  ) throws where R.Answer == W.Answer {
    answers[variant] = (0..<runner.stepCount).map { runner.answer(step: $0) }
  }
}

/// Each variant's answers against the linear scan's (its reference variant's
/// when the variants share answers), the first differing step of each.
private struct Comparer: WorkloadVisitor {
  let index: String
  let reference: [String: Any]
  var failures: [FuzzFailure] = []

  mutating func visit<W: Workload, R: StepRunner>(
    _ workload: W.Type, variant: String, _ runner: inout R
  ) throws where R.Answer == W.Answer {
    let key = W.variantsShareAnswers ? W.referenceVariant : variant
    let expected = reference[key] as? [W.Answer] ?? []
    let sig = FuzzFailure.Signature(kind: .index, index: index, workload: W.name, variant: variant)
    for step in 0..<runner.stepCount {
      let got = runner.answer(step: step)
      if step < expected.count && got == expected[step] { continue }
      let why = step < expected.count ? W.difference(expected: expected[step], got: got) : "the linear scan has no such step"
      failures.append(FuzzFailure(sig, step: step, detail: why))
      return
    }
  }
}

extension String {
  /// A verify message about the linear scan, said of another reference.
  func replacingLinearScan(with other: String) -> String {
    replacingOccurrences(of: "linear scan", with: other)
  }
}
