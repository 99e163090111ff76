import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// Everything `bench run`, `verify` and `export` read from the command line.
struct RunOptions {
  static let workloadNames = ["build", "viewport", "cluster", "tap"]
  static let defaultWorkloads = ["build", "viewport", "cluster"]
  static let strategyNames = ClusterStrategy.allCases.map(\.rawValue)
  /// Beyond this, 32-bit ids run out.
  static let maximumN = Int(Int32.max)

  var indexes: [String]
  var workloads = RunOptions.defaultWorkloads
  var dataset = BundledDataset.defaultName
  var n: [Int]? = nil
  var steps = 200
  var queriesFile: String? = nil
  var params: [ParameterOption] = []
  var strategies = RunOptions.strategyNames
  var screen = (width: 390.0, height: 844.0)
  var repeats = 5
  var warmup = 1
  /// Seconds after which a row stops adding repetitions (0: no limit).
  var budget = 2.0
  var seed: UInt64 = 42
  var counters = false
  var out: String? = nil
  var append = false
  var quiet = false
  /// `export` only.
  var pointsOut: String? = nil
  var queriesOut: String? = nil

  init() {
    indexes = []
  }

  /// Parses `arguments`; `command` names the command in errors and decides
  /// which extra flags are allowed.
  static func parse(_ arguments: [String], command: String) throws(UsageError) -> RunOptions {
    var o = RunOptions()
    var indexText = "all"
    var reader = ArgumentReader(arguments, command: command)
    var flags = [
      "--index", "--workload", "--dataset", "--n", "--steps", "--queries", "--param", "--strategy",
      "--screen", "--repeat", "--warmup", "--budget", "--seed", "--counters", "--out", "--append", "--quiet",
    ]
    if command == "export" { flags += ["--points-out", "--queries-out"] }
    while let a = reader.next() {
      switch a {
      case "--index": indexText = try reader.value(for: a)
      case "--workload": o.workloads = try names(try reader.value(for: a), workloadNames, "workload", command)
      case "--strategy": o.strategies = try names(try reader.value(for: a), strategyNames, "strategy", command)
      case "--dataset": o.dataset = try reader.value(for: a)
      case "--n": o.n = try reader.integers(for: a, in: 0...maximumN)
      case "--steps": o.steps = try reader.integer(for: a, in: 1...10_000_000)
      case "--queries": o.queriesFile = try reader.value(for: a)
      case "--param": o.params.append(try .parse(try reader.value(for: a), command: command))
      case "--screen": o.screen = try screenSize(try reader.value(for: a), command)
      case "--repeat": o.repeats = try reader.integer(for: a, in: 1...100_000)
      case "--warmup": o.warmup = try reader.integer(for: a, in: 0...100_000)
      case "--budget":
        let text = try reader.value(for: a)
        guard let b = Double(text), b.isFinite, b >= 0, b <= 86_400 else {
          throw UsageError("--budget \"\(text)\" must be seconds in 0...86400", command: command)
        }
        o.budget = b
      case "--seed":
        let text = try reader.value(for: a)
        guard let s = UInt64(text) else {
          throw UsageError("--seed \"\(text)\" is not a non-negative whole number", command: command)
        }
        o.seed = s
      case "--counters": o.counters = true
      case "--out": o.out = try reader.value(for: a)
      case "--append": o.append = true
      case "--quiet": o.quiet = true
      case "--points-out" where command == "export": o.pointsOut = try reader.value(for: a)
      case "--queries-out" where command == "export": o.queriesOut = try reader.value(for: a)
      default: throw unknownOption(a, command: command, valid: flags)
      }
    }
    o.indexes = try indexNames(indexText, command: command)
    try checkParameterKeys(o.params, indexes: o.indexes, command: command)
    for name in o.indexes {  // bad values fail now, not after other indexes ran
      try checkParameterValues(indexType(named: name)!, o.params, command: command)
    }
    if o.append && o.out == nil {
      throw UsageError("--append needs --out FILE.csv", command: command)
    }
    return o
  }

  private static func names(
    _ text: String, _ valid: [String], _ what: String, _ command: String
  ) throws(UsageError) -> [String] {
    if text == "all" { return valid }
    var result: [String] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = part.lowercased()
      guard valid.contains(name) else { throw .unknown(what, String(part), valid: valid, command: command) }
      if !result.contains(name) { result.append(name) }
    }
    return result
  }

  /// `WIDTHxHEIGHT` in whole points, each in `range` (`bench render` reads
  /// its `--size` with a smaller range).
  static func screenSize(
    _ text: String, _ command: String, flag: String = "--screen",
    range: ClosedRange<Int> = 1...100_000
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
}

private func checkParameterValues<I: SpatialIndex>(
  _ type: I.Type, _ params: [ParameterOption], command: String
) throws(UsageError) {
  _ = try parameterSets(type, params, command: command)
}
