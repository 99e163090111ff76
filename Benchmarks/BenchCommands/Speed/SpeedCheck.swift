import Foundation
import BenchHarness
import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering
import _SeededRandom


/// The core issue's fixed workload: `n` uniform points in the world box and
/// batches of square-ish queries covering a given fraction of its area.
/// Prints median µs per query over `repeats` runs of each batch.
struct SpeedCheck {
  var n = 1_000_000
  var queries = 1_000
  var repeats = 5
  var fractions: [Double] = [1e-4, 1e-3, 1e-2]
  var seed: UInt64 = 1
  /// Points in this many Gaussian blobs instead of uniform (`--blobs`).
  var blobs: Int?
  /// Also time k-nearest searches (`--nearest`).
  var nearest = false
  var ks = [1, 10, 100]

  func points() -> [Point] {
    if let blobs { return PointDistribution.clustered(blobs: blobs).points(count: n, seed: seed) }
    var g = SplitMix64(seed: seed)
    return (0..<n).map { _ in Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -90, 90)) }
  }

  /// Where the k-nearest searches start: anywhere on the map, or within
  /// 5° of a pole, where longitude boxes fail.
  func positions(nearPoles: Bool) -> [Point] {
    var g = SplitMix64(seed: seed &+ 2)
    return (0..<queries).map { i in
      let lat = nearPoles ? (i % 2 == 0 ? 1.0 : -1.0) * g.nextDouble(in: 85, 90) : g.nextDouble(in: -90, 90)
      return Point(x: g.nextDouble(in: -180, 180), y: lat)
    }
  }

  func rects(fraction: Double) -> [Rect] {
    var g = SplitMix64(seed: seed &+ 1)
    let w = 360 * fraction.squareRoot(), h = 180 * fraction.squareRoot()
    return (0..<queries).map { _ in
      let x = g.nextDouble(in: -180, 180 - w), y = g.nextDouble(in: -90, 90 - h)
      return Rect(minX: x, minY: y, maxX: x + w, maxY: y + h)
    }
  }

  /// One build, or one batch of `queries` queries, as the engine times it:
  /// each sample is a whole batch (so a query's time is the batch's over
  /// `queries`), and the first, untimed pass warms the caches.
  func options(clockOverhead: Double) -> MeasureOptions {
    MeasureOptions(repeats: repeats, warmup: 1, budget: 0, clockOverhead: clockOverhead)
  }

  func run<I: DescribedIndex>(_ type: I.Type, parameters: I.Parameters, points: [Point]) throws {
    let options = options(clockOverhead: Stopwatch.measureOverhead())
    var index = try I(points: points, parameters: parameters)
    var build = TimedOperation {
      index = try! I(points: points, parameters: parameters)  // built once above: it succeeds
      return StepOutcome(digest: UInt64(index.count), count: index.count)
    }
    let buildMs = measure(&build, options: options).statistics.median / 1e6
    let built = index
    var line = "\(built.label.padding(toLength: 28, withPad: " ", startingAt: 0)) build \(fmt(buildMs)) ms"
    line += "  \(fmt(Double(built.memoryBytes) / Double(max(1, points.count)))) B/pt"
    var buffer: [Int32] = []
    buffer.reserveCapacity(points.count)
    for f in fractions {
      let rs = rects(fraction: f)
      var batch = QueryBatch(index: built, rects: rs, buffer: buffer)
      let m = measure(&batch, options: options)
      buffer = batch.buffer
      blackHole(m.checksum)
      let perQuery = m.statistics.median / 1e3 / Double(rs.count)
      line += "  \(f): \(fmt(perQuery)) µs (\(m.resultsTotal / UInt64(max(1, rs.count))) hits)"
    }
    output(line)
    if nearest { timeNearest(built, points: points, options: options) }
  }

  /// µs per k-nearest search for each k, from positions anywhere and near
  /// the poles, and for a tree, the same search with planar distance.
  func timeNearest<I: DescribedIndex>(_ index: I, points: [Point], options: MeasureOptions) {
    for nearPoles in [false, true] {
      let starts = positions(nearPoles: nearPoles)
      var line = "  nearest\(nearPoles ? " (poles)" : "")".padding(toLength: 28, withPad: " ", startingAt: 0)
      for k in ks {
        var batch = NearestBatch(index: index, points: points, positions: starts, k: k, planar: false)
        let sphere = measure(&batch, options: options).statistics.median / 1e3 / Double(starts.count)
        line += "  k=\(k): \(fmt(sphere)) µs"
        if index is any _PlanarNearestSearching {
          var flat = NearestBatch(index: index, points: points, positions: starts, k: k, planar: true)
          let planar = measure(&flat, options: options).statistics.median / 1e3 / Double(starts.count)
          line += " (planar \(fmt(planar)), ×\(fmt(sphere / planar)))"
        }
      }
      output(line)
    }
  }
}

/// Every position searched once: one step for the engine.
private struct NearestBatch<I: DescribedIndex>: TimedSteps {
  let index: I
  let points: [Point]
  let positions: [Point]
  let k: Int
  let planar: Bool
  var buffer = NearestBuffer()

  var stepCount: Int { 1 }

  mutating func runStep(_ step: Int) -> StepOutcome {
    var found = 0
    var digest: UInt64 = 0
    for p in positions {
      if planar, let tree = index as? any _PlanarNearestSearching {
        tree._nearestPlanar(to: p, k: k, into: &buffer)
      } else {
        index.nearest(to: p, k: k, into: &buffer)
      }
      found &+= buffer.neighbors.count
      digest &+= UInt64(bitPattern: Int64(buffer.neighbors.last?.id ?? 0))
    }
    return StepOutcome(digest: digest, count: found)
  }
}

/// Every rectangle queried once: one step for the engine.
private struct QueryBatch<I: DescribedIndex>: TimedSteps {
  let index: I
  let rects: [Rect]
  var buffer: [Int32]

  var stepCount: Int { 1 }

  mutating func runStep(_ step: Int) -> StepOutcome {
    var hits = 0
    for r in rects {
      buffer.removeAll(keepingCapacity: true)
      index.query(in: r, into: &buffer)
      hits &+= buffer.count
    }
    return StepOutcome(digest: UInt64(hits), count: hits)
  }
}

/// `bench speed [--index NAMES] [--n N] [--queries Q] [--repeat R] [--param K=V,…] [--nearest] [--blobs B]`.
func speedCommand(_ arguments: [String]) throws -> Int32 {
  let command = "speed"
  var options = SpeedOptions()
  try SpeedOptions.table.parse(arguments, into: &options)
  let (check, names, params) = (options.check, options.indexes, options.params)
  try checkParameters(params, indexes: names, command: command)
  do {
    try Datasets.checkMemory([check.n])
  } catch {
    throw UsageError(error.description, command: command)
  }
  warnIfDebugBuild()
  let points = check.points()
  output("speed: \(check.n) \(check.blobs.map { "points in \($0) blobs" } ?? "uniform points"), \(check.queries) queries per size, median of \(check.repeats) runs (µs per query, every id visited)")
  for name in names {
    var operation = RunSpeed(check: check, points: points, params: params)
    try withIndexType(named: name, &operation)!
  }
  return 0
}

/// Every parameter set of one concrete index type.
private struct RunSpeed: IndexTypeOperation {
  let check: SpeedCheck
  let points: [Point]
  let params: [ParameterSweep]

  func run<I: DescribedIndex>(_ type: I.Type) throws {
    for p in try parameterSets(type, params, command: "speed") {
      try check.run(type, parameters: p, points: points)
    }
  }
}

func median(_ xs: [Double]) -> Double { Statistics(xs).median }

func fmt(_ x: Double) -> String { String(format: x >= 100 ? "%.0f" : "%.2f", x) }

/// What `bench speed` reads from the command line.
struct SpeedOptions {
  var check = SpeedCheck()
  var indexes = allIndexTypes.map { $0.name }
  var params: [ParameterSweep] = []

  typealias F = Flag<SpeedOptions>

  static var table: FlagTable<SpeedOptions> {
    FlagTable("speed", [
      .indexes(\.indexes, help: "indexes to time (default all)"),
      F("--n", "N", help: "uniform points (default 1,000,000)") { (o: inout SpeedOptions, v: FlagValue) throws(UsageError) in
        o.check.n = try v.integer(in: 0...RunOptions.maximumN)
      },
      F("--queries", "Q", help: "queries of each size (default 1,000)") {
        (o: inout SpeedOptions, v: FlagValue) throws(UsageError) in
        o.check.queries = try v.integer(in: 1...10_000_000)
      },
      .repeats(\.check.repeats, in: 1...1000, help: "runs of each batch; the median is printed (default 5)"),
      .seed(\.check.seed, help: "seed of the points and queries (default 1)"),
      .param(\.params),
      .threads(\.params),
      .toggle("--nearest", \.check.nearest,
              help: "also time k-nearest searches (k = 1, 10, 100) from Q seeded\npositions anywhere and Q within 5° of a pole; for the trees,\nthe same search with planar distance and the ratio"),
      F("--blobs", "B", help: "points in B Gaussian blobs (the clustered generator) instead") {
        (o: inout SpeedOptions, v: FlagValue) throws(UsageError) in
        o.check.blobs = try v.integer(in: 1...100_000)
      },
    ])
  }
}
