import Foundation
import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport

/// A saved index opens as the index that was saved: same count, same
/// points by id, and the same answer to every query, in the same order
/// (viewports, k-nearest, the cell tree's cell sums).
@Suite struct SavedIndexTests {
  /// The standard point sets, and points off the map for the cell tree's
  /// own k-d tree.
  static let fixtures = Fixtures.standard() + [
    Fixture("off-the-map", Fixtures.uniform(300, seed: 8) + [
      Point(x: 0, y: 89.9), Point(x: 10, y: -89.5), Point(x: 181, y: 0), Point(x: -200, y: 10),
    ] + Fixtures.uniform(200, seed: 9, in: Rect(minX: -180, minY: 86, maxX: 180, maxY: 90))),
  ]

  @Test func aKDTreeRoundTrips() throws {
    for fixture in Self.fixtures {
      for nodeSize in [1, 5, 64] {
        let built = try KDTreeIndex(points: fixture.points, parameters: .init(nodeSize: nodeSize))
        let opened = try SavedFiles.roundTrip(built) { try $0.save(to: $1) } open: { try KDTreeIndex(contentsOf: $0) }
        #expect(opened._invariantViolations().isEmpty, "\(fixture)")
        #expect(opened.parameters.nodeSize == nodeSize)
        #expect(opened.groupOrder == built.groupOrder, "\(fixture)")
        #expect(SavedFiles.differences(built, opened, fixture.points).isEmpty, "\(fixture) nodeSize \(nodeSize)")
        #expect(opened._pointsByID() == fixture.points, "\(fixture)")
      }
    }
  }

  @Test func anRTreeRoundTrips() throws {
    for fixture in Self.fixtures {
      for nodeSize in [2, 16] {
        let built = try HilbertRTree(points: fixture.points, parameters: .init(nodeSize: nodeSize))
        let opened = try SavedFiles.roundTrip(built) { try $0.save(to: $1) } open: { try HilbertRTree(contentsOf: $0) }
        #expect(opened._invariantViolations().isEmpty, "\(fixture)")
        #expect(opened.parameters.nodeSize == nodeSize)
        #expect(opened.groupOrder == built.groupOrder, "\(fixture)")
        #expect(SavedFiles.differences(built, opened, fixture.points).isEmpty, "\(fixture) nodeSize \(nodeSize)")
        #expect(opened._pointsByID() == fixture.points, "\(fixture)")
      }
    }
  }

  @Test func aCellTreeRoundTrips() throws {
    for fixture in Self.fixtures {
      for leafSize in [1, 16] {
        let built = try CellTree(points: fixture.points, parameters: .init(leafSize: leafSize))
        let opened = try SavedFiles.roundTrip(built) { try $0.save(to: $1) } open: { try CellTree(contentsOf: $0) }
        #expect(opened._invariantViolations().isEmpty, "\(fixture)")
        #expect(opened.parameters.leafSize == leafSize)
        #expect(SavedFiles.differences(built, opened, fixture.points).isEmpty, "\(fixture) leafSize \(leafSize)")
        #expect(SavedFiles.cellSumDifferences(built, opened, fixture.points).isEmpty, "\(fixture)")
        #expect(opened._pointsByID() == fixture.points, "\(fixture)")
      }
    }
  }

  /// Saving over an existing file replaces it whole; no temporary file is
  /// left beside it.
  @Test func savingReplacesAFileAndLeavesNothingBehind() throws {
    let directory = try SavedFiles.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/index.sbi"
    try KDTreeIndex(points: Fixtures.uniform(1000, seed: 1)).save(to: path)
    try KDTreeIndex(points: Fixtures.uniform(10, seed: 2)).save(to: path)
    #expect(try KDTreeIndex(contentsOf: path).count == 10)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["index.sbi"])
  }

  /// A file that cannot be written is an error naming it, not a trap.
  @Test func anUnwritablePathThrowsNamingIt() throws {
    let path = "/nonexistent-directory/index.sbi"
    let error = #expect(throws: SavedIndexError.self) { try KDTreeIndex(points: []).save(to: path) }
    #expect(error?.description.hasPrefix(path) == true)
  }

  /// The software table and the CPU's instruction give the same checksums,
  /// and both the published check value ("123456789" → 0xE3069283).
  @Test func softwareAndHardwareChecksumsAgree() {
    let check = Array("123456789".utf8)
    check.withUnsafeBytes { b in
      #expect(CRC32C.checksum(b) == 0xE306_9283)
      var soft = CRC32C()
      soft.updateInSoftware(b)
      #expect(soft.value == 0xE306_9283)
    }
    var random = SplitMix64(seed: 7)
    let bytes = (0..<4099).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    for cut in [0, 1, 7, 8, 9, 100, 4098, 4099] {
      bytes.withUnsafeBytes { b in
        var soft = CRC32C(), either = CRC32C()
        soft.updateInSoftware(UnsafeRawBufferPointer(rebasing: b[0..<cut]))
        soft.updateInSoftware(UnsafeRawBufferPointer(rebasing: b[cut...]))
        either.update(b)
        #expect(soft.value == either.value, "cut at \(cut)")
      }
    }
  }

  /// Long inputs, which the instruction takes in three streams joined by a
  /// product of polynomials, give the table's checksums at every length
  /// around where the streams start (12,288 bytes) and every start
  /// alignment, one call or two.
  @Test func longChecksumsInThreeStreamsAgreeWithTheTable() {
    var random = SplitMix64(seed: 11)
    let bytes = (0..<(3 * 4096 * 9 + 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    bytes.withUnsafeBytes { all in
      for start in [0, 1, 3, 8] {
        for count in [3 * 4096 - 1, 3 * 4096, 3 * 4096 + 1, 3 * 4096 + 23, 3 * 4096 + 24, 100_003, 3 * 4096 * 9] {
          let b = UnsafeRawBufferPointer(rebasing: all[start..<(start + count)])
          var soft = CRC32C(), either = CRC32C(), split = CRC32C()
          soft.updateInSoftware(b)
          either.update(b)
          split.update(UnsafeRawBufferPointer(rebasing: b[0..<(count / 2)]))
          split.update(UnsafeRawBufferPointer(rebasing: b[(count / 2)...]))
          #expect(either.value == soft.value && split.value == soft.value, "\(count) bytes from \(start)")
        }
      }
    }
  }
}

/// Saving, opening and comparing, for the saved-index tests.
enum SavedFiles {
  /// A fresh directory for one test's files.
  static func directory() throws -> String {
    let path = NSTemporaryDirectory() + "saved-index-tests-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Saves `index` with `save` and opens it again with `open`.
  static func roundTrip<I>(
    _ index: I, save: (I, String) throws -> Void, open: (String) throws -> I
  ) throws -> I {
    let directory = try directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/index.sbi"
    try save(index, path)
    return try open(path)
  }

  /// The bytes of `index` saved.
  static func bytes<I>(_ index: I, save: (I, String) throws -> Void) throws -> [UInt8] {
    let directory = try directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/index.sbi"
    try save(index, path)
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// Viewports over and around the points, and k-nearest from places in
  /// and around them, where the two indexes answer differently.
  static func differences<I: SpatialIndex>(_ a: I, _ b: I, _ points: [Point]) -> [String] {
    var problems: [String] = []
    var random = SplitMix64(seed: UInt64(points.count) &+ 17)
    func coordinate(_ low: Double, _ high: Double) -> Double {
      low + (high - low) * Double(random.next() >> 11) / Double(1 << 53)
    }
    var rects = [Rect(minX: -180, minY: -90, maxX: 180, maxY: 90), Rect(minX: -1000, minY: -1000, maxX: 1000, maxY: 1000)]
    for _ in 0..<60 {
      let x = coordinate(-180, 180), y = coordinate(-90, 90)
      let w = coordinate(0, 40), h = coordinate(0, 30)
      rects.append(Rect(minX: x - w, minY: y - h, maxX: x + w, maxY: y + h))
    }
    // rectangles whose edges pass through points
    for p in points.prefix(20) { rects.append(Rect(minX: p.x, minY: p.y, maxX: p.x + 1, maxY: p.y + 1)) }
    for r in rects where a.ids(in: r) != b.ids(in: r) { problems.append("viewport \(r)") }
    var places = (0..<20).map { _ in Point(x: coordinate(-180, 180), y: coordinate(-90, 90)) }
    places += points.prefix(10)
    for p in places {
      for k in [1, 10] {
        var x: [Neighbor] = [], y: [Neighbor] = []
        a.nearest(to: p, k: k, into: &x)
        b.nearest(to: p, k: k, into: &y)
        if x != y { problems.append("nearest \(k) to \(p)") }
      }
    }
    return problems
  }

  /// Cell sums (clustering's work) over views at several zooms.
  static func cellSumDifferences(_ a: CellTree, _ b: CellTree, _ points: [Point]) -> [String] {
    var problems: [String] = []
    let rects = [Rect(minX: -180, minY: -85, maxX: 180, maxY: 85), Rect(minX: -10, minY: 30, maxX: 40, maxY: 60),
                 Rect(minX: 170, minY: -20, maxX: 180, maxY: 20)]
    for rect in rects {
      for zoom in [0, 2, 5, 9] {
        let s = WebMercator.scale(zoom: zoom), size = 88.0
        func cell(_ m: Double) -> Int { MapCells.index(m, scale: s, cellSize: size, inverse: 1 / size) }
        let colLo = cell(WebMercator.x(longitude: rect.minX)), colHi = cell(WebMercator.x(longitude: rect.maxX))
        let rowLo = cell(WebMercator.y(latitude: rect.maxY)), rowHi = cell(WebMercator.y(latitude: rect.minY))
        let zero = rect.maxX == 180 && colLo > 0 ? 1 : 0
        let w = CellWindow(
          zoom: zoom, cellSize: size, rowLo: rowLo, rowHi: rowHi, colLo: colLo, colHi: colHi,
          width: colHi - colLo + 1 + zero, base: zero - colLo, columnZero: zero == 1 ? 0 : -1)
        let cellCount = w.width * (w.rowHi - w.rowLo + 1)
        guard cellCount <= 200_000 else { continue }
        var x = [CellTotals](repeating: CellTotals(), count: cellCount), y = x
        var none = NoCounters()
        x.withUnsafeMutableBufferPointer { a.sumCells(in: rect, window: w, into: $0, counters: &none) }
        y.withUnsafeMutableBufferPointer { b.sumCells(in: rect, window: w, into: $0, counters: &none) }
        if x != y { problems.append("cells of \(rect) at zoom \(zoom)") }
      }
    }
    return problems
  }
}
