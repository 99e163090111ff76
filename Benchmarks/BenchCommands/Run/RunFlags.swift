import BenchFormats
import BenchWorkloads
import MapClustering
import SpatialIndexes

/// The flags of `bench run` and of the commands that share its options
/// (`verify`, `export`, `peer`), each declared once. A command's table
/// holds only the flags it uses; those of a sibling it has no use for are
/// refused with the reason.
enum RunFlags {
  typealias F = Flag<RunOptions>

  /// `bench run`.
  static var run: FlagTable<RunOptions> {
    FlagTable("run", [
      index, indexFile, workload, dataset, n, steps, queries, param, strategy, threads, screen, moving, fps,
      rebuildShare, repeats, warmup, budget, seed, counters, filter, aggregates,
      .out(\.out, "FILE.csv", help: "the report (default results/<date>-<commit>-run.csv, never overwritten)"),
      .text("--json", "FILE.json", \.json, help: "the report as JSON too (rows and run metadata)"),
      append, .quiet(\.quiet),
    ])
  }

  /// `bench verify`: no timing and no report.
  static var verify: FlagTable<RunOptions> {
    FlagTable("verify", [
      index, indexFile, workload, dataset, n, steps, queries, param, strategy, threads, screen, moving, fps,
      rebuildShare, seed, session,
      filter.explained("viewport, cluster, tap: check this filter (default: the dataset's\nown checks, bench help verify)"),
      aggregates,
      .quiet(\.quiet, help: "print only the differences and the closing line"),
    ], refused: [
      "--repeat": timesNothing, "--warmup": timesNothing, "--budget": timesNothing,
      "--counters": timesNothing, "--out": writesNoReport, "--json": writesNoReport,
      "--append": writesNoReport,
    ])
  }

  /// `bench save`: one index built and written, no workload.
  static var save: FlagTable<RunOptions> {
    let noWorkload = "it builds one index and writes it; it runs no workload"
    return FlagTable("save", [
      index.explained("the index to save: kdtree, rtree or celltree").mandatory,
      dataset, n.explained("points for a generator; for a file, a seeded sample (default all rows);\none count"),
      .param(\.params, help: "an index parameter, one value; given once per parameter"), threads, seed,
      .out(\.out, "FILE", help: "the saved index (never overwritten)").mandatory,
      .quiet(\.quiet, help: "no line on stderr once the file is written (errors still are)"),
    ], refused: [
      "--index-file": "it writes a saved index; bench run, verify and query open one",
      "--workload": noWorkload, "--strategy": noWorkload, "--steps": noWorkload, "--queries": noWorkload,
      "--repeat": timesNothing, "--warmup": timesNothing, "--budget": timesNothing, "--counters": timesNothing,
      "--json": noWorkload, "--append": noWorkload,
    ])
  }

  /// `bench export`: the points and steps, no index.
  static var export: FlagTable<RunOptions> {
    let noIndex = "it writes the points and steps; it builds no index and runs no workload"
    let files = "its files are --points-out, --queries-out and --taps-out"
    return FlagTable("export", [
      .text("--points-out", "FILE.csv|FILE.geojson|FILE.f64", \.pointsOut,
            help: "the points, in the format the name says: id,lat,lon CSV; a GeoJSON\nFeatureCollection of Points (.geojson or .json); longitude, latitude\nfloat64 pairs (.f64). Any other name is refused").mandatory,
      .text("--queries-out", "FILE.csv", \.queriesOut, help: "the steps' viewports: min_lat,min_lon,max_lat,max_lon,zoom")
        .mandatory,
      .text("--taps-out", "FILE.csv", \.tapsOut, help: "the steps' taps: lat,lon,zoom"),
      properties,
      dataset, n, steps, queries, screen, seed,
      .quiet(\.quiet, help: "no line on stderr once the files are written (errors still are)"),
    ], refused: [
      "--index": noIndex, "--index-file": noIndex, "--workload": noIndex, "--param": noIndex, "--threads": noIndex, "--strategy": noIndex,
      "--moving": noIndex, "--fps": noIndex, "--rebuild-share": noIndex,
      "--repeat": timesNothing, "--warmup": timesNothing, "--budget": timesNothing,
      "--counters": timesNothing, "--out": files, "--json": files, "--append": files,
      "--filter": noIndex, "--aggregate": noIndex,
    ])
  }

  /// `bench peer postgis`: a database engine, not an index.
  static var peer: FlagTable<RunOptions> {
    let engine = "a database engine, not an index"
    let methods = PostGISEngine.Method.allCases.map(\.rawValue)
    return FlagTable("peer", [
      F("--index", "LIST",
        help: "the index method of both spatial columns, each its own rows:\ngist (default), spgist, brin (postgis-gist, -spgist, -brin)"
      ) { (o: inout RunOptions, v: FlagValue) throws(UsageError) in
        o.peerMethods = try v.names(methods, what: "PostGIS index").compactMap(PostGISEngine.Method.init)
      },
      workload.explained("of viewport, cluster, tap, nearest (default all four)"),
      dataset, n, steps, queries, strategy, screen,
      repeats, warmup, budget.explained("a row stops repeating after this long, one pass at least (default 2)"), seed,
      .filter(
        \.filter, text: \.filterText,
        help: "viewport, cluster, tap: a WHERE on the points' properties, e.g.\n\"stars >= 4\" (name the workloads with --workload)"),
      .aggregates(\.aggregates, help: "cluster: SUM, MIN and MAX of numeric properties for each cell"),
      .out(\.out, "FILE.csv", help: "the report (default results/<date>-<commit>-peer-postgis.csv, never overwritten)"),
      .quiet(\.quiet),
      .text("--connection", "CONNINFO", \.connection, help: "a server of yours: 'host=… dbname=…' or postgresql://…"),
    ], refused: [
      "--index-file": engine, "--param": engine, "--threads": engine, "--counters": engine, "--append": engine, "--moving": engine,
      "--fps": engine, "--rebuild-share": engine,
    ])
  }

  static let timesNothing = "it times nothing"
  static let writesNoReport = "it writes no report: its answer is what it prints and its exit code"

  // MARK: - The flags

  static var index: F { .indexes(\.indexes) }

  static var indexFile: F {
    .text("--index-file", "FILE", \.indexFile,
          help: "a saved index (bench save) in place of --index and --dataset: its\npoints are the dataset, its build row (strategy open) times the open")
  }

  static var workload: F {
    F("--workload", "NAME[,NAME…]|all",
      help: "\(RunOptions.workloadNames.joined(separator: ", ")) (default \(RunOptions.defaultWorkloads.joined(separator: ",")))"
    ) { (o: inout RunOptions, v: FlagValue) throws(UsageError) in
      o.workloads = try v.names(RunOptions.workloadNames, what: "workload")
      o.workloadsAll = v.text == "all"
    }
  }

  static var strategy: F {
    F("--strategy", "NAME[,NAME…]|all",
      help: "workload variants: \(RunOptions.strategyNames.joined(separator: ", "))\n(default all; a workload none of whose variants is named runs all)"
    ) { (o: inout RunOptions, v: FlagValue) throws(UsageError) in
      o.strategies = try v.names(RunOptions.strategyNames, what: "strategy")
    }
  }

  /// `--properties NAME[:number][,NAME…]`: a category (text as read)
  /// unless suffixed `:number` (a fixed-point decimal).
  static var properties: F {
    F("--properties", "NAME[:number][,…]",
      help: "properties written with the points: CSV columns after lon, GeoJSON\n"
        + "properties (none in .f64). Each as its text, or with :number as an exact\n"
        + "decimal (a bad one exits 65). hotels has stars, price, chain"
    ) { (o: inout RunOptions, v: FlagValue) throws(UsageError) in
      var requests: [PropertyRequest] = []
      for part in v.text.split(separator: ",", omittingEmptySubsequences: false) {
        let number = part.hasSuffix(":number")
        let name = String(number ? part.dropLast(":number".count) : part)
        guard !name.isEmpty else { throw v.error("--properties \"\(v.text)\" has an empty name") }
        guard !requests.contains(where: { $0.name == name }) else {
          throw v.error("--properties names \"\(name)\" twice")
        }
        requests.append(PropertyRequest(name, number ? .number : .category))
      }
      o.properties = requests
    }
  }

  static var filter: F {
    .filter(
      \.filter, text: \.filterText,
      help: "viewport, cluster, tap: only the points that pass, e.g. \"stars >= 4\"\n(the report's filter column names it)")
  }
  static var aggregates: F {
    .aggregates(\.aggregates, help: "cluster: the aggregates each marker reports, in order")
  }

  static var dataset: F { .dataset(\.dataset) }
  static var n: F { .counts(\.n) }
  static var steps: F { .steps(\.steps) }
  static var queries: F {
    .text("--queries", "FILE.csv", \.queriesFile,
          help: "one step per row instead of the session (boxes, or centres with\n--screen); cluster and tap need a zoom column; positions (lat,lon)\nare nearest's, searched exactly there")
  }
  static var param: F { .param(\.params) }
  static var threads: F { .threads(\.params) }
  static var screen: F { .screen(\.screen) }
  static var moving: F { .moving(\.moving) }
  static var fps: F {
    .fps(\.framesPerSecond,
         help: "live: frames a second, for the distance moved and the buffered\nstrategy's real-time frames (default 60)")
  }

  static var rebuildShare: F {
    F("--rebuild-share", "SHARE",
      help: "live: the buffered strategy rebuilds when this share of the points\nmoved since its last build (default 0.05)"
    ) { (o: inout RunOptions, v: FlagValue) throws(UsageError) in
      guard let share = Double(v.text), share > 0, share <= 1 else {
        throw v.error("--rebuild-share \"\(v.text)\" is not a share of the points in (0, 1] (e.g. 0.05)")
      }
      o.rebuildShare = share
    }
  }

  static var repeats: F { .repeats(\.repeats, in: 1...100_000, help: "timed repetitions of each workload (default 5)") }

  static var warmup: F {
    F("--warmup", "W", help: "untimed repetitions first (default 1)") {
      (o: inout RunOptions, v: FlagValue) throws(UsageError) in
      o.warmup = try v.integer(in: 0...100_000)
    }
  }

  static var budget: F {
    F("--budget", "SECONDS",
      help: "a row stops repeating after this long, one pass at least (default 2, or 20 shared by the rows when less; 0 = no limit)"
    ) { (o: inout RunOptions, v: FlagValue) throws(UsageError) in
      guard let b = Double(v.text), b.isFinite, b >= 0, b <= 86_400 else {
        throw v.error("--budget \"\(v.text)\" must be seconds in 0...86400")
      }
      o.budget = b
    }
  }

  static var seed: F { .seed(\.seed) }

  /// `verify` only: the map session, the adversarial one, or both (``VerifySession``).
  static var session: F {
    F("--session", "map|adversarial|all",
      help: "the map session (the seeded session, or --queries), the adversarial\nsession made from the dataset, or both, map first (default all)"
    ) { (o: inout RunOptions, v: FlagValue) throws(UsageError) in
      let named = try v.names(VerifySession.allCases.map(\.rawValue), what: "session")
      o.sessions = VerifySession.allCases.filter { named.contains($0.rawValue) }
    }
  }
  static var counters: F { .toggle("--counters", \.counters, help: "record nodes visited, points tested, points reported") }
  static var append: F { .toggle("--append", \.append, help: "add rows to an existing report with the same header") }
}
