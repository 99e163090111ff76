import Foundation
import SpatialIndexes
import Testing
import _SpatialTestSupport

/// A cell tree opened from a file reads its coordinates and rows from the
/// mapped file (``SavedMapping``) where the system can map it, a k-d tree
/// and an R-tree their coordinates: it answers
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

  /// Whether this platform maps files (where it does not, both opens read).
  static var platformMaps: Bool {
    #if canImport(Glibc) || canImport(Darwin)
    true
    #else
    false
    #endif
  }

  /// On Linux a mapping that fits in free memory asks for its pages at the
  /// map (`MAP_POPULATE`), since the open's checksums read them all anyway:
  /// they are resident before anything touches them.
  @Test func aMappingIsReadInAtTheMapOnLinux() throws {
    #if os(Linux)
    let directory = try SavedFiles.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/index.sbi"
    try KDTreeIndex(points: Fixtures.uniform(50_000, seed: 30)).save(to: path)
    let reader = try SavedFileReader(path: path, kind: KDTreeIndex.name, layouts: KDTreeIndex.savedLayouts, map: 0..<1)
    let opened = reader.mapping
    let mapping = try #require(opened)
    #expect(mapping.bytes.count >= 16 * 50_000)
    #expect(mapping.residentBytes == mapping.bytes.count)
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
        try expectSavedAgainAlike(mapped, path, in: directory)
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

  /// Opens the index at `path` mapped, or read into memory.
  static func open<I: SavableIndex>(_ path: String, map: Bool, as _: I.Type) throws -> I {
    var timings = SavedOpenTimings()
    var externalIDs: [UInt64]? = nil
    return try I(contentsOf: path, map: map, timings: &timings, externalIDs: &externalIDs)
  }

  /// A tree that keeps its points' coordinates in its own order (the k-d
  /// tree, the R-tree), built with each of `sizes`, saved, and opened
  /// mapped and read: both answer as the build, the mapped one reads the
  /// file's coordinates (clustering's grouped sums too) and holds less.
  func checkMappedCoordinates<I: SavableIndex & GroupingIndex & InvariantChecking>(
    _ build: ([Point], Int) throws -> I, sizes: [Int]
  ) throws {
    for fixture in SavedIndexTests.fixtures {
      for size in sizes {
        let built = try build(fixture.points, size)
        let directory = try SavedFiles.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/index.sbi"
        try built.save(to: path)
        let mapped = try Self.open(path, map: true, as: I.self), read = try Self.open(path, map: false, as: I.self)
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
          #expect(SavedFiles.differences(built, opened, fixture.points).isEmpty, "\(fixture) size \(size)")
          #expect(opened._pointsByID() == fixture.points, "\(fixture)")
        }
        try expectSavedAgainAlike(mapped, path, in: directory)
      }
    }
  }

  @Test func aMappedKDTreeAnswersAsTheBuildAndAsOneInMemory() throws {
    try checkMappedCoordinates({ try KDTreeIndex(points: $0, parameters: .init(nodeSize: $1)) }, sizes: [1, 8])
  }

  @Test func aMappedRTreeAnswersAsTheBuildAndAsOneInMemory() throws {
    try checkMappedCoordinates({ try HilbertRTree(points: $0, parameters: .init(nodeSize: $1)) }, sizes: [2, 16])
  }

  /// Replaced or deleted, the file leaves a tree that maps its
  /// coordinates as opened.
  func checkOutlivesItsFile<I: SavableIndex>(_ build: ([Point]) throws -> I, seed: UInt64) throws {
    let points = Fixtures.uniform(5000, seed: seed), others = Fixtures.uniform(5000, seed: seed + 1)
    let built = try build(points)
    let directory = try SavedFiles.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/index.sbi"
    try built.save(to: path)
    let opened = try Self.open(path, map: true, as: I.self)
    try build(others).save(to: path)
    #expect(SavedFiles.differences(built, opened, points).isEmpty)
    try FileManager.default.removeItem(atPath: path)
    #expect(SavedFiles.differences(built, opened, points).isEmpty)
  }

  @Test func aMappedKDTreeOutlivesItsFileReplacedOrDeleted() throws {
    try checkOutlivesItsFile({ try KDTreeIndex(points: $0) }, seed: 24)
  }

  @Test func aMappedRTreeOutlivesItsFileReplacedOrDeleted() throws {
    try checkOutlivesItsFile({ try HilbertRTree(points: $0) }, seed: 27)
  }

  /// The coordinates of a tree that maps them overwritten in place after
  /// the open, with NaNs (every byte 0xFF) and then with one position for
  /// every point: answers change, but what a walk indexes memory with (the
  /// k-d tree's shape, the R-tree's boxes, both trees' ids) was read or
  /// made at the open, so every query, grouped walk and search runs to its
  /// end.
  func checkChangedInPlace<I: SavableIndex & GroupingIndex>(_ build: ([Point]) throws -> I, seed: UInt64) throws {
    let points = Fixtures.uniform(5000, seed: seed)
    let built = try build(points)
    let directory = try SavedFiles.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/index.sbi"
    try built.save(to: path)
    let opened = try Self.open(path, map: true, as: I.self)
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
      var counters = NoCounters()
      var groups = GroupCountingVisitor()
      opened.forEachGroup(in: .world, counters: &counters, &groups)
      #expect(groups.points <= points.count)
    }
    if Self.platformMaps {
      // all at (0, 0) now: the mapped tree reads the file as it is (a
      // query may not find them there: the R-tree's boxes are the open's)
      #expect(opened._pointsByID().allSatisfy { $0 == Point(x: 0, y: 0) })
      #expect(opened.groupCoordinates.allSatisfy { $0 == 0 })
    }
  }

  @Test func aKDTreeFileChangedInPlaceChangesAnswersNeverTheMemoryAWalkReads() throws {
    try checkChangedInPlace({ try KDTreeIndex(points: $0, parameters: .init(nodeSize: 4)) }, seed: 26)
  }

  @Test func anRTreeFileChangedInPlaceChangesAnswersNeverTheMemoryAWalkReads() throws {
    try checkChangedInPlace({ try HilbertRTree(points: $0, parameters: .init(nodeSize: 4)) }, seed: 29)
  }
}

/// Counts the points a grouped query hands over, taking every group whole.
private struct GroupCountingVisitor: GroupVisitor {
  var points = 0
  mutating func acceptsGroup(in box: Rect) -> Bool { true }
  mutating func takeGroup(_ positions: Range<Int>) { points += positions.count }
  mutating func take(_ id: Int32, at position: Int) { points += 1 }
}

/// `index`, opened from `path` and saved again from its mapping, writes
/// the same bytes.
private func expectSavedAgainAlike<I: SavableIndex>(_ index: I, _ path: String, in directory: String) throws {
  let again = directory + "/again.sbi"
  try index.save(to: again)
  #expect(FileManager.default.contents(atPath: again) == FileManager.default.contents(atPath: path))
}
