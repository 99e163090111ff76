import BenchHarness
import MapClustering
import SpatialIndexes
import Testing
import _SpatialTestSupport

@testable import BenchWorkloads

/// The engine runs a plan of plain values: no command line involved.
@Suite struct RunEngineTests {
  static let metadata = RunMetadata(
    timestamp: "2026-01-31T12:00:00Z", gitCommit: "abc1234",
    machine: MachineInfo(cpuModel: "x", cores: 1, memoryBytes: 1, os: "y"), seed: 9)

  static func plan(counters: Bool = false, sweeps: [ParameterSweep] = []) -> RunPlan {
    RunPlan(
      indexes: ["linear", "kdtree", "grid"], sweeps: sweeps, build: true,
      workloads: WorkloadCatalog.all.map { WorkloadChoice($0) },
      measure: MeasureOptions(repeats: 1, warmup: 0, budget: 0, clockOverhead: 0),
      counters: counters, metadata: metadata)
  }

  static let dataset = LoadedDataset(
    name: "blobs", points: Fixtures.clustered(1500, seed: 3),
    ids: (0..<1500).map { UInt64($0) * 10 })

  static func steps() -> MapSteps {
    MapSteps(session: ViewportSession(points: dataset.points, parameters: SessionParameters(steps: 24, seed: 4)))
  }

  /// Counts the units the observer hears of.
  struct Counter: RunObserver {
    var labels: [String] = []
    mutating func start(_ label: String) { labels.append(label) }
    mutating func update(_ fraction: Double) {}
  }

  @Test func everyIndexGetsABuildRowAndARowPerWorkloadVariantAndZoomBand() throws {
    let plan = Self.plan()
    let steps = Self.steps()
    var engine = RunEngine(plan: plan, observer: Counter())
    let rows = try engine.run(Self.dataset, steps: steps)
    let variants = WorkloadCatalog.all.reduce(0) { $0 + $1.variants.count }
    let bands = steps.zoomBands.count
    #expect(rows.count == 3 * (1 + variants * (1 + bands)))
    let labels = try #require(engine.observer as? Counter).labels
    #expect(labels.count == (try plan.units(datasets: 1)))
    #expect(labels.contains("kdtree cluster aggregate"))
    #expect(rows.allSatisfy { $0.run == Self.metadata && $0.key.dataset == "blobs" && $0.key.n == 1500 })
    #expect(rows.filter { $0.key.workload == "build" }.map(\.key.index) == ["linear", "kdtree", "grid"])
  }

  @Test func answersAgreeAcrossIndexesAndStrategies() throws {
    var engine = RunEngine(plan: Self.plan(), observer: SilentObserver())
    let rows = try engine.run(Self.dataset, steps: Self.steps()).filter { $0.key.zooms == "all" }
    for type in WorkloadCatalog.all {
      // a workload whose variants ask different things (nearest's k) agrees variant by variant
      let variants: [String?] = type.variantsShareAnswers ? [nil] : type.variants.map { $0 }
      for variant in variants {
        let mine = rows.filter { $0.key.workload == type.name && (variant == nil || $0.key.strategy == variant) }
        #expect(mine.count >= 3)
        #expect(Set(mine.map(\.checksum)).count == 1, "\(type.name) \(variant ?? "")")
        #expect(Set(mine.map(\.resultsTotal)).count == 1, "\(type.name) \(variant ?? "")")
      }
    }
    let nearest = rows.filter { $0.key.workload == NearestWorkload.name }
    #expect(Set(nearest.map(\.checksum)).count == NearestWorkload.variants.count, "each k its own answers")
  }

  @Test func countersChurnAndWhatClusteringKeepsAreRecorded() throws {
    var engine = RunEngine(plan: Self.plan(counters: true), observer: SilentObserver())
    let rows = try engine.run(Self.dataset, steps: Self.steps())
    let queries = rows.filter { $0.key.workload != "build" && $0.key.zooms == "all" }
    #expect(queries.allSatisfy { $0.counters.nodesVisited != nil && $0.counters.pointsTested != nil })
    #expect(queries.filter { $0.key.workload == "viewport" }.allSatisfy { ($0.counters.pointsReported ?? 0) > 0 })
    let cluster = queries.filter { $0.key.workload == "cluster" }
    #expect(cluster.allSatisfy { $0.churn != nil && ($0.workloadBytes ?? 0) >= 1500 * 40 })
    #expect(queries.filter { $0.key.workload != "cluster" }.allSatisfy { $0.workloadBytes == nil })
    #expect(rows.filter { $0.key.zooms != "all" }.allSatisfy { $0.churn == nil && $0.counters == .none })
  }

  @Test func aSweepGivesOneSetOfRowsPerValue() throws {
    let plan = Self.plan(sweeps: [ParameterSweep(key: "nodeSize", values: ["8", "32"])])
    let variants = WorkloadCatalog.all.reduce(0) { $0 + $1.variants.count }
    #expect(try plan.units(datasets: 2) == 2 * (1 + 2 + 1) * (1 + variants))
    var engine = RunEngine(plan: plan, observer: SilentObserver())
    let kd = try engine.run(Self.dataset, steps: Self.steps()).filter { $0.key.index == "kdtree" }
    #expect(Set(kd.map(\.key.params)) == ["nodeSize=8;threads=auto", "nodeSize=32;threads=auto"])
  }

  @Test func aValueAnIndexRefusesIsAnIndexError() {
    #expect(throws: IndexError.self) {
      try parameterSets(KDTreeIndex.self, [ParameterSweep(key: "nodeSize", values: ["0"])])
    }
    #expect(throws: Never.self) {
      let sets = try parameterSets(GridHashIndex.self, [ParameterSweep(key: "nodeSize", values: ["0"])])
      #expect(sets.count == 1, "a key the index lacks is left to others")
    }
  }
}
