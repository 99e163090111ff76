import BenchHarness
import BenchWorkloads
import Foundation
import SpatialIndexes

/// What `bench recommend` reads from the command line, and the two runs it
/// makes of them (``firstRun``, ``secondRun(for:sweep:)``).
struct RecommendOptions {
  static let command = "recommend"
  /// The engines `--peer` runs beside the indexes.
  static let engines = ["postgis"]

  var run = RunOptions()
  var budget = FrameBudget()
  /// `--peer postgis`: PostGIS (GiST) measured on the same steps, a
  /// candidate like an index; on `--connection`'s server, else its own.
  var peer = false
  /// The budgeted workloads the map does (live is added by `--live`).
  static let workloads = ["viewport", "cluster", "tap", "nearest"]
  /// Those `--workload` chose, in the order given.
  var chosenWorkloads = RecommendOptions.workloads

  /// The measured run: three repetitions of a 200-step session, a row stopping
  /// after a second (one pass at least), so 1M points take under a minute.
  init() {
    run.indexes = allIndexTypes.map { $0.name }
    run.repeats = 3
    run.warmup = 1
    run.budget = 1
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> RecommendOptions {
    var o = RecommendOptions()
    try table.parse(arguments, into: &o)
    if o.run.connection != nil && !o.peer {
      throw UsageError("--connection needs --peer postgis", command: command)
    }
    o.run.workloads = [WorkloadCatalog.buildName] + o.chosenWorkloads + (o.budget.live ? ["live"] : [])
    // a map that clusters data with properties filters them: the filter session is weighed too
    if o.chosenWorkloads.contains(ClusterWorkload.name), FilterSession.forDataset(o.run.dataset) != nil {
      o.run.workloads.append(FilterSessionWorkload.name)
    }
    // Rebuilding every frame is bench run's comparison row: at 1M points it
    // alone would take most of the minute.
    o.run.strategies = RunOptions.strategyNames.filter { $0 != "rebuild" }
    return o
  }

  typealias F = Flag<RecommendOptions>

  static var table: FlagTable<RecommendOptions> {
    FlagTable(command, [
      Flag.dataset(\.dataset, help: "bundled name, generator name or a points file (default places)").lifted(\.run),
      Flag.count(\.n).lifted(\.run),
      Flag.screen(\.screen, help: "screen size in points (default 390x844)").lifted(\.run),
      F("--fps", "HZ", help: "frame rate: 60 (default) or 120 (any 1...1000)") {
        (o: inout RecommendOptions, v: FlagValue) throws(UsageError) in
        let fps = Double(try v.integer(in: 1...1000))
        o.budget.framesPerSecond = fps
        o.run.framesPerSecond = fps
      },
      .toggle("--live", \.budget.live, help: "the data changes: the live workload (move and buffered) counts"),
      F("--memory-limit", "SIZE", help: "the most the index and clustering may hold: 512MB, 2GB, 1.5GiB") {
        (o: inout RecommendOptions, v: FlagValue) throws(UsageError) in
        o.budget.memoryLimitBytes = try byteCount(v.text, flag: v.flag)
      },
      F("--workload", "LIST",
        help: "what the map does, of \(workloads.joined(separator: ",")) (default all):\na map that always clusters leaves viewport out (at 10M points a\nworld view holds millions, which no index lists in a frame)"
      ) { (o: inout RecommendOptions, v: FlagValue) throws(UsageError) in
        o.chosenWorkloads = try v.names(workloads, what: "workload")
      },
      Flag.steps(\.steps, in: 10...100_000, help: "session steps (default 200)").lifted(\.run),
      Flag.repeats(\.repeats, in: 1...1000, help: "repetitions (default 3)").lifted(\.run),
      Flag.seed(\.seed).lifted(\.run),
      Flag.out(\.out, "FILE.csv", help: "the rows; the page goes beside it as FILE.html").lifted(\.run),
      Flag.quiet(\.quiet).lifted(\.run),
      F("--peer", "postgis",
        help: "PostGIS (GiST) on the same steps, each clock a candidate (as bench peer;\nexit 69 when PostgreSQL or PostGIS is missing)"
      ) { (o: inout RecommendOptions, v: FlagValue) throws(UsageError) in
        let engine = v.text.lowercased()
        guard engines.contains(engine) else { throw .unknown("engine", engine, valid: engines, command: v.command) }
        o.peer = true
      },
      Flag.text("--connection", "CONNINFO", \.connection, help: "with --peer: that server, not one of its own")
        .lifted(\.run),
    ])
  }

  /// `512MB`, `2GB`, `1.5GiB`, `800000000`: bytes, decimal or binary units.
  static func byteCount(_ text: String, flag: String) throws(UsageError) -> UInt64 {
    let units: [(String, Double)] = [
      ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("B", 1),
    ]
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    for (suffix, scale) in units + [("", 1)] where trimmed.uppercased().hasSuffix(suffix.uppercased()) {
      let number = trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
      if let v = Double(number), v.isFinite, v > 0, v * scale < 1.8e19 { return UInt64(v * scale) }
      break
    }
    throw UsageError("\(flag) \"\(text)\" is not a size such as 512MB, 2GB or 1.5GiB", command: command)
  }

  /// Around each default: the index's first whole-number parameter at half
  /// and twice its default (values the index refuses are left out).
  /// The indexes whose parameter grid the second run sweeps, at the first
  /// run's parameters: every index as fast as the best (at least the two
  /// best). Which of the as fast leads the first run is noise, and a grid
  /// swept for one of them alone would carry that noise into the pick.
  static func leaders(of first: Verdict) -> [Candidate] {
    var seen: Set<String> = []
    let indexes = first.ranking.filter { seen.insert($0.index).inserted }
    let asFast = indexes.filter { first.met && Verdict.meets($0, first.budget) && $0.worstUse <= first.bar }
    return asFast.count > 2 ? asFast : Array(indexes.prefix(2))
  }

  static func sweep(for index: String) -> ParameterSweep? {
    guard let type = indexType(named: index) else { return nil }
    return sweep(type)
  }

  private static func sweep<I: DescribedIndex>(_ type: I.Type) -> ParameterSweep? {
    for d in I.Parameters.descriptions {
      guard let value = Int(d.defaultValue), value > 0 else { continue }
      let values = [value / 2, value * 2].filter { v in
        var p = I.Parameters()
        return v > 0 && (try? p.set(d.name, to: "\(v)")) != nil
      }
      return values.isEmpty ? nil : ParameterSweep(key: d.name, values: values.map { "\($0)" })
    }
    return nil
  }

  /// `options` as the engine runs it: the static workloads as asked, and
  /// live apart, in one pass of at most ``liveSteps`` frames without a
  /// warm-up: its buffered strategy runs frames in real time (1/fps each),
  /// and the 200-frame session three times over took 80 s at 1M points.
  static func parts(_ options: RunOptions) -> [RunOptions] {
    var fixed = options
    fixed.workloads.removeAll { $0 == "live" }
    guard options.workloads.contains("live") else { return [fixed] }
    var live = options
    live.workloads = ["live"]
    live.steps = min(options.steps, liveSteps)
    live.repeats = 1
    live.warmup = 0
    return [fixed, live]
  }

  /// Frames of the live session.
  static let liveSteps = 100

  /// The second run: `candidate`'s index under `sweep`, with the variants it
  /// won with (every k of nearest).
  func secondRun(for candidate: Candidate, sweep: ParameterSweep) -> RunOptions {
    var o = run
    o.indexes = [candidate.index]
    o.params = [sweep]
    o.strategies = candidate.evidence.map(\.strategy).filter { !$0.isEmpty && !$0.hasPrefix("k=") }
    return o
  }
}
