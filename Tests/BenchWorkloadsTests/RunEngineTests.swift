import BenchHarness
import MapClustering
import SpatialIndexes
import Testing
import _BenchTestSupport
import _SpatialTestSupport

@testable import BenchWorkloads

/// The engine runs a plan of plain values: no command line involved.
@Suite struct RunEngineTests {
  static let metadata = RunMetadata(
    timestamp: "2026-01-31T12:00:00Z", gitCommit: "abc1234",
    machine: MachineInfo(cpuModel: "x", cores: 1, memoryBytes: 1, os: "y"), seed: 9)

  /// Every workload these points run: the filter session needs
  /// properties (FilterSessionTests run it).
  static let workloads = WorkloadCatalog.all.filter { !$0.needsProperties }

  static func plan(counters: Bool = false, sweeps: [ParameterSweep] = []) -> RunPlan {
    RunPlan(
      indexes: ["linear", "kdtree", "grid"], sweeps: sweeps, build: true,
      workloads: workloads.map { WorkloadChoice($0) },
      measure: MeasureOptions(repeats: 1, warmup: 0, budget: 0, clockOverhead: 0),
      counters: counters, metadata: metadata)
  }

  static let dataset = LoadedDataset(
    name: "blobs", points: Fixtures.clustered(1500, seed: 3),
    ids: (0..<1500).map { UInt64($0) * 10 })

  /// The session; live frames at 1 kHz, so the buffered strategy's real
  /// time costs the tests little.
  static func steps() -> MapSteps {
    var steps = MapSteps(session: ViewportSession(points: dataset.points, parameters: SessionParameters(steps: 24, seed: 4)))
    steps.live = LiveSettings(framesPerSecond: 1000, seed: 4)
    return steps
  }

  /// Counts the units the observer hears of.
  struct Counter: RunObserver {
    var labels: [String] = []
    var statuses: [String] = []
    mutating func start(_ label: String) { labels.append(label) }
    mutating func update(_ fraction: Double) {}
    mutating func status(_ text: String) { statuses.append(text) }
  }

  @Test func everyIndexGetsABuildRowAndARowPerWorkloadVariantAndZoomBand() throws {
    let plan = Self.plan()
    let steps = Self.steps()
    var engine = RunEngine(plan: plan, observer: Counter())
    let rows = try engine.run(Self.dataset, steps: steps)
    let bands = steps.zoomBands.count
    #expect(rows.count == ["linear", "kdtree", "grid"].reduce(0) { $0 + RunRows.perParameterSet($1, bands: bands) })
    #expect(rows.filter { $0.key.index == "kdtree" && $0.key.strategy == "move" }.isEmpty, "move needs a dynamic index")
    for strategy in LiveWorkload.variants {
      let live = rows.filter { $0.key.index == "grid" && $0.key.strategy == strategy && $0.key.workload.hasPrefix("live") && $0.key.zooms == "all" }
      #expect(Set(live.map(\.key.workload)) == ["live", "live.update", "live.query"], "\(strategy)")
      #expect(Set(live.map(\.timing.samples)) == [24], "a phase has a sample per frame, as the frame does")
    }
    let labels = try #require(engine.observer as? Counter).labels
    #expect(labels.count == (try plan.units(datasets: 1)))
    // each index's first build is announced before it runs, and is no unit
    #expect(try #require(engine.observer as? Counter).statuses
      == ["linear", "kdtree", "grid"].map { "\($0): building over 1500 points" })
    #expect(labels.contains("kdtree cluster aggregate"))
    #expect(rows.allSatisfy { $0.run == Self.metadata && $0.key.dataset == "blobs" && $0.key.n == 1500 })
    #expect(rows.filter { $0.key.workload == "build" }.map(\.key.index) == ["linear", "kdtree", "grid"])
  }

  @Test func answersAgreeAcrossIndexesAndStrategies() throws {
    var engine = RunEngine(plan: Self.plan(), observer: SilentObserver())
    let rows = try engine.run(Self.dataset, steps: Self.steps()).filter { $0.key.zooms == "all" }
    for type in Self.workloads {
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
    // phase rows (`live.update`) time part of a step and count no work
    let queries = rows.filter {
      $0.key.workload != "build" && $0.key.zooms == "all" && !WorkloadCatalog.isPhaseRow($0.key.workload)
    }
    #expect(queries.allSatisfy { $0.counters.nodesVisited != nil && $0.counters.pointsTested != nil })
    #expect(queries.filter { $0.key.workload == "viewport" }.allSatisfy { ($0.counters.pointsReported ?? 0) > 0 })
    let cluster = queries.filter { $0.key.workload == "cluster" }
    // the records (24 bytes a point), or for `aggregate` over an index with
    // groups its rows and sampled sums (8 and 2); the linear scan's
    // `aggregate` keeps the records and its totals by cell
    let grouped = cluster.filter { $0.key.strategy == "aggregate" && $0.key.index != "linear" }
    #expect(grouped.count == 2)
    #expect(grouped.allSatisfy { $0.churn != nil && ($0.workloadBytes ?? 0) >= 1500 * 10 })
    #expect(cluster.filter { !grouped.contains($0) }.allSatisfy {
      $0.churn != nil && ($0.workloadBytes ?? 0) >= 1500 * 24
    })
    // a live frame clusters too: the clusterer's records and totals, what the index grew by
    let live = queries.filter { $0.key.workload == "live" }
    #expect(!live.isEmpty && live.allSatisfy { ($0.workloadBytes ?? 0) >= 1500 * 24 })
    #expect(queries.filter { !["cluster", "live"].contains($0.key.workload) }.allSatisfy { $0.workloadBytes == nil })
    #expect(rows.filter { $0.key.zooms != "all" }.allSatisfy { $0.churn == nil && $0.counters == .none })
    // a zoom band's row holds what its whole row holds (the same runner)
    let bands = rows.filter { $0.key.zooms != "all" && $0.key.workload == "cluster" }
    #expect(!bands.isEmpty)
    for band in bands {
      var whole = band.key
      whole.zooms = "all"
      #expect(band.workloadBytes != nil && band.workloadBytes == rows.first { $0.key == whole }?.workloadBytes, "\(band.key)")
    }
  }

  /// The live fleet moves on with every pass, so work counted after the
  /// timed passes depended on how many the budget allowed, and a buffered
  /// grid's parameters on how often its base was rebuilt: CI's counter gate
  /// then failed on a busy machine. Counted on the pilot pass, the rows are
  /// the same however many passes run.
  @Test func theWorkCountedDoesNotDependOnThePassesRun() throws {
    func rows(repeats: Int) throws -> [String: String] {
      var plan = Self.plan(counters: true)
      plan.indexes = ["grid", "kdtree"]
      plan.workloads = [WorkloadChoice(LiveWorkload.self)]
      plan.measure = MeasureOptions(repeats: repeats, warmup: repeats, budget: 0, clockOverhead: 0)
      var engine = RunEngine(plan: plan, observer: SilentObserver())
      var byKey: [String: String] = [:]
      for row in try engine.run(Self.dataset, steps: Self.steps()) where row.key.zooms == "all" {
        let c = row.counters
        byKey["\(row.key.index) \(row.key.workload) \(row.key.strategy)"] =
          "\(row.key.params) \(String(describing: c.nodesVisited)) \(String(describing: c.pointsTested)) \(row.checksum)"
      }
      return byKey
    }
    let once = try rows(repeats: 1), thrice = try rows(repeats: 3)
    #expect(once.count >= 4)
    #expect(once == thrice)
  }

  @Test func aSweepGivesOneSetOfRowsPerValue() throws {
    let plan = Self.plan(sweeps: [ParameterSweep(key: "nodeSize", values: ["8", "32"])])
    let units = RunRows.units("linear") + 2 * RunRows.units("kdtree") + RunRows.units("grid")
    #expect(try plan.units(datasets: 2) == 2 * units)
    var engine = RunEngine(plan: plan, observer: SilentObserver())
    let kd = try engine.run(Self.dataset, steps: Self.steps()).filter { $0.key.index == "kdtree" }
    #expect(Set(kd.filter { $0.key.strategy != "buffered" }.map(\.key.params)) == ["nodeSize=8;threads=auto", "nodeSize=32;threads=auto"])
    #expect(Set(kd.filter { $0.key.strategy == "buffered" }.map(\.key.params))
      == ["nodeSize=8;threads=auto;rebuildShare=0.05", "nodeSize=32;threads=auto;rebuildShare=0.05"],
      "a buffered row names the buffered index's parameters")
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
