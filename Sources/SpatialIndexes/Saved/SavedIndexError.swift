/// Why a saved index could not be written or opened. Thrown, never a crash:
/// opening reads nothing outside the file and trusts nothing in it.
public struct SavedIndexError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file's path, as the caller gave it.
  public var file: String
  /// What is wrong with it.
  public var problem: Problem

  /// What went wrong with a saved index file.
  public enum Problem: Equatable, Sendable {
    /// The file could not be opened, read or written (`errno`'s message).
    case io(operation: String, message: String)
    /// The file ends before a part it needs: `needed` bytes, `actual` there.
    case truncated(part: String, needed: Int, actual: Int)
    /// The first eight bytes are not a saved index's.
    case badMagic
    /// A format version this build does not read.
    case unsupportedVersion(found: UInt32, supported: UInt32)
    /// Written on a machine of the other byte order.
    case byteOrder
    /// The file holds another index than the one asked for.
    case foreignKind(found: String, expected: String)
    /// A section's (or the header's) bytes do not match their checksum.
    case checksumMismatch(section: String)
    /// A count or size beyond what the header or format allows.
    case countOutOfRange(name: String, value: UInt64, limit: UInt64)
    /// A padding or reserved byte that is not zero.
    case nonzeroPadding(offset: Int)
    /// Bytes past the last section.
    case trailingBytes(expected: Int, actual: Int)
    /// Checksums pass but the index's structure is not one a build makes
    /// (a hostile or hand-made file); the walk would be unsafe.
    case structureInvalid(String)
  }

  /// An error about `file`.
  public init(file: String, _ problem: Problem) {
    self.file = file
    self.problem = problem
  }

  /// The error as a sentence that names the file and what is wrong.
  public var description: String {
    let what: String
    switch problem {
    case let .io(operation, message): what = "cannot \(operation): \(message)"
    case let .truncated(part, needed, actual):
      what = "truncated: the \(part) needs \(needed) bytes, the file has \(actual)"
    case .badMagic: what = "not a saved index (bad magic number)"
    case let .unsupportedVersion(found, supported):
      what = "format version \(found), this build reads version \(supported)"
    case .byteOrder: what = "written in the other byte order"
    case let .foreignKind(found, expected): what = "holds a \(found) index, not a \(expected)"
    case let .checksumMismatch(section): what = "checksum mismatch in section \(section)"
    case let .countOutOfRange(name, value, limit): what = "\(name) \(value) out of range (at most \(limit))"
    case let .nonzeroPadding(offset): what = "padding or reserved byte at offset \(offset) is not zero"
    case let .trailingBytes(expected, actual):
      what = "\(actual - expected) bytes past the end of the last section (the file should be \(expected) bytes)"
    case let .structureInvalid(reason): what = "structure invalid: \(reason)"
    }
    return "\(file): \(what)"
  }
}
