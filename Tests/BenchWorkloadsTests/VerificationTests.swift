import MapClustering
import SpatialIndexes
import Testing
import _SpatialTestSupport

@testable import BenchWorkloads

/// `bench verify`'s check: every index against the linear scan, step by step.
@Suite struct VerificationTests {
  static let points = Fixtures.clustered(2000, seed: 11)
    + [Point(x: 180, y: 0), Point(x: -180, y: 0), Point(x: 0, y: 85.06), Point(x: 179.99, y: -17)]

  static func steps() -> MapSteps {
    MapSteps(session: ViewportSession(points: points, parameters: SessionParameters(steps: 40, seed: 12)))
  }

  /// Every workload these points run: the filter session needs
  /// properties (FilterSessionTests check it).
  static let workloads = WorkloadCatalog.all.filter { !$0.needsProperties }

  @Test func everyIndexAgreesOnEveryWorkloadAndStrategy() throws {
    let dataset = LoadedDataset(name: "x", points: Self.points, ids: Self.points.indices.map { UInt64($0) })
    let results = try Verification.run(
      dataset: dataset, steps: Self.steps(), indexes: allIndexTypes.map { $0.name }, sweeps: [],
      workloads: Self.workloads.map { WorkloadChoice($0) })
    let checked = allIndexTypes.dropFirst().reduce(0) { total, index in
      total + Self.workloads.reduce(0) { sum, w in sum + w.variants.count { w.runs($0, on: index) } }
    }
    // the linear scan's other ways of answering, against its reference variant
    var linear = 0
    for w in Self.workloads where w.variantsShareAnswers {
      linear += w.variants.filter { $0 != w.referenceVariant && w.runs($0, on: LinearScanIndex.self) }.count
    }
    #expect(allIndexTypes[0].name == LinearScanIndex.name)
    #expect(results.count == checked + linear, "the linear scan's reference variants are the reference")
    #expect(results.contains { $0.index == "linear" && $0.workload == "cluster/aggregate" })
    for r in results { #expect(r.agrees && r.steps == 40, "\(r)") }
  }

  /// The checker must see a wrong answer: against a reference whose answers
  /// are shifted by one step, every step that differs is reported.
  @Test func aWrongAnswerIsReported() throws {
    let steps = Self.steps()
    let data = WorkloadData(points: Self.points, steps: steps)
    let index = try LinearScanIndex(points: Self.points)
    var recorder = Verification.Recorder()
    var bind = BindWorkload(index: index, data: data, variants: [""], visitor: recorder)
    _ = try withWorkloadType(named: "viewport", &bind)
    recorder = bind.visitor
    var answers = try #require(recorder.answers["viewport"] as? [[Int32]])
    answers.append(answers.removeFirst())
    let expectedDifferences = zip(answers, recorder.answers["viewport"] as! [[Int32]]).filter { $0 != $1 }.count
    #expect(expectedDifferences > 0)
    var checker = Verification.Checker(index: "linear", reference: ["viewport": answers])
    var check = BindWorkload(index: index, data: data, variants: [""], visitor: checker)
    _ = try withWorkloadType(named: "viewport", &check)
    checker = check.visitor
    #expect(checker.results.count == 1)
    #expect(checker.results[0].differingSteps == expectedDifferences)
    #expect(checker.results[0].problems.count == min(3, expectedDifferences))
    #expect(checker.results[0].problems[0].hasPrefix("step "))
  }
}
