import Foundation
import SpatialIndexes
import Testing
import _SpatialTestSupport

/// Opening trusts nothing in the file: every way a file can be wrong is a
/// thrown ``SavedIndexError`` that names the file and says what is wrong,
/// never a trap or a read out of bounds. Hostile files carry correct
/// checksums (``SavedFileBytes/refreshChecksums()``), so only the
/// structural checks stand between them and the walk.
@Suite struct SavedIndexCorruptionTests {
  static let points = Fixtures.uniform(100, seed: 3) + [Point(x: 0, y: 89.5), Point(x: 200, y: 0)]

  /// Opens `bytes` as a file, returning the error it throws (nil: it opened).
  func openError(_ bytes: [UInt8], as open: (String) throws -> Void) throws -> SavedIndexError? {
    let directory = try SavedFiles.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/bad.sbi"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    do {
      try open(path)
      return nil
    } catch let error as SavedIndexError {
      #expect(error.file == path && error.description.hasPrefix(path + ": "))
      return error
    }
  }

  /// Opens an index mapped and read into memory: the same error, or none,
  /// either way.
  static func openBoth<I: SavableIndex>(_ path: String, as _: I.Type) throws {
    var timings = SavedOpenTimings()
    var externalIDs: [UInt64]? = nil
    var inMemory: SavedIndexError? = nil
    do {
      _ = try I(contentsOf: path, map: false, timings: &timings, externalIDs: &externalIDs)
    } catch {
      inMemory = error
    }
    do {
      _ = try I(contentsOf: path)
    } catch {
      #expect(error.description == inMemory?.description, "mapped and in memory alike")
      throw error
    }
    #expect(inMemory == nil, "mapped and in memory alike")
  }
  static func openKD(_ path: String) throws { try openBoth(path, as: KDTreeIndex.self) }
  static func openR(_ path: String) throws { try openBoth(path, as: HilbertRTree.self) }
  static func openCells(_ path: String) throws { try openBoth(path, as: CellTree.self) }

  func kdBytes() throws -> SavedFileBytes {
    SavedFileBytes(try SavedFiles.bytes(try KDTreeIndex(points: Self.points, parameters: .init(nodeSize: 8))) {
      try $0.save(to: $1)
    })
  }

  func rBytes() throws -> SavedFileBytes {
    SavedFileBytes(try SavedFiles.bytes(try HilbertRTree(points: Self.points, parameters: .init(nodeSize: 4))) {
      try $0.save(to: $1)
    })
  }

  func cellBytes() throws -> SavedFileBytes {
    SavedFileBytes(try SavedFiles.bytes(try CellTree(points: Self.points, parameters: .init(leafSize: 4))) {
      try $0.save(to: $1)
    })
  }

  /// The optional last section of external ids (`EXID`): a file with it
  /// opens; a changed byte in it, one id too few, or a last section of
  /// another tag is refused, each with what is wrong.
  @Test func theExternalIDsAreChecked() throws {
    let tree = try KDTreeIndex(points: Self.points, parameters: .init(nodeSize: 8))
    let ids = (0..<UInt64(Self.points.count)).map { UInt64.max - 3 * $0 }
    let good = SavedFileBytes(tree._savedFile.addingExternalIDs(ids).bytes())
    #expect(good.sections.map(\.tag) == ["XY  ", "IDS ", "EXID"])
    #expect(try openError(good.bytes, as: Self.openKD) == nil)
    var flipped = good
    flipped.bytes[good.sections[2].bytes.lowerBound + 5] ^= 0x10
    #expect(try openError(flipped.bytes, as: Self.openKD)?.problem == .checksumMismatch(section: "EXID"))
    var short = good
    short.set(UInt64(ids.count - 1), at: good.sections[2].entry + 16)
    short.bytes.removeLast(8)
    short.parse()
    short.refreshChecksums()
    #expect(try openError(short.bytes, as: Self.openKD)?.problem
      == .structureInvalid("\(ids.count - 1) external ids for \(ids.count) points"))
    var foreign = good
    for (k, b) in "XTRA".utf8.enumerated() { foreign.bytes[good.sections[2].entry + k] = b }
    foreign.refreshChecksums()
    #expect(try openError(foreign.bytes, as: Self.openKD)?.problem
      == .structureInvalid("section 3 is \"XTRA\", expected \"EXID\""))
  }

  /// Each kind's file and its opener.
  static func everyKind(_ tests: Self) throws -> [(SavedFileBytes, (String) throws -> Void)] {
    [(try tests.kdBytes(), Self.openKD), (try tests.rBytes(), Self.openR), (try tests.cellBytes(), Self.openCells)]
  }

  @Test func theUntouchedFilesOpen() throws {
    #expect(try openError(try kdBytes().bytes, as: Self.openKD) == nil)
    #expect(try openError(try rBytes().bytes, as: Self.openR) == nil)
    #expect(try openError(try cellBytes().bytes, as: Self.openCells) == nil)
  }

  /// A file cut short anywhere, even inside the header, is truncated.
  @Test func aFileCutAnywhereIsTruncated() throws {
    for (file, open) in try Self.everyKind(self) {
      for length in 0..<file.bytes.count {
        let error = try openError(Array(file.bytes[0..<length]), as: open)
        guard case .truncated? = error?.problem else {
          Issue.record("cut at \(length): \(String(describing: error))")
          continue
        }
      }
    }
  }

  /// A changed byte anywhere fails to open: in a section, that section's
  /// checksum; in the header or table, the header's (or the field's own
  /// check, for the magic, byte order and version); in padding, its zeros.
  @Test func aChangedByteAnywhereIsFound() throws {
    for (file, open) in try Self.everyKind(self) {
      for offset in 0..<file.bytes.count {
        var bytes = file.bytes
        bytes[offset] ^= 0x10
        guard let error = try openError(bytes, as: open) else {
          Issue.record("a change at \(offset) opened")
          continue
        }
        let expected: SavedIndexError.Problem?
        if let s = file.sections.first(where: { $0.bytes.contains(offset) }) {
          expected = .checksumMismatch(section: s.tag.trimmingCharacters(in: .whitespaces))
        } else if offset >= file.tableEnd {
          expected = .nonzeroPadding(offset: offset)
        } else if offset < 8 {
          expected = .badMagic
        } else if (12..<16).contains(offset) {
          expected = .unsupportedVersion(found: 1 ^ (0x10 << (8 * UInt32(offset - 12))), supported: 1)
        } else if (8..<12).contains(offset) || (56..<60).contains(offset) {
          expected = nil  // the byte order mark, the section count: their own checks
        } else {
          expected = .checksumMismatch(section: "header")
        }
        if let expected, error.problem != expected {
          Issue.record("change at \(offset): \(error), expected \(expected)")
        }
      }
    }
  }

  @Test func aForeignFileIsBadMagic() throws {
    let text = Array("x,y\n1,2\n3,4\n5,6\n7,8\n9,10\n11,12\n13,14\n15,16\n17,18\n19,20\n21,22\n23,24\n25,26\n".utf8)
    #expect(try openError(text, as: Self.openKD)?.problem == .badMagic)
  }

  @Test func anotherVersionIsNamed() throws {
    var file = try kdBytes()
    file.set(UInt32(2), at: 12)
    file.refreshChecksums()
    #expect(try openError(file.bytes, as: Self.openKD)?.problem == .unsupportedVersion(found: 2, supported: 1))
  }

  @Test func theOtherByteOrderIsNamed() throws {
    var file = try kdBytes()
    file.set(UInt32(0x0102_0304).byteSwapped, at: 8)
    file.refreshChecksums()
    #expect(try openError(file.bytes, as: Self.openKD)?.problem == .byteOrder)
  }

  @Test func anotherKindIsForeign() throws {
    let file = try kdBytes()
    #expect(try openError(file.bytes, as: Self.openCells)?.problem == .foreignKind(found: "kdtree", expected: "celltree"))
    #expect(try openError(file.bytes, as: { _ = try HilbertRTree(contentsOf: $0) })?.problem
      == .foreignKind(found: "kdtree", expected: "rtree"))
  }

  @Test func bytesAfterTheLastSectionAreRefused() throws {
    let file = try kdBytes()
    #expect(try openError(file.bytes + [0], as: Self.openKD)?.problem
      == .trailingBytes(expected: file.bytes.count, actual: file.bytes.count + 1))
  }

  @Test func aMissingFileIsAnIOError() throws {
    let error = #expect(throws: SavedIndexError.self) { try KDTreeIndex(contentsOf: "/nonexistent/index.sbi") }
    guard case .io? = error?.problem else { Issue.record("\(String(describing: error))"); return }
  }

  /// Counts that promise more than the file holds, or more than the format
  /// allows, are refused before anything is allocated for them.
  @Test func hostileCountsAreRefused() throws {
    var file = try kdBytes()
    file.set(UInt64(1) << 60, at: file.sections[0].entry + 16)
    file.refreshChecksums()
    guard case .countOutOfRange? = try openError(file.bytes, as: Self.openKD)?.problem else {
      Issue.record("a count of 2^60 was not refused"); return
    }
    file = try kdBytes()
    file.set(UInt64(Self.points.count + 1), at: 32)
    file.refreshChecksums()
    guard case .structureInvalid? = try openError(file.bytes, as: Self.openKD)?.problem else {
      Issue.record("a point count one too many was not refused"); return
    }
    file = try kdBytes()
    file.set(UInt64(1) << 40, at: 32)
    file.refreshChecksums()
    #expect(try openError(file.bytes, as: Self.openKD)?.problem
      == .countOutOfRange(name: "point count", value: 1 << 40, limit: UInt64(Int32.max)))
    file = try kdBytes()
    file.set(UInt32(17), at: 56)
    file.refreshChecksums()
    #expect(try openError(file.bytes, as: Self.openKD)?.problem
      == .countOutOfRange(name: "section count", value: 17, limit: 16))
  }

  /// A change to a file, named, and what its error says.
  typealias Change = (name: String, change: (inout SavedFileBytes) -> Void, reason: String)

  /// Contents no build makes in a tree of points in its own order (the k-d
  /// tree, the R-tree), checksums correct.
  static var hostilePoints: [Change] { [
    ("a repeated id", { (f: inout SavedFileBytes) in f.set(f.int32(section: 1, 1), at: f.sections[1].bytes.lowerBound) }, "appears twice"),
    ("an id out of range", { (f: inout SavedFileBytes) in f.set(Int32(-5), at: f.sections[1].bytes.lowerBound) }, "out of range"),
    ("a NaN coordinate", { (f: inout SavedFileBytes) in f.set(Double.nan.bitPattern, at: f.sections[0].bytes.lowerBound + 8) }, "not finite"),
    ("an infinite coordinate", { (f: inout SavedFileBytes) in f.set(Double.infinity.bitPattern, at: f.sections[0].bytes.lowerBound) }, "not finite"),
    ("node size 0", { (f: inout SavedFileBytes) in f.set(UInt32(0), at: 40) }, "nodeSize 0"),
    ("an unused parameter", { (f: inout SavedFileBytes) in f.set(UInt32(3), at: 48) }, "parameter 3"),
  ] }

  /// Each change made to `file`, checksums refreshed: each refused by
  /// `open` with what is wrong.
  func checkRefused(_ changes: [Change], in file: SavedFileBytes, by open: (String) throws -> Void) throws {
    for (name, change, reason) in changes {
      var changed = file
      change(&changed)
      changed.refreshChecksums()
      let error = try openError(changed.bytes, as: open)
      guard case .structureInvalid(let why)? = error?.problem, why.contains(reason) else {
        Issue.record("\(name): \(String(describing: error))"); continue
      }
    }
  }

  /// Contents no build makes, checksums correct: each refused with what is
  /// wrong.
  @Test func hostileKDTreesAreRefused() throws {
    try checkRefused(Self.hostilePoints, in: try kdBytes(), by: Self.openKD)
  }

  /// The same for the R-tree, and node sizes it does not build.
  @Test func hostileRTreesAreRefused() throws {
    try checkRefused(Self.hostilePoints + [
      ("node size 1", { (f: inout SavedFileBytes) in f.set(UInt32(1), at: 40) }, "nodeSize 1"),
      ("node size 257", { (f: inout SavedFileBytes) in f.set(UInt32(257), at: 40) }, "nodeSize 257"),
    ], in: try rBytes(), by: Self.openR)
  }

  /// Nodes that would lead a walk astray: out of the array, round in a
  /// loop, deeper than its stack, over points that are not there.
  @Test func hostileCellTreesAreRefused() throws {
    let changes: [Change] = [
    ("a child past the nodes", { (f: inout SavedFileBytes) in f.setNode(0, link: 1_000_000) }, "out of place"),
    ("a child that is its parent", { (f: inout SavedFileBytes) in f.setNode(0, link: 0) }, "out of place"),
    ("a fifth quadrant", { (f: inout SavedFileBytes) in f.setNode(0, mask: 0x1F) }, "child mask"),
    ("a root short of the points", { (f: inout SavedFileBytes) in f.setNode(0, count: 3) }, "the root does not hold every point"),
    ("a child past the points", { (f: inout SavedFileBytes) in f.setNode(1, start: 1_000_000) }, "not side by side"),
    ("a child of negative count", { (f: inout SavedFileBytes) in f.setNode(1, count: -3) }, "not side by side"),
    ("nonzero node padding", { (f: inout SavedFileBytes) in f.bytes[f.sections[3].bytes.lowerBound + 47] = 1 }, "padding"),
    ("an on-map point in the off-map tree", { (f: inout SavedFileBytes) in
      f.set(Double(1).bitPattern, at: f.sections[4].bytes.lowerBound)
      f.set(Double(1).bitPattern, at: f.sections[4].bytes.lowerBound + 8)
    }, "lies on the map"),
    ("a point off the map in the tree", { (f: inout SavedFileBytes) in f.set(Double(300).bitPattern, at: f.sections[0].bytes.lowerBound) }, "off the map"),
    ]
    try checkRefused(changes, in: try cellBytes(), by: Self.openCells)
  }

  /// A tree deeper than the walks' stacks allow: a chain of one-child
  /// nodes 40 deep over a single point, checksums correct.
  @Test func aTreeDeeperThanTheDeepestLevelIsRefused() throws {
    var file = try SavedFileBytes(SavedFiles.bytes(try CellTree(points: [Point(x: 1, y: 1)])) { try $0.save(to: $1) })
    let depth = 40
    var nodes: [UInt8] = []
    for k in 0..<depth {
      var node = [UInt8](repeating: 0, count: 48)
      func put(_ v: Int32, _ at: Int) { withUnsafeBytes(of: v.littleEndian) { for (j, b) in $0.enumerated() { node[at + j] = b } } }
      put(0, 16); put(1, 20); put(k == depth - 1 ? 0 : Int32(k + 1), 24)
      node[44] = k == depth - 1 ? 0 : 1
      nodes += node
    }
    file.replaceSection(3, with: nodes, count: depth)
    file.refreshChecksums()
    let error = try openError(file.bytes, as: Self.openCells)
    guard case .structureInvalid(let why)? = error?.problem, why.contains("deepest level") else {
      Issue.record("\(String(describing: error))"); return
    }
  }
}

/// A saved index's bytes, its section table parsed, to change and
/// re-checksum in tests.
struct SavedFileBytes {
  var bytes: [UInt8]
  /// Each section: its tag, the bytes it covers and where its table entry is.
  var sections: [(tag: String, bytes: Range<Int>, entry: Int)] = []
  var tableEnd: Int { 64 + 32 * sections.count }

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    parse()
  }

  mutating func parse() {
    let count = Int(u32(56))
    sections = (0..<count).map { k in
      let e = 64 + 32 * k
      let tag = String(decoding: bytes[e..<(e + 4)], as: UTF8.self)
      let offset = Int(u64(e + 8)), length = Int(u64(e + 16)) * Int(u32(e + 4))
      return (tag, offset..<(offset + length), e)
    }
  }

  func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) } }
  func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
  func int32(section: Int, _ k: Int) -> Int32 { Int32(bitPattern: u32(sections[section].bytes.lowerBound + 4 * k)) }

  mutating func set<T: FixedWidthInteger>(_ value: T, at offset: Int) {
    withUnsafeBytes(of: value.littleEndian) { for (k, b) in $0.enumerated() { bytes[offset + k] = b } }
  }

  /// Changes fields of cell-tree node `k` (section 3, 48 bytes a node).
  mutating func setNode(_ k: Int, start: Int32? = nil, count: Int32? = nil, link: Int32? = nil, mask: UInt8? = nil) {
    let o = sections[3].bytes.lowerBound + 48 * k
    if let start { set(start, at: o + 16) }
    if let count { set(count, at: o + 20) }
    if let link { set(link, at: o + 24) }
    if let mask { bytes[o + 44] = mask }
  }

  /// Puts `contents` (`count` elements) in place of section `k`, moving the
  /// sections after it and writing their new offsets.
  mutating func replaceSection(_ k: Int, with contents: [UInt8], count: Int) {
    func aligned(_ x: Int) -> Int { (x + 63) / 64 * 64 }
    var parts = sections.map { Array(bytes[$0.bytes]) }
    parts[k] = contents
    var out = Array(bytes[0..<tableEnd])
    for (j, part) in parts.enumerated() {
      out += [UInt8](repeating: 0, count: aligned(out.count) - out.count)
      let e = 64 + 32 * j
      let offset = UInt64(out.count)
      withUnsafeBytes(of: offset.littleEndian) { for (i, b) in $0.enumerated() { out[e + 8 + i] = b } }
      if j == k { withUnsafeBytes(of: UInt64(count).littleEndian) { for (i, b) in $0.enumerated() { out[e + 16 + i] = b } } }
      out += part
    }
    bytes = out
    parse()
  }

  /// Every section's checksum, then the header's, made right again.
  mutating func refreshChecksums() {
    for s in sections where s.bytes.upperBound <= bytes.count {
      let crc = bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[s.bytes])) }
      set(crc, at: s.entry + 24)
    }
    var crc = CRC32C()
    bytes.withUnsafeBytes { b in
      crc.update(UnsafeRawBufferPointer(rebasing: b[0..<60]))
      crc.update(UnsafeRawBufferPointer(rebasing: b[64..<min(b.count, tableEnd)]))
    }
    set(crc.value, at: 60)
  }
}
