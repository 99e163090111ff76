import BenchFormats
import BenchWorkloads
import Foundation
import Testing

/// A points file is named by its path as given and carries its
/// fingerprint, whatever its base name: `hotels.geojson` is not the hotels
/// generator.
@Suite struct DatasetNameTests {
  @Test func aPointsFileIsItsPathAndFingerprint() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dataset-name-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("hotels.csv").path
    try Data("lat,lon\n48.85,2.35\n48.86,2.36\n48.87,2.37\n".utf8).write(to: URL(fileURLWithPath: path))
    let fingerprint = try #require(try FileFingerprint.of(file: path))
    for counts in [nil, [2]] as [[Int]?] {
      let sets = try Datasets.load(path, counts: counts, seed: 1)
      #expect(sets.allSatisfy { $0.name == path && $0.origin == .file(fingerprint) })
    }
    let generator = try Datasets.load("hotels", counts: [3], seed: 1)
    #expect(generator.map(\.name) == ["hotels"] && generator[0].origin == .named)
    #expect(try Datasets.load("places", counts: [3], seed: 1)[0].origin == .named)
  }
}
