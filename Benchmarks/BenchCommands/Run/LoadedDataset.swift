import Foundation
import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// The points a run works on, with their external ids (from the file's id
/// column, else row numbers) and the name reports give them.
struct LoadedDataset {
  var name: String
  var points: [Point]
  var ids: [UInt64]
  /// The places the `hotels` generator scatters around, when used.
  var isGenerated: Bool

  var count: Int { points.count }
}

/// Resolves `--dataset` and `--n` into point sets, one per N.
enum DatasetResolver {
  /// Rough bytes a run needs per point: the points, their ids, the linear
  /// scan used for checks, the largest index and scratch, with margin.
  static let bytesPerPointEstimate = 160

  /// Points a generator makes without `--n`: the original's 87,000 hotels,
  /// 100,000 for the others.
  static func defaultCount(_ generator: String) -> Int {
    generator == "hotels" ? PointDistribution.defaultHotelCount : 100_000
  }

  static func isFile(_ name: String) -> Bool {
    name.hasSuffix(".csv") || name.contains("/")
  }

  static var validNames: [String] {
    BundledDataset.allCases.map(\.rawValue) + PointDistribution.catalog.map(\.name)
  }

  /// Every dataset the run asks for, loaded or generated, in `--n` order.
  static func load(_ options: RunOptions, command: String) throws -> [LoadedDataset] {
    let name = options.dataset
    try checkMemory(options.n ?? [], command: command)
    if let bundled = BundledDataset(rawValue: name.lowercased()) {
      let file = try PointsFile(contentsOf: bundled.path)
      return try samples(of: file, name: bundled.rawValue, options, command: command)
    }
    if isFile(name) {
      let file = try PointsFile(contentsOf: name)
      let base = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
      return try samples(of: file, name: base, options, command: command)
    }
    let lowered = name.lowercased()
    guard let entry = PointDistribution.catalog.first(where: { $0.name == lowered }) ?? (
      lowered == "line" ? PointDistribution.catalog.first { $0.name == "meridian" } : nil)
    else {
      throw UsageError.unknown("dataset", name, valid: validNames, command: command)
    }
    let places: [Point] = entry.needsPlaces
      ? try PointsFile(contentsOf: BundledDataset.places.path).points : []
    let distribution = try PointDistribution(name: entry.name, places: places)
    return (options.n ?? [defaultCount(entry.name)]).map { n in
      LoadedDataset(
        name: distribution.name, points: distribution.points(count: n, seed: options.seed),
        ids: (0..<UInt64(n)).map { $0 }, isGenerated: true)
    }
  }

  /// The whole file, or a seeded sample of `n` rows in file order.
  private static func samples(
    of file: PointsFile, name: String, _ options: RunOptions, command: String
  ) throws -> [LoadedDataset] {
    guard let ns = options.n else {
      return [LoadedDataset(name: name, points: file.points, ids: file.ids, isGenerated: false)]
    }
    return try ns.map { n throws(UsageError) in
      guard n <= file.count else {
        throw UsageError("--n \(n) exceeds the \(file.count) rows of \(name)", command: command)
      }
      var g = SplitMix64(seed: options.seed)
      var rows = Array(0..<file.count)
      for i in 0..<n {  // partial Fisher–Yates: the first n are a uniform sample
        rows.swapAt(i, i + g.nextInt(below: file.count - i))
      }
      let chosen = rows[..<n].sorted()
      return LoadedDataset(
        name: name, points: chosen.map { file.points[$0] }, ids: chosen.map { file.ids[$0] },
        isGenerated: false)
    }
  }

  /// Stops before allocating when the largest N would not fit in memory.
  static func checkMemory(_ ns: [Int], command: String) throws(UsageError) {
    guard let n = ns.max() else { return }
    let need = Double(n) * Double(bytesPerPointEstimate)
    let have = Double(ProcessInfo.processInfo.physicalMemory)
    if need > have * 0.8 {
      let gib = { (b: Double) in String(format: "%.1f GiB", b / 1_073_741_824) }
      throw UsageError(
        "--n \(n) needs about \(gib(need)) (\(bytesPerPointEstimate) bytes a point), "
          + "more than this machine's \(gib(have)) allow", command: command)
    }
  }
}
