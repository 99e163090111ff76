import Foundation
import BenchFormats
import MapClustering

/// The real point files shipped in `datasets/` (provenance in datasets/README.md).
public enum BundledDataset: String, CaseIterable, Sendable {
  case places, airports, zipcodes

  /// The default dataset of `bench run`: world places from GeoNames.
  public static let defaultName = BundledDataset.places.rawValue

  public var fileName: String {
    switch self {
    case .places: return "geonames_cities1000.csv"
    case .airports: return "airports.csv"
    case .zipcodes: return "us_zipcodes.csv"
    }
  }

  public var summary: String {
    switch self {
    case .places: return "170,391 world populated places (GeoNames cities1000, CC BY 4.0)"
    case .airports: return "28,298 airports and strips worldwide (airportsdata, MIT)"
    case .zipcodes: return "41,917 US ZIP centroids, many exact duplicates (GeoNames, CC BY 4.0)"
    }
  }

  /// `datasets/FILE` (see ``bundledFilePath(_:)``).
  public var path: String { bundledFilePath(fileName) }
}

/// `datasets/FILE`, looked up in the current folder, then beside the
/// executable's package (`.build/<config>/bench` → the package root), then
/// in the source tree this binary was built from; the first candidate when
/// none exists, so an error names where it was looked for first.
public func bundledFilePath(_ fileName: String) -> String {
  let fm = FileManager.default
  var candidates = [fm.currentDirectoryPath + "/datasets/" + fileName]
  let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
  var dir = exe.deletingLastPathComponent()
  for _ in 0..<5 {
    candidates.append(dir.appendingPathComponent("datasets/" + fileName).path)
    dir = dir.deletingLastPathComponent()
  }
  let source = URL(fileURLWithPath: #filePath)  // Benchmarks/BenchWorkloads/Datasets/…
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  candidates.append(source.appendingPathComponent("datasets/" + fileName).path)
  return candidates.first { fm.fileExists(atPath: $0) } ?? candidates[0]
}
