import BenchFormats
import BenchHarness
import BenchWorkloads
import MapClustering
import SpatialIndexes

/// `bench query`: answers a queries file over a points file with one index,
/// for one workload, in that workload's answer format (the contract other
/// libraries and tests rely on; `docs/formats.md` documents each):
///
/// - `viewport` (the default): `query,count,id_sum` per row of a queries file;
/// - `cluster`: `query,cell_x,cell_y,count,lat,lon,id` per marker (a queries
///   file with zooms);
/// - `tap`: `query,id` per row of a taps file (`lat,lon,zoom`);
/// - `nearest`: `query,rank,id,distance_m` per neighbour of a positions file
///   (`lat,lon`), the `--k` nearest (default 10);
/// - `live`: the cluster columns, per marker of each frame after the fleet's
///   moves (`--moving`, `--fps`, `--seed`), through `move` on a dynamic index
///   and `buffered` on a static one unless `--strategy` says.
///
/// `query` is the 0-based data row; ids are the points file's (its id
/// column, else 0-based rows).
///
/// `--filter EXPR` keeps only the points that pass it (viewport, cluster and
/// tap); a queries or taps file's `filter` column replaces it for a row that
/// has one. `--aggregate` adds a column per aggregate to the cluster
/// answers. The properties they name are checked against the points file's
/// header (or its GeoJSON features' names) before the points are loaded,
/// and only those are read.
func queryCommand(_ arguments: [String]) throws -> Int32 {
  let command = "query"
  var o = QueryOptions()
  let given = try QueryOptions.table.parse(arguments, into: &o)
  // the table requires --queries; the index and points come from --index
  // and --points, or both from --index-file
  let queriesPath = o.queries!
  if let indexFile = o.indexFile {
    let clash = ["--index", "--points", "--param"].filter(given.contains)
    if !clash.isEmpty {
      throw UsageError(
        "--index-file holds the index, its parameters and its points: give it without \(clash.joined(separator: ", "))",
        command: command)
    }
    o.index = try SavedIndexes.kind(at: indexFile)
  } else if o.index == nil || o.points == nil {
    throw UsageError("give --index NAME and --points FILE, or --index-file FILE", command: command)
  }
  let index = o.index!
  let pointsPath = o.indexFile ?? o.points!
  let workload = o.workload
  try checkParameters(o.params, indexes: [index], command: command)
  guard o.params.allSatisfy({ $0.values.count == 1 }) else {
    throw UsageError("--param takes one value here", command: command)
  }
  let type = WorkloadCatalog.type(named: workload)!
  if workload == FilterSessionWorkload.name {
    throw UsageError(
      "the \(workload) workload draws its filters for a known dataset (bench run, verify); here, give the "
        + "cluster workload a queries file with a filter column", command: command)
  }
  if o.k != nil && workload != NearestWorkload.name {
    throw UsageError("--k is for the nearest workload", command: command)
  }
  if workload == NearestWorkload.name && o.strategy != nil {
    throw UsageError("the nearest workload takes --k, not --strategy", command: command)
  }
  if o.filter != nil && !RunFilter.filteredWorkloads.contains(workload) {
    throw UsageError(
      "--filter is for the \(RunFilter.filteredWorkloads.joined(separator: ", ")) workloads, not \(workload)",
      command: command)
  }
  if !o.aggregates.isEmpty && workload != ClusterWorkload.name {
    throw UsageError("--aggregate is for the cluster workload, not \(workload)", command: command)
  }
  let indexType = indexType(named: index)!
  // the reference variant, or the first that runs on this index (live's
  // `move` needs a dynamic index)
  let runnable = type.variants.filter { type.runs($0, on: indexType) }
  let fallback = runnable.contains(type.referenceVariant) ? type.referenceVariant : runnable.first ?? type.referenceVariant
  let variant = workload == NearestWorkload.name ? "k=\(o.k ?? 10)" : o.strategy ?? fallback
  guard type.variants.contains(variant) || workload == NearestWorkload.name else {
    let valid = type.variants.filter { !$0.isEmpty }
    throw valid.isEmpty
      ? UsageError("the \(workload) workload has no strategies", command: command)
      : UsageError.unknown("strategy", variant, valid: valid, command: command)
  }
  guard workload == NearestWorkload.name || type.runs(variant, on: indexType) else {
    throw UsageError(
      "the \(workload) workload's \(variant) strategy does not run on \(index) (it needs a dynamic index); "
        + "it runs \(runnable.joined(separator: ", "))", command: command)
  }
  // `--out -` is standard output, as no --out is
  let outFile = o.out == "-" ? nil : o.out
  let inputs = [InputSource(o.indexFile == nil ? "--points" : "--index-file", pointsPath), InputSource("--queries", queriesPath)]
  try OutputCheck.check(outFile.map { [OutputTarget("--out", $0)] } ?? [], inputs: inputs)

  // the steps first: their filters name properties the points must have
  var steps: MapSteps
  var rows: [RowFilter?] = []
  if type.need == .tap {
    let taps = try TapsFile(contentsOf: queriesPath)
    steps = MapSteps(taps: taps)
    rows = taps.filters
  } else if type.need == .position {
    steps = MapSteps(positions: try Datasets.readPoints(queriesPath).points, source: queriesPath)
  } else {
    let queries = try QueriesFile(contentsOf: queriesPath)
    steps = MapSteps(queries: queries, screen: o.screen, seed: o.seed)
    rows = queries.filters
  }
  if let why = steps.missing(type.need) {
    throw UsageError("\(why): the \(workload) workload needs \(type.need.phrase)", command: command)
  }
  if let row = rows.first(where: { $0 != nil }) ?? nil, !RunFilter.filteredWorkloads.contains(workload) {
    throw UsageError(
      "\(queriesPath):\(row.line): a filter, and the \(workload) workload takes none", command: command)
  }
  let filter = try RunFilter(
    filter: o.filter ?? .passesAll, aggregates: o.aggregates, rows: rows, source: queriesPath)
  let dataset: LoadedDataset
  var compiled: StepFilter?
  if let indexFile = o.indexFile {
    guard filter.isEmpty else {
      throw UsageError(
        "a saved index holds no properties: --filter, --aggregate and a filter column need --points, not --index-file",
        command: command)
    }
    dataset = try SavedIndexes.dataset(at: indexFile)
  } else {
    try checkPropertyNames(filter, pointsFile: pointsPath, command: command)
    let file = try Datasets.readPoints(pointsPath, properties: filter.requests)
    dataset = LoadedDataset(name: pointsPath, points: file.points, ids: file.ids, properties: file.properties)
    compiled = filter.isEmpty ? nil : try compiledFilter(filter, file.properties, steps: steps.count, command: command)
  }
  var live = o.live
  live.seed = o.seed
  steps.live = live
  guard let text = try Answers.csv(
    workload: workload, variant: variant, index: index, parameters: o.params, dataset: dataset,
    steps: steps, indexFile: o.indexFile, filter: compiled)
  else {
    throw UsageError("\(index) gave no answers for \(workload) \(variant)", command: command)
  }
  if let outFile {
    try AtomicFile.write(Array(text.utf8), to: outFile)
  } else {
    output(text, terminator: "")
  }
  return 0
}

/// What `bench query` reads from the command line.
struct QueryOptions {
  var workload = ViewportWorkload.name
  var index: String?
  var points: String?
  /// A saved index in place of `index` and `points`.
  var indexFile: String?
  var queries: String?
  var out: String?
  var strategy: String?
  var screen = (width: Viewport.phone.width, height: Viewport.phone.height)
  var seed: UInt64 = 42
  var k: Int?
  var params: [ParameterSweep] = []
  var live = LiveSettings()
  var filter: PointFilter?
  var aggregates: [ClusterAggregate] = []

  typealias F = Flag<QueryOptions>

  static var table: FlagTable<QueryOptions> {
    FlagTable("query", [
      .index(\.index, help: "the index that answers (or --index-file)"),
      .text("--points", "FILE", \.points, help: "the points: .csv, .geojson or .f64 (or --index-file)"),
      .text("--index-file", "FILE", \.indexFile,
            help: "a saved index (bench save) in place of --index and --points; ids are\nthe saved points file's (else 0-based positions)"),
      .text("--queries", "FILE.csv", \.queries, help: "the queries, taps or positions (see above)").mandatory,
      F("--workload", WorkloadCatalog.names.joined(separator: "|"), help: "the question asked (default viewport)") {
        (o: inout QueryOptions, v: FlagValue) throws(UsageError) in
        guard let type = WorkloadCatalog.type(named: v.text) else {
          throw .unknown("workload", v.text, valid: WorkloadCatalog.names, command: v.command)
        }
        o.workload = type.name
      },
      .out(\.out, "FILE.csv", help: "the answers (default standard output; - is standard output)"),
      .param(\.params, help: "an index parameter, one value; given once per parameter"),
      F("--strategy", "NAME", help: "the workload's variant (default its reference, or the first that runs)") {
        (o: inout QueryOptions, v: FlagValue) throws(UsageError) in
        o.strategy = v.text.lowercased()
      },
      F("--k", "K", help: "nearest: how many neighbours (default 10)") {
        (o: inout QueryOptions, v: FlagValue) throws(UsageError) in
        o.k = try v.integer(in: 1...100_000)
      },
      .screen(\.screen, help: "screen size in points, for centre-and-zoom rows (default 390x844)"),
      .seed(\.seed, help: "seed of the taps drawn and the live moves (default 42)"),
      .moving(\.live.share),
      .fps(\.live.framesPerSecond, help: "live: frames a second (default 60)"),
      .filter(\.filter, help: "viewport, cluster, tap: only the points that pass, e.g.\n\"stars >= 4 and chain in (chain-1, chain-2)\" (a row's filter column replaces it)"),
      .aggregates(\.aggregates, help: "cluster: a column per aggregate of a numeric property, in order"),
    ])
  }
}
