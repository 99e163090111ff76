import BenchFormats
import BenchHarness
import BenchWorkloads
import MapClustering
import SpatialIndexes

/// Everything `bench run`, `verify` and `export` read from the command line.
/// The engine never sees it: ``plan(metadata:)`` and ``steps(for:)`` turn it
/// into plain values.
struct RunOptions {
  /// `build`, then the catalogue's workloads.
  static var workloadNames: [String] { [WorkloadCatalog.buildName] + WorkloadCatalog.names }
  static let defaultWorkloads = [WorkloadCatalog.buildName, ViewportWorkload.name, ClusterWorkload.name]
  /// Every workload's named variants (cluster strategies, tap ways, k).
  /// Each once: the filter session shares the cluster strategies.
  static var strategyNames: [String] {
    var seen: Set<String> = []
    return WorkloadCatalog.all.flatMap { $0.variants }.filter { !$0.isEmpty && seen.insert($0).inserted }
  }
  /// Beyond this, 32-bit ids run out.
  static let maximumN = Int(Int32.max)

  var indexes: [String]
  var workloads = RunOptions.defaultWorkloads
  /// Whether `--workload all` chose them: a workload that cannot run on
  /// the data is then left out with a note, not refused.
  var workloadsAll = false
  var dataset = BundledDataset.defaultName
  var n: [Int]? = nil
  var steps = 200
  var queriesFile: String? = nil
  var params: [ParameterSweep] = []
  var strategies = RunOptions.strategyNames
  var screen = (width: Viewport.phone.width, height: Viewport.phone.height)
  var repeats = 5
  var warmup = 1
  /// Seconds after which a row stops adding repetitions (0: no limit);
  /// nil: ``defaultBudget(rows:)``.
  var budget: Double? = nil
  var seed: UInt64 = 42
  /// The live workload: the share of points moving a frame, frames a second.
  var moving = 0.01
  var framesPerSecond = 60.0
  var rebuildShare = 0.05
  var counters = false
  var out: String? = nil
  /// `run` only: the report as JSON too.
  var json: String? = nil
  var append = false
  var quiet = false
  /// `export` only.
  var pointsOut: String? = nil
  var queriesOut: String? = nil
  var tapsOut: String? = nil
  /// `export` only: the properties written with the points (`--properties`).
  var properties: [PropertyRequest] = []
  /// `peer` only: a server of the user's, as a psql connection string.
  var connection: String? = nil
  /// `peer` only: the index methods, each its own rows (`--index gist,spgist,brin`).
  var peerMethods: [PostGISEngine.Method] = [.gist]
  /// `run` and `verify`: a saved index opened instead of `--index` built
  /// over `--dataset` (``resolveIndexFile()``).
  var indexFile: String? = nil
  /// `verify` only: the sessions checked, in order (`--session`).
  var sessions = VerifySession.allCases
  /// `run`: the filter the viewport, cluster and tap steps apply, and its
  /// text as given (the report's `filter` column).
  var filter: PointFilter? = nil
  var filterText = ""
  /// `run`: the aggregates each cluster marker reports.
  var aggregates: [ClusterAggregate] = []

  /// The run's filter and aggregates (no row's filter: `run` reads none).
  var runFilter: RunFilter { RunFilter(filter: filter ?? .passesAll, aggregates: aggregates) }

  /// Refuses a filter with a workload it does not apply to (anything but
  /// viewport, cluster, tap and build, which filters nothing), and
  /// aggregates without the cluster workload.
  func checkFilter(command: String) throws(UsageError) {
    if indexFile != nil && (filter != nil || !aggregates.isEmpty) {
      throw UsageError(
        "a saved index holds no properties: --filter and --aggregate need the points (--dataset), not --index-file",
        command: command)
    }
    if filter != nil {
      let others = workloads.filter { $0 != WorkloadCatalog.buildName && !RunFilter.filteredWorkloads.contains($0) }
      if !others.isEmpty {
        throw UsageError(
          "--filter is for the \(RunFilter.filteredWorkloads.joined(separator: ", ")) workloads, not "
            + "\(others.joined(separator: ", ")): name the workloads with --workload", command: command)
      }
    }
    if !aggregates.isEmpty && !workloads.contains(ClusterWorkload.name) {
      throw UsageError("--aggregate is for the cluster workload, which this run does not run", command: command)
    }
  }

  /// The `filter` column of each filtered workload's rows.
  var filterLabels: [String: String] {
    guard filter != nil || !aggregates.isEmpty else { return [:] }
    var labels: [String: String] = [:]
    for w in RunFilter.filteredWorkloads {
      labels[w] = StepFilter.label(workload: w, filterText: filterText, aggregates: aggregates)
    }
    return labels
  }

  init() {
    indexes = []
  }

  /// The files the options read, for ``OutputCheck``: a dataset given as a
  /// file, and the queries file.
  var inputs: [InputSource] {
    [indexFile.map { InputSource("--index-file", $0) } ?? InputSource("--dataset", dataset)]
      + (queriesFile.map { [InputSource("--queries", $0)] } ?? [])
  }

  /// The flags a saved index replaces: it holds its index, its parameters
  /// and its points.
  static let flagsAnIndexFileReplaces = ["--index", "--dataset", "--points", "--n", "--param", "--threads"]

  /// With `--index-file`, the index it holds becomes the one run.
  ///
  /// - Throws: ``SpatialIndexes/SavedIndexError`` when the file's header is
  ///   not a saved index's (exit 65; 66 when it is missing).
  mutating func resolveIndexFile() throws {
    guard let indexFile else { return }
    indexes = [try SavedIndexes.kind(at: indexFile)]
  }

  /// The workloads `bench peer` runs unless told: all but live.
  static let peerWorkloads = [ViewportWorkload.name, ClusterWorkload.name, TapWorkload.name, NearestWorkload.name]

  /// The flags `command` (`run`, `verify`, `export`, `save` or `peer`) takes.
  static func table(for command: String) -> FlagTable<RunOptions> {
    switch command {
    case "verify": RunFlags.verify
    case "export": RunFlags.export
    case "save": RunFlags.save
    case "peer": RunFlags.peer
    default: RunFlags.run
    }
  }

  /// Parses `arguments` for `command`, whose table (``RunFlags``) decides
  /// which flags are allowed.
  static func parse(_ arguments: [String], command: String) throws(UsageError) -> RunOptions {
    var o = RunOptions()
    if command == "peer" {
      o.workloads = peerWorkloads
    } else {
      o.indexes = allIndexTypes.map { $0.name }
    }
    let given = try table(for: command).parse(arguments, into: &o)
    if o.indexFile != nil {
      let clash = flagsAnIndexFileReplaces.filter(given.contains)
      if !clash.isEmpty {
        throw UsageError(
          "--index-file holds the index, its parameters and its points: give it without \(clash.joined(separator: ", "))",
          command: command)
      }
    }
    // bad keys and values fail now, not after other indexes ran
    try checkParameters(o.params, indexes: o.indexes, command: command)
    if o.append && o.out == nil {
      throw UsageError("--append needs --out FILE.csv", command: command)
    }
    return o
  }

  /// `WIDTHxHEIGHT` in whole points, each in `range` (`bench render` reads
  /// its `--size` with a smaller range).
  /// The largest screen side, in points: a 4K display at 2× is 1920 × 1080
  /// points. A far larger screen made one pass of per-cell clustering run
  /// for minutes (a query per cell, hundreds of thousands of cells a step).
  static let maximumScreenSide = 4096

  static func screenSize(
    _ text: String, _ command: String, flag: String = "--screen",
    range: ClosedRange<Int> = 1...RunOptions.maximumScreenSide
  ) throws(UsageError) -> (Double, Double) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
          range.contains(w), range.contains(h)
    else {
      throw UsageError(
        "\(flag) \"\(text)\" is not WIDTHxHEIGHT in points, each in "
          + "\(range.lowerBound)...\(range.upperBound) (e.g. 390x844)", command: command)
    }
    return (Double(w), Double(h))
  }

  // MARK: - What the engine gets

  /// The chosen workloads (not `build`), in catalogue order, each with the
  /// chosen strategies among its variants, or all of them when none of its
  /// variants is chosen (`--strategy aggregate` narrows the cluster rows
  /// and leaves the tap's and nearest's as they are).
  var workloadChoices: [WorkloadChoice] {
    WorkloadCatalog.all.filter { workloads.contains($0.name) }.map { type in
      let chosen = type.variants.filter(strategies.contains)
      return WorkloadChoice(name: type.name, variants: chosen.isEmpty ? type.variants : chosen)
    }
  }

  /// A row's budget when `--budget` is not given: 2 s, or 20 s shared by
  /// the run's rows when that is less. A run then measures for about 20 s
  /// whatever the data: on a million copies of one place every pass is long
  /// (each view holds them all), and 2 s a row made the main job take 36 s.
  /// A row whose one pass is longer still takes that pass.
  static func defaultBudget(rows: Int) -> Double { min(2, 20 / Double(max(1, rows))) }

  /// The run these options ask for over `datasets` datasets.
  func plan(metadata: RunMetadata, clockOverhead: Double, datasets: Int = 1) throws -> RunPlan {
    var plan = RunPlan(
      indexes: indexes, sweeps: params, build: workloads.contains(WorkloadCatalog.buildName),
      workloads: workloadChoices,
      measure: MeasureOptions(repeats: repeats, warmup: warmup, budget: 0, clockOverhead: clockOverhead),
      counters: counters, metadata: metadata, indexFile: indexFile, filterLabels: filterLabels)
    let seconds = try budget ?? Self.defaultBudget(rows: plan.units(datasets: datasets))
    plan.measure.budget = seconds * 1e9
    return plan
  }

  /// The steps every index runs over `dataset`: the seeded session, or the
  /// rows of `--queries`.
  func steps(for dataset: LoadedDataset, queries: QueriesFile?) -> MapSteps {
    var steps = queries.map { MapSteps(queries: $0, screen: screen, seed: seed) }
      ?? MapSteps(session: ViewportSession(
        points: dataset.points,
        parameters: SessionParameters(
          steps: self.steps, seed: seed, screenWidth: screen.width, screenHeight: screen.height)))
    steps.live = LiveSettings(share: moving, framesPerSecond: framesPerSecond, seed: seed, rebuildShare: rebuildShare)
    return steps
  }

  /// Refuses, before any work, a workload the steps cannot drive (a cluster
  /// run over a queries file without zooms).
  func checkNeeds(_ steps: MapSteps, command: String) throws(UsageError) {
    for choice in workloadChoices {
      guard let type = WorkloadCatalog.type(named: choice.name), let why = steps.missing(type.need)
      else { continue }
      throw UsageError("\(why): the \(choice.name) workload needs \(type.need.phrase)", command: command)
    }
  }
}

/// `--threads N|auto`: the `threads` parameter of the indexes that build on
/// several threads, so reports record it in `params`; read by their rule
/// (``BuildThreads``), so the flag takes exactly what `--param threads=`
/// takes.
func threadsSweep(_ text: String, command: String) throws(UsageError) -> ParameterSweep {
  do {
    _ = try BuildThreads.parse(BuildThreads.name, text)
  } catch {
    throw UsageError(
      "--threads \"\(text)\" is not a count in 1...\(BuildThreads.limit) or auto", command: command)
  }
  return ParameterSweep(key: BuildThreads.name, values: [text])
}

/// `--moving SHARE`: the live workload's share of points moving a frame.
func movingShare(_ text: String, command: String) throws(UsageError) -> Double {
  guard let share = Double(text), share >= 0, share <= 1 else {
    throw UsageError("--moving \"\(text)\" is not a share of the points in 0...1 (e.g. 0.01)", command: command)
  }
  return share
}
