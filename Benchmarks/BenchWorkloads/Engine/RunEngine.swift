import BenchHarness
import SpatialIndexes

/// Hears how far a run has got: one unit per (index, parameters, build or
/// workload variant), so a cluster strategy counts as much as a viewport
/// pass.
public protocol RunObserver {
  /// A unit starts: `label` names the index and the workload.
  mutating func start(_ label: String)
  /// The current unit is `fraction` done.
  mutating func update(_ fraction: Double)
  /// Work between units that may take long, described (`kdtree: building
  /// over 100000000 points`): shown at once, not counted as a unit.
  mutating func status(_ text: String)
  /// The run is over.
  mutating func finish()
}

extension RunObserver {
  public mutating func status(_ text: String) {}
  public mutating func finish() {}
}

/// An observer that ignores everything (tests, `--quiet`).
public struct SilentObserver: RunObserver {
  public init() {}
  public mutating func start(_ label: String) {}
  public mutating func update(_ fraction: Double) {}
}

/// Runs a ``RunPlan`` over one dataset and turns each measurement into
/// report rows: per index and parameter set, a build row if asked, then per
/// workload and variant a row over all steps and one per zoom band.
///
/// The engine is not generic (the observer is an existential, called once a
/// pass): the chain from ``withIndexType(named:_:)`` down to a runner's step
/// must be concrete for the timed loop to specialise. A generic engine kept
/// every step generic over the observer, and the compiler then specialised
/// nothing below it (seen in `perf` as the clusterer calling unspecialised
/// counters through witness tables).
public struct RunEngine {
  public let plan: RunPlan
  public var observer: any RunObserver

  public init(plan: RunPlan, observer: any RunObserver) {
    self.plan = plan
    self.observer = observer
  }

  /// Every row for `dataset`, index by index in plan order; `filter`: the
  /// run's filter compiled against the dataset's properties; `session`:
  /// the filter session's controls and each step's filter, for the
  /// `filters` workload (its rows' `filter` column is the controls' label).
  public mutating func run(
    _ dataset: LoadedDataset, steps: MapSteps, filter: StepFilter? = nil,
    session: (controls: FilterSession, filter: StepFilter)? = nil
  ) throws -> [ReportRow] {
    var rows: [ReportRow] = []
    for name in plan.indexes {
      var operation = RunIndex(engine: self, dataset: dataset, steps: steps, filter: filter, session: session)
      rows += try withIndexType(named: name, &operation) ?? []
      self = operation.engine
    }
    return rows
  }

  /// ``runIndex(_:_:_:)`` for one concrete index type.
  private struct RunIndex: IndexTypeOperation {
    var engine: RunEngine
    let dataset: LoadedDataset
    let steps: MapSteps
    let filter: StepFilter?
    let session: (controls: FilterSession, filter: StepFilter)?

    mutating func run<I: DescribedIndex>(_ type: I.Type) throws -> [ReportRow] {
      try engine.runIndex(type, dataset, steps, filter, session)
    }
  }

  private mutating func runIndex<I: DescribedIndex>(
    _ type: I.Type, _ dataset: LoadedDataset, _ steps: MapSteps, _ filter: StepFilter?,
    _ session: (controls: FilterSession, filter: StepFilter)?
  ) throws -> [ReportRow] {
    var rows: [ReportRow] = []
    let data = WorkloadData(points: dataset.points, steps: steps, filter: filter, sessionFilter: session?.filter)
    var labels = filter == nil ? [:] : plan.filterLabels
    if let session { labels[FilterSessionWorkload.name] = session.controls.label }
    for parameters in try parameterSets(type, plan.sweeps) {
      // The build is timed before the index the other workloads use is
      // made, so a timed build never lives beside it: the run's peak is
      // the points and one index (at 100M points, 20 bytes a point less
      // for the k-d tree).
      var buildTimes: Measurement? = nil
      if plan.build {
        observer.start("\(I.name) build")
        var runner = BuildRunner<I>(points: dataset.points, parameters: parameters, indexFile: plan.indexFile)
        buildTimes = measureSteps(&runner)
      }
      // at 100M points a build takes tens of seconds: say what runs
      observer.status(plan.indexFile.map { "\(I.name): opening \($0)" } ?? "\(I.name): building over \(dataset.count) points")
      let t0 = Stopwatch.now()
      let index = try makeIndex(I.self, points: dataset.points, parameters: parameters, indexFile: plan.indexFile)
      var buildMs = Double(Stopwatch.now() &- t0) / 1e6
      var rowMaker = RowMaker(
        index: I.name, params: ReportKey.paramsText(index.parameterValues), dataset: dataset,
        indexBytes: index.memoryBytes, metadata: plan.metadata, filterLabels: labels, mapped: index.mappedMemory)
      if let m = buildTimes {
        buildMs = m.statistics.median / 1e6
        let strategy = plan.indexFile == nil ? "" : WorkloadCatalog.openStrategy
        rows.append(rowMaker.row(WorkloadCatalog.buildName, strategy, m, buildMs: buildMs))
      }
      var timer = Timer(engine: self, index: I.name, bands: steps.zoomBands)
      for choice in plan.workloads {
        var bind = BindWorkload(index: index, data: data, variants: choice.variants, visitor: timer)
        _ = try withWorkloadType(named: choice.name, &bind)
        timer = bind.visitor
      }
      self = timer.engine
      // what stays mapped in once the workloads have walked the index
      rowMaker.mapped = index.mappedMemory
      for t in timer.results {
        var maker = rowMaker
        if let p = t.indexParameters { maker.params = ReportKey.paramsText(p) }
        rows.append(maker.row(
          t.workload, t.variant, t.measurement, buildMs: buildMs, counters: t.counters,
          churn: t.churn, workloadBytes: t.workloadBytes))
        for (phase, cut) in t.phases {
          rows.append(maker.row(WorkloadCatalog.phaseRowName(t.workload, phase), t.variant, cut, buildMs: buildMs))
        }
        // a band's row holds what the whole row holds: the same runner
        for band in t.bands {
          rows.append(maker.row(
            t.workload, t.variant, band.cut, buildMs: buildMs, zooms: band.name, workloadBytes: t.workloadBytes))
        }
      }
    }
    return rows
  }

  fileprivate mutating func measureSteps<S: TimedSteps>(
    _ steps: inout S, pilot: ((inout S, Int) -> StepOutcome)? = nil
  ) -> Measurement {
    var observer = self.observer
    defer { self.observer = observer }
    return measure(&steps, options: plan.measure, pilot: pilot) { observer.update($0) }
  }

  /// Times each runner it is handed, counting its work on the pilot pass:
  /// the first pass from a fresh state, so a runner whose state moves from
  /// pass to pass (the live fleet) counts the same work however many passes
  /// the budget allowed, and reports the parameters it starts with (a
  /// buffered grid's base, rebuilt over moved points, changes its cell size
  /// with every pass).
  private struct Timer: WorkloadVisitor {
    var engine: RunEngine
    let index: String
    let bands: [ZoomBand]
    var results: [Timed] = []

    mutating func visit<W: Workload, R: StepRunner>(
      _ workload: W.Type, variant: String, _ runner: inout R
    ) throws where R.Answer == W.Answer {
      engine.observer.start(variant.isEmpty ? "\(index) \(W.name)" : "\(index) \(W.name) \(variant)")
      let counting = engine.plan.counters
      let parameters = runner.indexParameters
      var c = WorkCounters()
      let m = engine.measureSteps(&runner, pilot: counting ? { r, step in r.run(step: step, counters: &c) } : nil)
      let phases = runner.phases.filter { W.phases.contains($0.name) }.map {
        ($0.name, Self.timedPart(of: $0.nanos, m, steps: runner.stepCount))
      }
      let counters: WorkCounters? = counting ? c : nil
      let cuts = bands.map { (name: $0.name, cut: m.cut(to: $0, steps: runner.stepCount)) }
      results.append(Timed(
        workload: W.name, variant: variant, measurement: m, counters: counters, churn: runner.churn,
        workloadBytes: runner.workloadBytes, bands: cuts, phases: phases,
        indexParameters: parameters))
    }

    /// A phase's times as a measurement like `m`: its last `passes · batch ·
    /// steps` calls are the timed ones, each sample their batch's mean.
    static func timedPart(of nanos: [Double], _ m: Measurement, steps: Int) -> Measurement {
      let timed = m.passes * m.batch * steps
      var part = m
      part.samples = []
      guard timed > 0, nanos.count >= timed else { return part }
      let calls = nanos[(nanos.count - timed)...]
      part.samples.reserveCapacity(timed / m.batch)
      var i = calls.startIndex
      while i < calls.endIndex {
        part.samples.append(calls[i..<i + m.batch].reduce(0, +) / Double(m.batch))
        i += m.batch
      }
      return part
    }
  }

  private struct Timed {
    var workload: String
    var variant: String
    var measurement: Measurement
    var counters: WorkCounters?
    var churn: Int?
    var workloadBytes: Int?
    var bands: [(name: String, cut: Measurement)]
    var phases: [(name: String, cut: Measurement)]
    var indexParameters: [ParameterValue]?
  }
}

extension Measurement {
  /// The samples of `band`'s steps (sample `i` is step `i mod steps`), for
  /// its zoom band's row.
  func cut(to band: ZoomBand, steps: Int) -> Measurement {
    let n = max(1, steps)
    var cut = self
    cut.samples = samples.enumerated().filter { band.steps.contains($0.offset % n) }.map(\.element)
    return cut
  }
}

/// Binds a concrete index to the concrete workload ``withWorkloadType(named:_:)``
/// names, and hands its runners to a visitor.
struct BindWorkload<I: DescribedIndex, V: WorkloadVisitor>: WorkloadTypeOperation {
  let index: I
  let data: WorkloadData
  let variants: [String]
  var visitor: V

  mutating func run<W: Workload>(_ type: W.Type) throws {
    try W.visitRunners(on: index, data, variants: variants, &visitor)
  }
}

/// Report rows of one index and parameter set.
private struct RowMaker {
  let index: String
  var params: String
  let dataset: LoadedDataset
  let indexBytes: Int
  let metadata: RunMetadata
  /// The `filter` column of each workload's rows (``RunPlan/filterLabels``).
  var filterLabels: [String: String] = [:]
  /// The index's mapped bytes and those resident, as last read.
  var mapped: (mapped: Int, resident: Int?)? = nil

  func row(
    _ workload: String, _ variant: String, _ m: Measurement, buildMs: Double,
    zooms: String = "all", counters: WorkCounters? = nil, churn: Int? = nil,
    workloadBytes: Int? = nil
  ) -> ReportRow {
    ReportRow(
      key: ReportKey(
        index: index, params: params, dataset: dataset.name, n: dataset.count,
        workload: workload, strategy: variant, zooms: zooms, filter: filterLabels[workload] ?? ""),
      timing: TimingSummary(m),
      buildMilliseconds: buildMs, indexBytes: indexBytes,
      workloadBytes: workloadBytes.map { UInt64($0) },
      peakRSSBytes: MachineInfo.peakResidentBytes(), resultsTotal: m.resultsTotal,
      checksum: m.checksum, churn: zooms == "all" ? churn.map { UInt64($0) } : nil,
      counters: counters.map {
        ReportCounters(
          nodesVisited: UInt64($0.nodesVisited), pointsTested: UInt64($0.pointsTested),
          pointsReported: UInt64($0.pointsReported))
      } ?? .none,
      run: metadata, datasetOrigin: dataset.origin,
      mappedBytes: mapped.map { UInt64($0.mapped) }, residentBytes: mapped?.resident.map { UInt64($0) })
  }
}

/// Building the index, as one step a repetition; with a saved index
/// (`indexFile`), opening it, every byte checked.
struct BuildRunner<I: DescribedIndex>: TimedSteps {
  let points: [Point]
  let parameters: I.Parameters
  var indexFile: String? = nil
  var stepCount: Int { 1 }

  mutating func runStep(_ step: Int) -> StepOutcome {
    // Each pass builds (or opens) and drops its index: one at a time.
    guard let index = try? makeIndex(I.self, points: points, parameters: parameters, indexFile: indexFile) else {
      return StepOutcome(digest: 0, count: 0)
    }
    return StepOutcome(digest: UInt64(index.count), count: index.count)
  }
}
