#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one saved index (``SavedFormat``): the header, the section table,
/// the sections, through a temporary file beside `path` renamed over it
/// once complete and flushed, so no reader ever sees half a file.
package struct SavedFileWriter {
  /// The kind's name, at most 16 ASCII bytes.
  package var kind: String
  /// Points the index holds.
  package var pointCount: Int
  /// The kind's parameters, at most four.
  package var parameters: [UInt32]
  /// The sections in file order, each with its layout and contents.
  package var sections: [(layout: SavedSectionLayout, data: SavedSectionData)]

  /// A file of `kind` holding `pointCount` points.
  package init(
    kind: String, pointCount: Int, parameters: [UInt32],
    sections: [(layout: SavedSectionLayout, data: SavedSectionData)]
  ) {
    precondition(kind.utf8.count <= SavedFormat.kindSize && parameters.count <= 4
      && sections.count <= SavedFormat.maximumSections)
    self.kind = kind
    self.pointCount = pointCount
    self.parameters = parameters
    self.sections = sections
  }

  /// The same file with the points' external ids (by the index's id) as
  /// its last section, `EXID`.
  package func addingExternalIDs(_ ids: [UInt64]) -> SavedFileWriter {
    precondition(ids.count == pointCount && sections.count < SavedFormat.maximumSections)
    var file = self
    file.sections.append((SavedFormat.externalIDsLayout, .uint64s(ids)))
    return file
  }

  /// The header and section table, checksums filled in, and each section's
  /// offset.
  func headerBytes() -> (bytes: [UInt8], offsets: [Int]) {
    var bytes = [UInt8](repeating: 0, count: SavedFormat.headerSize + SavedFormat.entrySize * sections.count)
    func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
      withUnsafeBytes(of: value.littleEndian) { v in
        for (k, b) in v.enumerated() { bytes[offset + k] = b }
      }
    }
    for (k, b) in SavedFormat.magic.enumerated() { bytes[k] = b }
    put(SavedFormat.byteOrderMark, at: 8)
    put(SavedFormat.version, at: 12)
    for (k, b) in kind.utf8.enumerated() { bytes[16 + k] = b }
    put(UInt64(pointCount), at: 32)
    for (k, p) in parameters.enumerated() { put(p, at: 40 + 4 * k) }
    put(UInt32(sections.count), at: 56)
    var offset = SavedFormat.aligned(bytes.count)
    var offsets: [Int] = []
    for (k, s) in sections.enumerated() {
      let e = SavedFormat.headerSize + SavedFormat.entrySize * k
      let crc = s.data.withBytes { CRC32C.checksum($0) }
      put(s.layout.tagValue, at: e)
      put(UInt32(s.layout.elementSize), at: e + 4)
      put(UInt64(offset), at: e + 8)
      put(UInt64(s.data.byteCount / s.layout.elementSize), at: e + 16)
      put(crc, at: e + 24)
      offsets.append(offset)
      offset = SavedFormat.aligned(offset + s.data.byteCount)
    }
    var crc = CRC32C()
    bytes.withUnsafeBytes { b in
      crc.update(UnsafeRawBufferPointer(rebasing: b[0..<60]))
      crc.update(UnsafeRawBufferPointer(rebasing: b[64...]))
    }
    put(crc.value, at: 60)
    return (bytes, offsets)
  }

  /// The whole file in memory, for a caller with its own way of writing
  /// files (the bench's, which never replaces one).
  package func bytes() -> [UInt8] {
    var (out, offsets) = headerBytes()
    for (k, s) in sections.enumerated() {
      out += [UInt8](repeating: 0, count: offsets[k] - out.count)
      s.data.withBytes { out += $0 }
    }
    return out
  }

  /// Writes the file at `path`, replacing any file there only once the new
  /// one is complete.
  package func write(to path: String) throws(SavedIndexError) {
    let (header, offsets) = headerBytes()
    var template = Array((path + ".partial-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw error("create a file beside it", path) }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var position = 0
    /// Writes `bytes` whole; false, `errno` set, when the system refuses.
    func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
      var written = 0
      while written < bytes.count {
        let n = _systemWrite(fd, bytes.baseAddress! + written, bytes.count - written)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        written += n
      }
      position += bytes.count
      return true
    }
    let zeros = [UInt8](repeating: 0, count: SavedFormat.alignment)
    var complete = header.withUnsafeBytes(writeAll)
    for (k, s) in sections.enumerated() where complete {
      complete = zeros.withUnsafeBytes { writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<(offsets[k] - position)])) }
        && s.data.withBytes { $0.isEmpty || writeAll($0) }
    }
    let failed = complete ? (fsync(fd) == 0 ? nil : "flush") : "write"
    let failure = failed.map { error($0, path) }
    close(fd)
    if let failure {
      unlink(temporary)
      throw failure
    }
    guard rename(temporary, path) == 0 else {
      let failure = error("rename the finished file into place", path)
      unlink(temporary)
      throw failure
    }
  }

  /// The error of the failed system call `operation`.
  private func error(_ operation: String, _ path: String) -> SavedIndexError {
    SavedIndexError(file: path, .io(operation: operation, message: String(cString: strerror(errno))))
  }
}

/// The system's `write`, under a name a method called `write` cannot hide.
private func _systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}
