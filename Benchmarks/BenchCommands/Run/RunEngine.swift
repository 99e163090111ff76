import BenchHarness
import Foundation
import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// Runs the chosen workloads on the chosen indexes over one dataset and
/// turns each measurement into a report row.
struct RunEngine {
  let options: RunOptions
  let metadata: RunMetadata
  let clockOverhead: Double
  var progress: Progress

  init(options: RunOptions, metadata: RunMetadata, progress: Progress) {
    self.options = options
    self.metadata = metadata
    self.progress = progress
    clockOverhead = Stopwatch.measureOverhead()
  }

  /// Every row for `dataset`, index by index in the order given.
  mutating func run(_ dataset: LoadedDataset, inputs: WorkloadInputs) throws -> [ReportRow] {
    var rows: [ReportRow] = []
    for name in options.indexes {
      var operation = RunIndex(engine: self, dataset: dataset, inputs: inputs)
      rows += try withIndexType(named: name, &operation)!
      self = operation.engine
    }
    return rows
  }

  /// ``runIndex(_:_:_:)`` for one concrete index type.
  private struct RunIndex: IndexTypeOperation {
    var engine: RunEngine
    let dataset: LoadedDataset
    let inputs: WorkloadInputs

    mutating func run<I: SpatialIndex>(_ type: I.Type) throws -> [ReportRow] {
      try engine.runIndex(type, dataset, inputs)
    }
  }

  private mutating func runIndex<I: SpatialIndex>(
    _ type: I.Type, _ dataset: LoadedDataset, _ inputs: WorkloadInputs
  ) throws -> [ReportRow] {
    var rows: [ReportRow] = []
    for parameters in try parameterSets(type, options.params, command: "run") {
      let t0 = Stopwatch.now()
      let index = try I(points: dataset.points, parameters: parameters)
      let firstBuild = Double(Stopwatch.now() &- t0)
      let label = index.parameterValues.map { "\($0.name)=\($0.value)" }.joined(separator: ";")
      func row(
        _ workload: String, _ strategy: String, _ m: Measured, buildMs: Double,
        zooms: String = "all"
      ) -> ReportRow {
        ReportRow(
          key: ReportKey(
            index: I.name, params: label, dataset: dataset.name, n: dataset.count,
            workload: workload, strategy: strategy, zooms: zooms),
          timing: TimingSummary(Statistics(m.samples), batch: m.batch),
          buildMilliseconds: buildMs, indexBytes: index.memoryBytes,
          peakRSSBytes: MachineInfo.peakResidentBytes(), resultsTotal: m.resultsTotal,
          checksum: m.checksum, churn: m.churn.map { UInt64($0) },
          counters: m.counters.map {
            ReportCounters(
              nodesVisited: UInt64($0.nodesVisited), pointsTested: UInt64($0.pointsTested),
              pointsReported: UInt64($0.pointsReported))
          } ?? .none,
          run: metadata)
      }
      var buildMs = firstBuild / 1e6
      if options.workloads.contains("build") {
        progress.start(index: I.name, workload: "build")
        var runner = BuildRunner<I>(points: dataset.points, parameters: parameters)
        let m = measureRunner(&runner)
        buildMs = Statistics(m.samples).median / 1e6
        rows.append(row("build", "", Measured(
          samples: m.samples, batch: m.batch, checksum: m.checksum, resultsTotal: m.resultsTotal,
          counters: nil), buildMs: buildMs))
      }
      var timer = TimingVisitor(engine: self, index: I.name)
      try visitRunners(index, dataset, inputs, options, &timer)
      progress = timer.engine.progress
      for (workload, strategy, m) in timer.results {
        rows.append(row(workload, strategy, m, buildMs: buildMs))
        // The same samples cut by zoom band (not for a --queries file's steps).
        guard workload != "viewport" || options.queriesFile == nil else { continue }
        for band in inputs.zoomBands {
          let part = m.samples.enumerated()
            .filter { band.steps.contains($0.offset % inputs.viewports.count) }.map(\.element)
          var cut = m
          cut.samples = part
          cut.counters = nil
          cut.churn = nil
          rows.append(row(workload, strategy, cut, buildMs: buildMs, zooms: band.name))
        }
      }
    }
    return rows
  }

  fileprivate mutating func measureRunner<R: StepRunner>(_ runner: inout R) -> Measured {
    var progress = self.progress
    defer { self.progress = progress }
    return measure(
      &runner, repeats: options.repeats, warmup: options.warmup, budget: options.budget * 1e9,
      clockOverhead: clockOverhead,
      counters: options.counters && !(runner is BuildRunnerMarker)
    ) { fraction in progress.update(fraction) }
  }
}

/// Times each workload it is handed.
private struct TimingVisitor: RunnerVisitor {
  var engine: RunEngine
  let index: String
  var results: [(String, String, Measured)] = []

  mutating func visit<R: StepRunner>(workload: String, strategy: String, _ runner: inout R) throws {
    engine.progress.start(index: index, workload: strategy.isEmpty ? workload : "\(workload) \(strategy)")
    results.append((workload, strategy, engine.measureRunner(&runner)))
  }
}

/// Build runners never record query counters.
protocol BuildRunnerMarker {}
extension BuildRunner: BuildRunnerMarker {}
