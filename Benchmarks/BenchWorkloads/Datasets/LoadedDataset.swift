import BenchFormats
import BenchHarness
import Foundation
import SpatialIndexes
import _SeededRandom

/// The points a run works on, with their external ids (from the file's id
/// column, a GeoJSON feature's position, else row numbers), the name
/// reports give them and what that name stands for.
public struct LoadedDataset: Sendable {
  /// A bundled dataset's or generator's name, or a points file's path as given.
  public var name: String
  public var points: [Point]
  public var ids: ExternalIDs
  /// A bundled dataset or generator, or a file and its fingerprint.
  public var origin: DatasetOrigin
  /// The properties the run named, one value a point; none unless named.
  public var properties: PropertyTable

  public init(
    name: String, points: [Point], ids: ExternalIDs, origin: DatasetOrigin = .named,
    properties: PropertyTable = .none
  ) {
    precondition(points.count == ids.count, "one id per point")
    precondition(properties.columns.allSatisfy { $0.count == points.count }, "one value a point in every column")
    self.name = name
    self.points = points
    self.ids = ids
    self.origin = origin
    self.properties = properties
  }

  public init(
    name: String, points: [Point], ids: [UInt64], origin: DatasetOrigin = .named,
    properties: PropertyTable = .none
  ) {
    self.init(name: name, points: points, ids: ExternalIDs(ids), origin: origin, properties: properties)
  }

  public var count: Int { points.count }
}

/// Why a dataset could not be made from what was asked; the command line
/// reports it as a usage error.
public enum DatasetError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A name that is no bundled dataset, generator or file.
  case unknown(name: String, valid: [String])
  /// A sample larger than the file.
  case sampleTooLarge(n: Int, rows: Int, dataset: String)
  /// More points than this machine's memory holds.
  case tooLarge(n: Int, needBytes: Double, haveBytes: Double, bytesPerPoint: Int)
  /// A points file whose points (counted before it is parsed) would not
  /// fit; `counted`: all of them, else counting stopped once they were too
  /// many (`points` is then a lower bound, 0 when the bytes alone were).
  case fileTooLarge(file: String, points: Int, needBytes: Double, haveBytes: Double, counted: Bool)
  /// A property a generator cannot give as asked: one it has not, one of
  /// another kind, or a name twice.
  case badProperty(dataset: String, property: String, reason: String)

  /// One line; control characters written out (``escapingControls(_:keeping:)``).
  public var description: String { escapingControls(text) }

  private var text: String {
    switch self {
    case let .unknown(name, _): "unknown dataset \"\(name)\""
    case let .sampleTooLarge(n, rows, dataset): "--n \(n) exceeds the \(rows) rows of \(dataset)"
    case let .tooLarge(n, need, have, perPoint):
      "--n \(n) needs about \(Self.gib(need)) (\(perPoint) bytes a point), more than this machine's \(Self.gib(have)) allow"
    case let .badProperty(dataset, property, reason): "\(dataset): property \"\(property)\" \(reason)"
    case let .fileTooLarge(file, 0, need, have, false):
      "\(file): \(Self.gib(need)) of data, more than this machine's \(Self.gib(have)) allow"
    case let .fileTooLarge(file, points, need, have, counted):
      "\(file): \(counted ? "about" : "more than") \(points) points, which need \(counted ? "about" : "more than")"
        + " \(Self.gib(need)) with the file's bytes, more than this machine's \(Self.gib(have)) allow"
    }
  }

  static func gib(_ bytes: Double) -> String { String(format: "%.1f GiB", bytes / 1_073_741_824) }
}

/// Resolves a dataset name and point counts into point sets: a bundled file,
/// a points file (CSV or GeoJSON), or a seeded generator.
public enum Datasets {
  /// Rough bytes a run needs per point: the points, their ids, the linear
  /// scan used for checks, the largest index and scratch, with margin.
  public static let bytesPerPointEstimate = 160
  /// The same for a run with the live workload, whose buffered strategy
  /// keeps a snapshot and a second index beside the first: peak RSS of `bench
  /// run --workload live` at 1M hotels was 266 (linear), 357 (kdtree) and
  /// 401 MB (celltree), against 154 MB for build, viewport and cluster.
  public static let liveBytesPerPointEstimate = 480

  /// Points a generator makes without a count: the original's 87,000 hotels,
  /// 100,000 for the others.
  public static func defaultCount(_ generator: String) -> Int {
    generator == "hotels" ? PointDistribution.defaultHotelCount : 100_000
  }

  /// The name is a path rather than a bundled dataset or a generator.
  public static func isFile(_ name: String) -> Bool {
    PointFileFormat(path: name) != nil || name.contains("/")
  }

  /// Every name that is not a file: bundled datasets, then generators.
  public static var validNames: [String] {
    BundledDataset.allCases.map(\.rawValue) + PointDistribution.catalog.map(\.name)
  }

  /// The points of the file at `path`: GeoJSON for `.geojson` and `.json`,
  /// else CSV.
  public static func readPoints(_ path: String, properties: [PropertyRequest] = []) throws(DataError) -> PointsFile {
    try PointFileFormat.read(path, properties: properties)
  }

  /// Every dataset asked for, loaded or generated, one per count in `counts`
  /// order (`nil`: the whole file, or the generator's default count). A
  /// count for a file is a seeded sample of that many rows, in file order.
  ///
  /// A points file is named by its path as given and carries its
  /// fingerprint (``DatasetOrigin/file(_:)``), so its rows are never taken
  /// for those of the bundled dataset or generator whose name its base
  /// name is (`hotels.geojson` against the hotels generator).
  ///
  /// `properties` names the properties to keep: a file's columns (a
  /// bundled file's too), or a generator's (``HotelProperties``); a
  /// sample keeps its rows' values.
  ///
  /// - Throws: ``DatasetError``, or the file's ``DataError``.
  public static func load(
    _ name: String, counts: [Int]?, seed: UInt64, bytesPerPoint: Int = bytesPerPointEstimate,
    properties: [PropertyRequest] = []
  ) throws -> [LoadedDataset] {
    try checkMemory(counts ?? [], bytesPerPoint: bytesPerPoint)
    if let bundled = BundledDataset(rawValue: name.lowercased()) {
      let file = try PointsFile(contentsOf: bundled.path, properties: properties)
      return try samples(of: file, name: bundled.rawValue, counts, seed)
    }
    if isFile(name) {
      try checkMemory(ofFile: name, counts: counts, bytesPerPoint: bytesPerPoint)
      let file = try readPoints(name, properties: properties)
      let origin = DatasetOrigin.file(try FileFingerprint.of(file: name))
      // the name reports, pages and the terminal show, a control character
      // written out: its path as given (`hotels.geojson`, never `hotels`)
      return try samples(of: file, name: escapingControls(name), counts, seed).map { sample in
        var d = sample
        d.origin = origin
        return d
      }
    }
    let lowered = name.lowercased()
    guard let entry = PointDistribution.catalog.first(where: { $0.name == lowered }) ?? (
      lowered == "line" ? PointDistribution.catalog.first { $0.name == "meridian" } : nil)
    else {
      throw DatasetError.unknown(name: name, valid: validNames)
    }
    let places: [Point] = entry.needsPlaces
      ? try PointsFile(contentsOf: BundledDataset.places.path).points : []
    let distribution = try PointDistribution(name: entry.name, places: places)
    if let first = properties.first, entry.name != "hotels" {
      throw DatasetError.badProperty(dataset: entry.name, property: first.name, reason: "is not a property of it (it has none)")
    }
    return try (counts ?? [defaultCount(entry.name)]).map { n throws(DatasetError) in
      LoadedDataset(
        name: distribution.name, points: distribution.points(count: n, seed: seed),
        ids: .rows(n),
        properties: properties.isEmpty ? .none : try HotelProperties.table(count: n, seed: seed, properties: properties))
    }
  }

  /// The whole file, or a seeded sample of `n` rows in file order.
  private static func samples(
    of file: PointsFile, name: String, _ counts: [Int]?, _ seed: UInt64
  ) throws(DatasetError) -> [LoadedDataset] {
    guard let counts else {
      return [LoadedDataset(name: name, points: file.points, ids: file.ids, properties: file.properties)]
    }
    return try counts.map { n throws(DatasetError) in
      guard n <= file.count else { throw .sampleTooLarge(n: n, rows: file.count, dataset: name) }
      var g = SplitMix64(seed: seed)
      var rows = Array(0..<file.count)
      for i in 0..<n {  // partial Fisher–Yates: the first n are a uniform sample
        rows.swapAt(i, i + g.nextInt(below: file.count - i))
      }
      let chosen = rows[..<n].sorted()
      return LoadedDataset(
        name: name, points: chosen.map { file.points[$0] }, ids: chosen.map { file.ids[$0] },
        properties: file.properties.gathering(chosen))
    }
  }

  /// How many points the file at `path` can hold, told before it is
  /// parsed, and its size: exact for the binary format (16 bytes a point);
  /// for CSV its lines (a row is a line; the header, blank lines and line
  /// feeds inside quotes make it an upper bound), for GeoJSON its
  /// `"coordinates"` members (one a Point feature). Text is counted to its
  /// end: the rows of one file can differ tenfold in length, so a sample
  /// scaled to the size can miss as much. `nil` for anything but a regular
  /// file (never opened here: a FIFO opened and closed would lose its
  /// writer) or one that cannot be read: reading it says why.
  ///
  /// - Complexity: O(*n*) in the file's size for text, O(1) for `.f64`.
  public static func estimatedPoints(inFile path: String) -> (points: Int, bytes: Int)? {
    countedPoints(inFile: path) { _ in false }.map { ($0.points, $0.bytes) }
  }

  /// ``estimatedPoints(inFile:)``, read 1 MiB at a time and stopped once
  /// `enough` holds for the points counted so far (`complete` is then
  /// false and `points` a lower bound).
  static func countedPoints(
    inFile path: String, until enough: (Int) -> Bool
  ) -> (points: Int, bytes: Int, complete: Bool)? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
          attributes[.type] as? FileAttributeType == .typeRegular
    else { return nil }
    let format = PointFileFormat(path: path) ?? .csv
    if format == .binary, let size = (attributes[.size] as? NSNumber)?.intValue {
      return (size / 16, size, true)
    }
    guard let file = try? InputFile(path), file.isRegular else { return nil }
    let size = file.sizeHint
    guard !enough(0) else { return (0, size, false) }
    let marker = Array((format == .geoJSON ? "\"coordinates\"" : "\n").utf8)
    var count = 0
    var last: UInt8? = nil
    // the bytes of a marker cut by the end of one read, carried to the next
    let carry = marker.count - 1
    var buffer = [UInt8](repeating: 0, count: carry + (1 << 20))
    var kept = 0
    while true {
      let read = buffer.withUnsafeMutableBufferPointer { b in
        (try? file.read(into: UnsafeMutableBufferPointer(rebasing: b[kept...]))) ?? 0
      }
      guard read > 0 else { break }
      let filled = kept + read
      last = buffer[filled - 1]
      count += buffer.withUnsafeBufferPointer { b in
        occurrences(of: marker, in: UnsafeBufferPointer(rebasing: b[..<filled]))
      }
      kept = min(carry, filled)
      if kept > 0 {
        buffer.withUnsafeMutableBufferPointer { b in
          for k in 0..<kept { b[k] = b[filled - kept + k] }
        }
      }
      if enough(count) { return (count, size, false) }
    }
    // a last CSV row without its line feed is a row too
    if format == .csv, let last, last != UInt8(ascii: "\n") { count += 1 }
    return (count, size, true)
  }

  /// How many times `marker` starts in `bytes` and ends within it (the
  /// markers here never overlap themselves).
  private static func occurrences(of marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress, bytes.count >= marker.count else { return 0 }
    var found = 0
    var i = 0
    let lastStart = bytes.count - marker.count
    while i <= lastStart {
      // memchr finds the first byte fast; the rest is compared here
      guard let hit = memchr(base + i, Int32(marker[0]), lastStart - i + 1) else { break }
      let j = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
      if marker.count == 1 || memcmp(base + j, marker, marker.count) == 0 {
        found += 1
        i = j + marker.count
      } else {
        i = j + 1
      }
    }
    return found
  }

  /// Refuses, before the file at `path` is parsed, one that would not fit
  /// in memory: its bytes and its parsed points and ids (24 bytes each)
  /// while it is read, and `bytesPerPoint` for the points a run keeps,
  /// every point of the file or a sample of at most `counts`' largest,
  /// against 80% of `memory` (default: this machine's). A file whose bytes
  /// alone are too many is refused unread; else its points are counted
  /// (``estimatedPoints(inFile:)``) only until they are too many, so no
  /// read is unbounded.
  public static func checkMemory(
    ofFile path: String, counts: [Int]? = nil, bytesPerPoint: Int = bytesPerPointEstimate,
    memory: Double = Double(ProcessInfo.processInfo.physicalMemory)
  ) throws(DatasetError) {
    let budget = memory * 0.8
    var size = 0.0
    func need(_ points: Int) -> Double {
      let kept = min(points, counts?.max() ?? points)
      return size + Double(points) * 24 + Double(kept) * Double(bytesPerPoint)
    }
    if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
       attributes[.type] as? FileAttributeType == .typeRegular,
       let bytes = (attributes[.size] as? NSNumber)?.doubleValue
    {
      size = bytes
    }
    guard let counted = countedPoints(inFile: path, until: { need($0) > budget }) else { return }
    size = Double(counted.bytes)
    let needed = need(counted.points)
    if needed > budget {
      throw .fileTooLarge(
        file: path, points: counted.points, needBytes: needed, haveBytes: memory, counted: counted.complete)
    }
  }

  /// Refuses, before anything is allocated, a count that would not fit in memory.
  public static func checkMemory(
    _ counts: [Int], bytesPerPoint: Int = bytesPerPointEstimate
  ) throws(DatasetError) {
    guard let n = counts.max() else { return }
    let need = Double(n) * Double(bytesPerPoint)
    let have = Double(ProcessInfo.processInfo.physicalMemory)
    if need > have * 0.8 {
      throw .tooLarge(n: n, needBytes: need, haveBytes: have, bytesPerPoint: bytesPerPoint)
    }
  }
}
