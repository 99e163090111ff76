#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a saved index (``SavedFormat``) and checks everything the format
/// itself says: magic, byte order, version, the header's checksum, the kind,
/// the section table against the layout the kind expects, the file's exact
/// size and its zero padding. Sections are then read one at a time, each
/// into an array of its own, and checked against their checksums; what
/// their contents mean is the index's to check.
///
/// A section is read into an array of its own (``read(_:as:)``), or, when
/// the reader was asked to map the file and the system could, viewed in
/// the mapping (``mapped(_:as:)``, see ``SavedMapping`` for what that
/// assumes); its checksum is checked either way.
package struct SavedFileReader: ~Copyable {
  /// The path as the caller gave it, for messages.
  package let path: String
  /// The kind the header names.
  package let kind: String
  /// Points the header says the index holds.
  package let pointCount: Int
  /// The kind's four parameters.
  package let parameters: [UInt32]
  /// Each section's offset, element count and checksum, in file order.
  let entries: [(offset: Int, count: Int, crc: UInt32)]
  /// The layouts the caller expects, in file order, then `EXID` when
  /// the file has it.
  private(set) var layouts: [SavedSectionLayout]
  /// Whether the file ends with the optional `EXID` section.
  package private(set) var hasExternalIDs = false
  private let fd: Int32
  /// Time spent on the sections' checksums so far.
  package private(set) var checksumTime: Duration = .zero
  /// The sections asked for mapped, when the system could.
  package let mapping: SavedMapping?

  /// Opens `path` and checks its header and table; `kind` is the kind the
  /// caller wants (nil: any, with `layouts` empty, to learn the kind).
  /// The sections `map` (of `layouts`, side by side in the file) are also
  /// mapped for ``mapped(_:as:)``.
  package init(
    path: String, kind expected: String?, layouts: [SavedSectionLayout], map: Range<Int>? = nil
  ) throws(SavedIndexError) {
    self.path = path
    self.layouts = layouts
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
      throw SavedIndexError(file: path, .io(operation: "open", message: String(cString: strerror(errno))))
    }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      let message = String(cString: strerror(errno))
      close(fd)
      throw SavedIndexError(file: path, .io(operation: "read its size", message: message))
    }
    do {
      let header = try Self.parse(fd: fd, size: Int(status.st_size), path: path, kind: expected, layouts: layouts)
      (kind, pointCount, parameters, entries) = header
      hasExternalIDs = entries.count > layouts.count
      if hasExternalIDs { self.layouts.append(SavedFormat.externalIDsLayout) }
    } catch {
      close(fd)
      throw error
    }
    self.fd = fd
    // mapped only while the file still has the size checked (one cut
    // shorter since would make the checksums' reads stop the process)
    var mapping: SavedMapping? = nil
    if let map, !map.isEmpty, map.upperBound <= entries.count {
      let last = entries[map.upperBound - 1]
      mapping = SavedMapping(
        fd: fd, range: entries[map.lowerBound].offset..<(last.offset + last.count * self.layouts[map.upperBound - 1].elementSize))
    }
    var now = stat()
    if mapping != nil && (fstat(fd, &now) != 0 || now.st_size != status.st_size) { mapping = nil }
    self.mapping = mapping
  }

  deinit { close(fd) }

  /// Reads section `index` into an array of `T` (whose size divides the
  /// section's element size) and checks its checksum.
  package mutating func read<T: BitwiseCopyable>(_ index: Int, as type: T.Type) throws(SavedIndexError) -> [T] {
    let stride = MemoryLayout<T>.stride
    precondition(layouts[index].elementSize % stride == 0)
    let entry = entries[index]
    let byteCount = entry.count * layouts[index].elementSize
    let count = byteCount / stride
    var failure: SavedIndexError?
    // Fresh memory in 2 MB pages where the system has them
    // (LargeArrays.swift): the read is the first to touch every page.
    var array = [T](_uninitializedLarge: count)
    array.withUnsafeMutableBytes { raw in
      var done = 0
      while done < byteCount {
        let n = pread(fd, raw.baseAddress! + done, byteCount - done, off_t(entry.offset + done))
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          failure = SavedIndexError(file: path, n == 0
            ? .truncated(part: "section \(layouts[index].tag)", needed: entry.offset + byteCount, actual: entry.offset + done)
            : .io(operation: "read", message: String(cString: strerror(errno))))
          return
        }
        done += n
      }
    }
    if let failure { throw failure }
    let clock = ContinuousClock(), started = clock.now
    let crc = array.withUnsafeBytes { CRC32C.checksum($0) }
    checksumTime += clock.now - started
    guard crc == entry.crc else {
      throw SavedIndexError(file: path, .checksumMismatch(section: layouts[index].tag.trimmingTrailingSpaces))
    }
    return array
  }

  /// Section `index` as a view of the mapped file when there is a mapping
  /// (the sections start at multiples of 64 bytes, so every element is
  /// aligned), otherwise read as ``read(_:as:)`` reads it; its checksum is
  /// checked either way.
  package mutating func mapped<T: BitwiseCopyable>(_ index: Int, as type: T.Type) throws(SavedIndexError) -> _FlatArray<T> {
    precondition(layouts[index].elementSize % MemoryLayout<T>.stride == 0)
    let entry = entries[index]
    let byteCount = entry.count * layouts[index].elementSize
    guard let mapping, let raw = mapping.view(entry.offset..<(entry.offset + byteCount)),
      Int(bitPattern: raw.baseAddress) % MemoryLayout<T>.alignment == 0
    else {
      return _FlatArray(try read(index, as: type))
    }
    let clock = ContinuousClock(), started = clock.now
    let crc = CRC32C.checksum(raw)
    checksumTime += clock.now - started
    guard crc == entry.crc else {
      throw SavedIndexError(file: path, .checksumMismatch(section: layouts[index].tag.trimmingTrailingSpaces))
    }
    let count = byteCount / MemoryLayout<T>.stride
    let view = UnsafeBufferPointer(start: raw.baseAddress.map { $0.bindMemory(to: T.self, capacity: count) }, count: count)
    return _FlatArray(mapped: view, in: mapping)
  }

  /// The points' external ids, by the index's id, from the optional last
  /// section (nil without it), its checksum checked and one id a point.
  /// Every opener reads them, so every byte of a file is checked.
  package mutating func readExternalIDs() throws(SavedIndexError) -> [UInt64]? {
    guard hasExternalIDs else { return nil }
    let ids = try read(layouts.count - 1, as: UInt64.self)
    guard ids.count == pointCount else {
      throw error(.structureInvalid("\(ids.count) external ids for \(pointCount) points"))
    }
    return ids
  }

  /// An error about this file.
  package func error(_ problem: SavedIndexError.Problem) -> SavedIndexError {
    SavedIndexError(file: path, problem)
  }

  /// Reads exactly `count` bytes at `offset`; fewer when the file ends.
  private static func bytes(fd: Int32, at offset: Int, count: Int) throws(SavedIndexError) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      done += n
    }
    return Array(out[0..<done])
  }

  /// Every check on the header, the table and the padding.
  private static func parse(
    fd: Int32, size: Int, path: String, kind expected: String?, layouts: [SavedSectionLayout]
  ) throws(SavedIndexError) -> (String, Int, [UInt32], [(offset: Int, count: Int, crc: UInt32)]) {
    func fail(_ problem: SavedIndexError.Problem) -> SavedIndexError { SavedIndexError(file: path, problem) }
    let head = try bytes(fd: fd, at: 0, count: SavedFormat.headerSize)
    func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
      (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) }
    }
    func u64(_ b: [UInt8], _ at: Int) -> UInt64 {
      (0..<8).reduce(0) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) }
    }
    // magic first: a foreign file is named as such, however short
    let magicSeen = head.prefix(SavedFormat.magic.count)
    guard magicSeen.elementsEqual(SavedFormat.magic.prefix(magicSeen.count)) else { throw fail(.badMagic) }
    guard head.count == SavedFormat.headerSize else {
      throw fail(.truncated(part: "header", needed: SavedFormat.headerSize, actual: size))
    }
    let mark = u32(head, 8)
    guard mark == SavedFormat.byteOrderMark else {
      throw fail(mark == SavedFormat.byteOrderMark.byteSwapped ? .byteOrder : .badMagic)
    }
    let version = u32(head, 12)
    guard version == SavedFormat.version else {
      throw fail(.unsupportedVersion(found: version, supported: SavedFormat.version))
    }
    let sectionCount = Int(u32(head, 56))
    guard sectionCount <= SavedFormat.maximumSections else {
      throw fail(.countOutOfRange(
        name: "section count", value: UInt64(sectionCount), limit: UInt64(SavedFormat.maximumSections)))
    }
    let tableEnd = SavedFormat.headerSize + SavedFormat.entrySize * sectionCount
    let table = try bytes(fd: fd, at: SavedFormat.headerSize, count: tableEnd - SavedFormat.headerSize)
    guard size >= tableEnd, table.count == tableEnd - SavedFormat.headerSize else {
      throw fail(.truncated(part: "section table", needed: tableEnd, actual: size))
    }
    var crc = CRC32C()
    head.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[0..<60])) }
    table.withUnsafeBytes { crc.update($0) }
    guard crc.value == u32(head, 60) else { throw fail(.checksumMismatch(section: "header")) }

    // the kind: ASCII letters, then zeros to the end of its field
    let kindField = head[16..<32]
    let nameEnd = kindField.firstIndex(of: 0) ?? 32
    if let stray = kindField[nameEnd...].firstIndex(where: { $0 != 0 }) { throw fail(.nonzeroPadding(offset: stray)) }
    guard head[16..<nameEnd].allSatisfy({ (0x21...0x7E).contains($0) }) else {
      throw fail(.structureInvalid("the kind is not an ASCII name"))
    }
    let kind = String(decoding: head[16..<nameEnd], as: UTF8.self)
    if let expected, kind != expected { throw fail(.foreignKind(found: kind, expected: expected)) }
    let pointCount = u64(head, 32)
    guard pointCount <= UInt64(Int32.max) else {
      throw fail(.countOutOfRange(name: "point count", value: pointCount, limit: UInt64(Int32.max)))
    }
    let parameters = (0..<4).map { u32(head, 40 + 4 * $0) }
    guard expected != nil else { return (kind, Int(pointCount), parameters, []) }

    // the kind's sections, then optionally the external ids
    guard sectionCount == layouts.count || sectionCount == layouts.count + 1 else {
      throw fail(.structureInvalid(
        "\(sectionCount) sections, a \(kind) has \(layouts.count) (\(layouts.count + 1) with external ids)"))
    }
    let layouts = sectionCount == layouts.count ? layouts : layouts + [SavedFormat.externalIDsLayout]
    var entries: [(offset: Int, count: Int, crc: UInt32)] = []
    var end = SavedFormat.aligned(tableEnd)
    var gaps: [Range<Int>] = [tableEnd..<end]
    for (k, layout) in layouts.enumerated() {
      let e = SavedFormat.entrySize * k
      let tag = u32(table, e)
      guard tag == layout.tagValue else {
        throw fail(.structureInvalid(
          "section \(k + 1) is \"\(SavedSectionLayout.tagName(tag))\", expected \"\(layout.tag)\""))
      }
      let name = layout.tag.trimmingTrailingSpaces
      guard u32(table, e + 4) == UInt32(layout.elementSize) else {
        throw fail(.structureInvalid("section \(name) has \(u32(table, e + 4))-byte elements, expected \(layout.elementSize)"))
      }
      guard u32(table, e + 28) == 0 else { throw fail(.nonzeroPadding(offset: SavedFormat.headerSize + e + 28)) }
      let offset = u64(table, e + 8)
      guard offset == UInt64(end) else {
        throw fail(.structureInvalid("section \(name) at offset \(offset), expected \(end)"))
      }
      // no count larger than the file could hold, so no size overflows
      let count = u64(table, e + 16)
      let limit = UInt64(max(0, size - end) / layout.elementSize)
      guard count <= limit else {
        throw fail(count <= UInt64(Int32.max) * 4
          ? .truncated(part: "section \(name)", needed: end + Int(count) * layout.elementSize, actual: size)
          : .countOutOfRange(name: "section \(name)'s count", value: count, limit: limit))
      }
      entries.append((end, Int(count), u32(table, e + 24)))
      let sectionEnd = end + Int(count) * layout.elementSize
      end = k == layouts.count - 1 ? sectionEnd : SavedFormat.aligned(sectionEnd)
      gaps.append(sectionEnd..<end)
    }
    guard size == end else {
      throw fail(size < end
        ? .truncated(part: "last section's padding", needed: end, actual: size)
        : .trailingBytes(expected: end, actual: size))
    }
    for gap in gaps where !gap.isEmpty {
      let padding = try bytes(fd: fd, at: gap.lowerBound, count: gap.count)
      if let k = padding.firstIndex(where: { $0 != 0 }) { throw fail(.nonzeroPadding(offset: gap.lowerBound + k)) }
    }
    return (kind, Int(pointCount), parameters, entries)
  }
}

extension String {
  /// The string without the spaces that pad a section tag.
  var trimmingTrailingSpaces: String {
    var s = Substring(self)
    while s.last == " " { s = s.dropLast() }
    return String(s)
  }
}
