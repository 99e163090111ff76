/// The layout of a saved index file (docs/formats.md, "Saved index"): a
/// 64-byte header, a table of 32-byte section entries, then the sections,
/// each starting at a multiple of 64 bytes, zeros between them, nothing
/// after the last. Every number is little-endian. The layout follows from
/// the header and the counts alone, so every byte is either under a
/// checksum (the header and table under the header's, each section under
/// its own) or padding that must be zero.
///
/// Header:
///
///     0   8  magic            89 53 42 49 0D 0A 1A 0A  ("\x89SBI\r\n\x1A\n")
///     8   4  byte order       0x01020304 (bytes 04 03 02 01)
///     12  4  format version   1
///     16  16 kind             ASCII, NUL-padded: "kdtree", "rtree", "celltree"
///     32  8  point count
///     40  16 parameters       four UInt32, by kind; unused ones zero
///     56  4  section count
///     60  4  header CRC32C    of bytes 0..<60, then the section table
///
/// Section entry:
///
///     0   4  tag              four ASCII letters, e.g. "XY  "
///     4   4  element size     bytes an element
///     8   8  offset           from the start of the file
///     16  8  element count
///     24  4  CRC32C           of the section's bytes
///     28  4  reserved         zero
///
/// The magic number's first byte is not ASCII and its line endings catch a
/// file mangled as text, as PNG's do.
package enum SavedFormat {
  /// The eight bytes every saved index starts with.
  static let magic: [UInt8] = [0x89, 0x53, 0x42, 0x49, 0x0D, 0x0A, 0x1A, 0x0A]
  /// The byte-order mark, written as the machine stores it.
  static let byteOrderMark: UInt32 = 0x0102_0304
  /// The version this build writes and reads.
  package static let version: UInt32 = 1
  /// Bytes in the header.
  static let headerSize = 64
  /// Bytes in one section entry.
  static let entrySize = 32
  /// Where sections start: a multiple of this, so a mapped file's arrays
  /// are aligned for any element type and any cache line.
  static let alignment = 64
  /// Most sections a file may have.
  static let maximumSections = 16
  /// Bytes of the kind's name.
  static let kindSize = 16

  /// The optional last section any kind may end with: the points' ids as
  /// the data named them (`UInt64`, by the index's id), when they were not
  /// the positions 0..<n. The index never reads them; the bench answers
  /// with them.
  static let externalIDsLayout = SavedSectionLayout("EXID", elementSize: 8)

  /// `offset` rounded up to ``alignment``.
  static func aligned(_ offset: Int) -> Int { (offset + alignment - 1) / alignment * alignment }
}

/// One section a kind of index expects: its tag and its element size.
package struct SavedSectionLayout: Sendable, Equatable {
  /// Four ASCII letters naming the section (spaces pad a shorter name).
  package var tag: String
  /// Bytes an element.
  package var elementSize: Int

  /// A section named `tag` of `elementSize`-byte elements.
  package init(_ tag: String, elementSize: Int) {
    precondition(tag.utf8.count == 4, "a section tag is four ASCII letters")
    self.tag = tag
    self.elementSize = elementSize
  }

  /// The tag as the file stores it (first letter in the lowest byte).
  var tagValue: UInt32 {
    tag.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// The tag a stored value names, for messages (non-letters as `?`).
  static func tagName(_ value: UInt32) -> String {
    String(decoding: (0..<4).map { k -> UInt8 in
      let b = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k)))
      return (0x20...0x7E).contains(b) ? b : UInt8(ascii: "?")
    }, as: UTF8.self)
  }
}

/// A section's contents, one array, written as it is in memory.
package enum SavedSectionData {
  case doubles([Double])
  case int32s([Int32])
  case uint32s([UInt32])
  case uint64s([UInt64])
  case bytes([UInt8])

  /// Calls `body` with the array's bytes.
  func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
    switch self {
    case .doubles(let a): a.withUnsafeBytes(body)
    case .int32s(let a): a.withUnsafeBytes(body)
    case .uint32s(let a): a.withUnsafeBytes(body)
    case .uint64s(let a): a.withUnsafeBytes(body)
    case .bytes(let a): a.withUnsafeBytes(body)
    }
  }

  /// Bytes in the section.
  var byteCount: Int {
    switch self {
    case .doubles(let a): a.count * 8
    case .int32s(let a): a.count * 4
    case .uint32s(let a): a.count * 4
    case .uint64s(let a): a.count * 8
    case .bytes(let a): a.count
    }
  }
}
