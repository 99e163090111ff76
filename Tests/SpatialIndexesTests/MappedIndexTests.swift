import Foundation
import SpatialIndexes
import Testing
import _SpatialTestSupport

/// A cell tree opened from a file reads its coordinates and rows from the
/// mapped file (``SavedMapping``) where the system can map it, a k-d tree
/// its coordinates: it answers
/// as the tree that was saved and as one opened into memory, and nothing
/// done to the file afterwards (replaced, deleted, changed in place) makes
/// a walk leave its arrays.
@Suite struct MappedIndexTests {
  /// Opens `path` mapped, or read into memory.
  static func open(_ path: String, map: Bool) throws -> CellTree {
    var timings = SavedOpenTimings()
    var externalIDs: [UInt64]? = nil
    return try CellTree(contentsOf: path, map: map, timings: &timings, externalIDs: &externalIDs)
  }

  /// Opens the k-d tree at `path` mapped, or read into memory.
  static func openKD(_ path: String, map: Bool) throws -> KDTreeIndex {
    var timings = SavedOpenTimings()
    var externalIDs: [UInt64]? = nil
    return try KDTreeIndex(contentsOf: path, map: map, timings: &timings, externalIDs: &externalIDs)
  }

  /// Whether this platform maps files (where it does not, both opens read).
  static var platformMaps: Bool {
    #if canImport(Glibc) || canImport(Darwin)
    true
    #else
    false
    #endif
  }

  @Test func aMappedCellTreeAnswersAsTheBuildAndAsOneInMemory() throws {
    for fixture in SavedIndexTests.fixtures {
      for leafSize in [1, 16] {
        let built = try CellTree(points: fixture.points, parameters: .init(leafSize: leafSize))
        let directory = try SavedFiles.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/index.sbi"
        try built.save(to: path)
        let mapped = try Self.open(path, map: true), read = try Self.open(path, map: false)
        #expect(read.mappedMemory == nil)
        let onMap = fixture.points.filter { $0.x >= -180 && $0.x <= 180 && WebMercator.latitudeRange.contains($0.y) }
        if Self.platformMaps && !onMap.isEmpty {
          let memory = try #require(mapped.mappedMemory, "\(fixture)")
          // the coordinates and rows, from the page that holds their start
          #expect(memory.mapped >= 20 * onMap.count && memory.mapped < 20 * onMap.count + 4096 + 64, "\(fixture)")
          #expect((memory.resident ?? 0) <= memory.mapped)
          #expect(mapped.memoryBytes < read.memoryBytes, "mapped arrays are not counted as held")
        }
        for opened in [mapped, read] {
          #expect(opened._invariantViolations().isEmpty, "\(fixture)")
          #expect(SavedFiles.differences(built, opened, fixture.points).isEmpty, "\(fixture) leafSize \(leafSize)")
          #expect(SavedFiles.cellSumDifferences(built, opened, fixture.points).isEmpty, "\(fixture)")
          #expect(opened._pointsByID() == fixture.points, "\(fixture)")
        }
        // saved again from the mapping: the same bytes
        let again = directory + "/again.sbi"
        try mapped.save(to: again)
        #expect(FileManager.default.contents(atPath: again) == FileManager.default.contents(atPath: path))
      }
    }
  }

  /// Saving over the file renames a new one into place, and deleting it
  /// only unlinks it: the mapping keeps the contents it was opened with.
  @Test func aMappedTreeOutlivesItsFileReplacedOrDeleted() throws {
    let points = Fixtures.uniform(5000, seed: 21), others = Fixtures.uniform(5000, seed: 22)
    let built = try CellTree(points: points)
    let directory = try SavedFiles.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/index.sbi"
    try built.save(to: path)
    let opened = try Self.open(path, map: true)
    try CellTree(points: others).save(to: path)
    #expect(SavedFiles.differences(built, opened, points).isEmpty)
    try FileManager.default.removeItem(atPath: path)
    #expect(SavedFiles.differences(built, opened, points).isEmpty)
    #expect(SavedFiles.cellSumDifferences(built, opened, points).isEmpty)
  }

  /// A file written over in place after the open shows the mapped tree
  /// other coordinates and rows (a private mapping copies only the pages
  /// the process writes): answers change, but the ids and nodes a walk
  /// indexes with were read and checked in memory, so every query, cell
  /// sum and k-nearest search still runs to its end. Here every byte of
  /// the coordinates and rows becomes 0xFF (NaN coordinates, rows past any
  /// grid).
  @Test func aFileChangedInPlaceChangesAnswersNeverTheMemoryAWalkReads() throws {
    let points = Fixtures.uniform(5000, seed: 23)
    let built = try CellTree(points: points, parameters: .init(leafSize: 4))
    let directory = try SavedFiles.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/index.sbi"
    try built.save(to: path)
    let opened = try Self.open(path, map: true)
    let sections = SavedFileBytes(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).sections
    let changed = sections[0].bytes.lowerBound..<sections[1].bytes.upperBound
    // written in place: the same file, neither cut nor replaced
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seek(toOffset: UInt64(changed.lowerBound))
    try handle.write(contentsOf: Data(repeating: 0xFF, count: changed.count))
    try handle.close()
    // every walk still ends, whatever it answers
    _ = SavedFiles.differences(built, opened, points)
    _ = SavedFiles.cellSumDifferences(built, opened, points)
    #expect(opened.ids(in: .world).count <= points.count)
  }

  @Test func aMappedKDTreeAnswersAsTheBuildAndAsOneInMemory() throws {
    for fixture in SavedIndexTests.fixtures {
      for nodeSize in [1, 8] {
        let built = try KDTreeIndex(points: fixture.points, parameters: .init(nodeSize: nodeSize))
        let directory = try SavedFiles.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/index.sbi"
        try built.save(to: path)
        let mapped = try Self.openKD(path, map: true), read = try Self.openKD(path, map: false)
        #expect(read.mappedMemory == nil)
        #expect(!read.groupCoordinates.isMapped)
        if Self.platformMaps && !fixture.points.isEmpty {
          let memory = try #require(mapped.mappedMemory, "\(fixture)")
          // the coordinates, from the page that holds their start
          let n = fixture.points.count
          #expect(memory.mapped >= 16 * n && memory.mapped < 16 * n + 4096 + 64, "\(fixture)")
          #expect((memory.resident ?? 0) <= memory.mapped)
          #expect(mapped.memoryBytes < read.memoryBytes, "mapped arrays are not counted as held")
          // clustering's grouped sums read the mapping, not a copy
          #expect(mapped.groupCoordinates.isMapped)
        }
        #expect(Array(mapped.groupCoordinates) == Array(built.groupCoordinates), "\(fixture)")
        for opened in [mapped, read] {
          #expect(opened._invariantViolations().isEmpty, "\(fixture)")
          #expect(SavedFiles.differences(built, opened, fixture.points).isEmpty, "\(fixture) nodeSize \(nodeSize)")
          #expect(opened._pointsByID() == fixture.points, "\(fixture)")
        }
        // saved again from the mapping: the same bytes
        let again = directory + "/again.sbi"
        try mapped.save(to: again)
        #expect(FileManager.default.contents(atPath: again) == FileManager.default.contents(atPath: path))
      }
    }
  }

  /// Replaced or deleted, the file leaves a mapped k-d tree as opened.
  @Test func aMappedKDTreeOutlivesItsFileReplacedOrDeleted() throws {
    let points = Fixtures.uniform(5000, seed: 24), others = Fixtures.uniform(5000, seed: 25)
    let built = try KDTreeIndex(points: points)
    let directory = try SavedFiles.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/index.sbi"
    try built.save(to: path)
    let opened = try Self.openKD(path, map: true)
    try KDTreeIndex(points: others).save(to: path)
    #expect(SavedFiles.differences(built, opened, points).isEmpty)
    try FileManager.default.removeItem(atPath: path)
    #expect(SavedFiles.differences(built, opened, points).isEmpty)
  }

  /// The k-d tree's coordinates overwritten in place after the open, with
  /// NaNs (every byte 0xFF) and then with one position for every point:
  /// answers change, but the shape a walk follows comes from the count
  /// and the ids were read, so every query and search runs to its end.
  @Test func aKDTreeFileChangedInPlaceChangesAnswersNeverTheMemoryAWalkReads() throws {
    let points = Fixtures.uniform(5000, seed: 26)
    let built = try KDTreeIndex(points: points, parameters: .init(nodeSize: 4))
    let directory = try SavedFiles.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/index.sbi"
    try built.save(to: path)
    let opened = try Self.openKD(path, map: true)
    let sections = SavedFileBytes(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).sections
    let changed = sections[0].bytes
    var zero = 0.0
    let zeros = Data(bytes: &zero, count: 8)
    for fill in [Data(repeating: 0xFF, count: changed.count), Data((0..<(changed.count / 8)).flatMap { _ in zeros })] {
      // written in place: the same file, neither cut nor replaced
      let handle = try #require(FileHandle(forWritingAtPath: path))
      try handle.seek(toOffset: UInt64(changed.lowerBound))
      try handle.write(contentsOf: fill)
      try handle.close()
      // every walk still ends, whatever it answers
      _ = SavedFiles.differences(built, opened, points)
      #expect(opened.ids(in: .world).count <= points.count)
      var near: [Neighbor] = []
      opened.nearest(to: Point(x: 0, y: 0), k: 10, into: &near)
      #expect(near.count <= 10)
    }
    if Self.platformMaps {
      // all at (0, 0) now: the mapped tree reads the file as it is
      #expect(opened.ids(in: Rect(minX: 0, minY: 0, maxX: 0, maxY: 0)).count == points.count)
    }
  }
}
