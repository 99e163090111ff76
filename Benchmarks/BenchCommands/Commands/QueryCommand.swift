import BenchHarness
import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// `bench query`: answers a query file over a points file with one index.
///
/// The contract other libraries and tests rely on: output header
/// `query,count,id_sum`, one row per query in file order; `query` is the
/// 0-based data row, `count` the points inside (inclusive bounds, every
/// duplicate counted), `id_sum` the sum of their ids modulo 2^64.
func queryCommand(_ arguments: [String]) throws -> Int32 {
  let command = "query"
  var reader = ArgumentReader(arguments, command: command)
  var index: String?, pointsPath: String?, queriesPath: String?, out: String?
  var params: [ParameterOption] = []
  while let a = reader.next() {
    switch a {
    case "--index": index = try reader.value(for: a)
    case "--points": pointsPath = try reader.value(for: a)
    case "--queries": queriesPath = try reader.value(for: a)
    case "--out": out = try reader.value(for: a)
    case "--param": params.append(try .parse(try reader.value(for: a), command: command))
    case "--help", "-h": print(Usage.text(for: command)); return 0
    default: throw unknownOption(a, command: command, valid: ["--index", "--points", "--queries", "--out", "--param"])
    }
  }
  guard let index else { throw UsageError("--index is required", command: command) }
  guard let pointsPath else { throw UsageError("--points is required", command: command) }
  guard let queriesPath else { throw UsageError("--queries is required", command: command) }
  let names = try indexNames(index, command: command)
  guard names.count == 1 else { throw UsageError("--index takes one name here", command: command) }
  try checkParameterKeys(params, indexes: names, command: command)
  if let out { try checkOutputPath(out) }

  let points = try PointsFile(contentsOf: pointsPath)
  let queries = try QueriesFile(contentsOf: queriesPath)
  var operation = Answer(points: points, queries: queries, params: params)
  let text = try withIndexType(named: names[0], &operation)!
  if let out {
    try ReportFile.writeAtomically(Array(text.utf8), to: out)
  } else {
    print(text, terminator: "")
  }
  return 0
}

/// ``answer(_:_:_:_:)`` for one concrete index type.
private struct Answer: IndexTypeOperation {
  let points: PointsFile
  let queries: QueriesFile
  let params: [ParameterOption]

  func run<I: SpatialIndex>(_ type: I.Type) throws -> String {
    try answer(type, points, queries, params)
  }
}

private func answer<I: SpatialIndex>(
  _ type: I.Type, _ points: PointsFile, _ queries: QueriesFile, _ params: [ParameterOption]
) throws -> String {
  let sets = try parameterSets(type, params, command: "query")
  guard sets.count == 1 else { throw UsageError("--param takes one value here", command: "query") }
  let index = try I(points: points.points, parameters: sets[0])
  let ids = points.ids
  var text = "query,count,id_sum\n"
  for (row, q) in queries.queries.enumerated() {
    var count = 0
    var sum: UInt64 = 0
    for rect in q.rects() {
      index.forEach(in: rect) { id in
        count &+= 1
        sum &+= ids[Int(id)]
        return true
      }
    }
    text += "\(row),\(count),\(sum)\n"
  }
  return text
}
