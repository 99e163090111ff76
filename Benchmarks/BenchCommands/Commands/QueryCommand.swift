import BenchFormats
import BenchHarness
import BenchWorkloads
import MapClustering
import SpatialIndexes

/// `bench query`: answers a queries file over a points file with one index,
/// for one workload, in that workload's answer format (the contract other
/// libraries and tests rely on; `results/README.md` documents each):
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
func queryCommand(_ arguments: [String]) throws -> Int32 {
  let command = "query"
  var reader = ArgumentReader(arguments, command: command)
  var workload = ViewportWorkload.name
  var index: String?, pointsPath: String?, queriesPath: String?, out: String?
  var strategy: String?
  var screen = (width: Viewport.phone.width, height: Viewport.phone.height)
  var seed: UInt64 = 42
  var k: Int?
  var params: [ParameterSweep] = []
  var live = LiveSettings()
  let flags = [
    "--workload", "--index", "--points", "--queries", "--out", "--param", "--strategy", "--k", "--screen", "--seed",
    "--moving", "--fps",
  ]
  while let a = reader.next() {
    switch a {
    case "--workload":
      let text = try reader.value(for: a)
      guard let type = WorkloadCatalog.type(named: text) else {
        throw UsageError.unknown("workload", text, valid: WorkloadCatalog.names, command: command)
      }
      workload = type.name
    case "--index": index = try reader.value(for: a)
    case "--points": pointsPath = try reader.value(for: a)
    case "--queries": queriesPath = try reader.value(for: a)
    case "--out": out = try reader.value(for: a)
    case "--param": params.append(try .parse(try reader.value(for: a), command: command))
    case "--strategy": strategy = try reader.value(for: a).lowercased()
    case "--k": k = try reader.integer(for: a, in: 1...100_000)
    case "--screen": screen = try RunOptions.screenSize(try reader.value(for: a), command)
    case "--seed":
      let text = try reader.value(for: a)
      guard let s = UInt64(text) else {
        throw UsageError("--seed \"\(text)\" is not a non-negative whole number", command: command)
      }
      seed = s
    case "--moving": live.share = try movingShare(try reader.value(for: a), command: command)
    case "--fps": live.framesPerSecond = Double(try reader.integer(for: a, in: 1...1000))
    case "--help", "-h": output(Usage.text(for: command)); return 0
    default: throw unknownOption(a, command: command, valid: flags)
    }
  }
  guard let index else { throw UsageError("--index is required", command: command) }
  guard let pointsPath else { throw UsageError("--points is required", command: command) }
  guard let queriesPath else { throw UsageError("--queries is required", command: command) }
  let names = try indexNames(index, command: command)
  guard names.count == 1 else { throw UsageError("--index takes one name here", command: command) }
  try checkParameters(params, indexes: names, command: command)
  guard params.allSatisfy({ $0.values.count == 1 }) else {
    throw UsageError("--param takes one value here", command: command)
  }
  let type = WorkloadCatalog.type(named: workload)!
  if k != nil && workload != NearestWorkload.name {
    throw UsageError("--k is for the nearest workload", command: command)
  }
  if workload == NearestWorkload.name && strategy != nil {
    throw UsageError("the nearest workload takes --k, not --strategy", command: command)
  }
  let indexType = indexType(named: names[0])!
  // the reference variant, or the first that runs on this index (live's
  // `move` needs a dynamic index)
  let runnable = type.variants.filter { type.runs($0, on: indexType) }
  let fallback = runnable.contains(type.referenceVariant) ? type.referenceVariant : runnable.first ?? type.referenceVariant
  let variant = workload == NearestWorkload.name ? "k=\(k ?? 10)" : strategy ?? fallback
  guard type.variants.contains(variant) || workload == NearestWorkload.name else {
    let valid = type.variants.filter { !$0.isEmpty }
    throw valid.isEmpty
      ? UsageError("the \(workload) workload has no strategies", command: command)
      : UsageError.unknown("strategy", variant, valid: valid, command: command)
  }
  guard workload == NearestWorkload.name || type.runs(variant, on: indexType) else {
    throw UsageError(
      "the \(workload) workload's \(variant) strategy does not run on \(names[0]) (it needs a dynamic index); "
        + "it runs \(runnable.joined(separator: ", "))", command: command)
  }
  // `--out -` is standard output, as no --out is
  let outFile = out == "-" ? nil : out
  let inputs = [InputSource("--points", pointsPath), InputSource("--queries", queriesPath)]
  try OutputCheck.check(outFile.map { [OutputTarget("--out", $0)] } ?? [], inputs: inputs)

  let file = try Datasets.readPoints(pointsPath)
  let dataset = LoadedDataset(name: pointsPath, points: file.points, ids: file.ids)
  var steps: MapSteps
  if type.need == .tap {
    steps = MapSteps(taps: try TapsFile(contentsOf: queriesPath))
  } else if type.need == .position {
    steps = MapSteps(positions: try Datasets.readPoints(queriesPath).points, source: queriesPath)
  } else {
    steps = MapSteps(queries: try QueriesFile(contentsOf: queriesPath), screen: screen, seed: seed)
  }
  if let why = steps.missing(type.need) {
    throw UsageError("\(why): the \(workload) workload needs \(type.need.phrase)", command: command)
  }
  live.seed = seed
  steps.live = live
  guard let text = try Answers.csv(
    workload: workload, variant: variant, index: names[0], parameters: params, dataset: dataset,
    steps: steps)
  else {
    throw UsageError("\(names[0]) gave no answers for \(workload) \(variant)", command: command)
  }
  if let outFile {
    try AtomicFile.write(Array(text.utf8), to: outFile)
  } else {
    output(text, terminator: "")
  }
  return 0
}
