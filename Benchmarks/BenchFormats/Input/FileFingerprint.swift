#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells one points file's bytes from another's without reading them
/// all: the size, and a 64-bit hash of every byte of a file up to 2 MiB,
/// else of its first and its last MiB. Reports record it beside the file's
/// path, so `bench report` and `bench compare` can tell when rows and data
/// differ (another file under the name, or the file changed since).
///
/// It guards against accidents, not adversaries: the hash is not
/// cryptographic, and an edit that keeps the size and touches only the
/// middle of a file over 2 MiB goes unseen. It costs at most 2 MiB of
/// reading, whatever the file's size.
///
/// Spelled `size:hash`, the hash in 16 hex digits: `81234:9f3c0a5e12b4d6f8`.
public struct FileFingerprint: Hashable, Sendable, CustomStringConvertible {
  /// Bytes in the file.
  public var size: UInt64
  public var hash: UInt64

  /// Bytes hashed at each end of a larger file.
  public static let endBytes = 1 << 20

  public init(size: UInt64, hash: UInt64) {
    self.size = size
    self.hash = hash
  }

  public var description: String {
    let hex = String(hash, radix: 16)
    return "\(size):" + String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// The fingerprint `text` spells (``description``), `nil` for other text.
  public init?(_ text: some StringProtocol) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[1].utf8.count == 16, !parts[0].isEmpty,
          parts[0].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
          let size = UInt64(parts[0]), let hash = UInt64(parts[1], radix: 16)
    else { return nil }
    self.init(size: size, hash: hash)
  }

  /// The fingerprint of `bytes`, a whole file's.
  public init(of bytes: some Collection<UInt8>) {
    let size = bytes.count
    if size <= 2 * Self.endBytes {
      self.init(size: UInt64(size), hash: Self.hash(bytes, size: UInt64(size)))
    } else {
      let ends = Array(bytes.prefix(Self.endBytes)) + Array(bytes.suffix(Self.endBytes))
      self.init(size: UInt64(size), hash: Self.hash(ends, size: UInt64(size)))
    }
  }

  /// The fingerprint of the regular file at `path`; `nil` for anything
  /// else (a pipe, a device), whose bytes cannot be read twice: it is then
  /// not opened (a FIFO opened and closed here would lose its writer).
  ///
  /// - Throws: ``DataError/unreadable(file:reason:)`` when it cannot be read.
  public static func of(file path: String) throws(DataError) -> FileFingerprint? {
    var info = stat()
    guard stat(path, &info) == 0 else { throw .unreadable(file: path, reason: _reason(errno: errno)) }
    guard info.st_mode & S_IFMT == S_IFREG else { return nil }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .unreadable(file: path, reason: _reason(errno: errno)) }
    defer { close(fd) }
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    let size = Int(max(info.st_size, 0))
    let ranges = size <= 2 * endBytes ? [(0, size)] : [(0, endBytes), (size - endBytes, endBytes)]
    var bytes: [UInt8] = []
    bytes.reserveCapacity(ranges.reduce(0) { $0 + $1.1 })
    for (offset, count) in ranges {
      let chunk = try readExactly(fd, offset: offset, count: count, path: path)
      bytes += chunk
    }
    return FileFingerprint(size: UInt64(size), hash: hash(bytes, size: UInt64(size)))
  }

  /// `count` bytes at `offset`, fewer only where the file ended meanwhile.
  private static func readExactly(_ fd: Int32, offset: Int, count: Int, path: String) throws(DataError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let r = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
      if r < 0 && errno == EINTR { continue }
      if r < 0 { throw .unreadable(file: path, reason: _reason(errno: errno)) }
      if r == 0 { break }
      filled += r
    }
    return Array(buffer[..<filled])
  }

  /// The bytes eight at a time (little-endian, the last word padded with
  /// zeros), each word spread by SplitMix64's finaliser and folded in with a
  /// multiply and a rotation; the size and the count seed and end it.
  static func hash(_ bytes: some Collection<UInt8>, size: UInt64) -> UInt64 {
    var h = mix(size ^ 0x5350_4154_4941_4c42)  // "SPATIALB"
    var word: UInt64 = 0
    var shift: UInt64 = 0
    var count: UInt64 = 0
    for byte in bytes {
      word |= UInt64(byte) << shift
      shift += 8
      count += 1
      if shift == 64 {
        h = ((h ^ mix(word)) &* 0x9E37_79B9_7F4A_7C15).rotatedLeft(by: 27)
        word = 0
        shift = 0
      }
    }
    if shift > 0 { h = ((h ^ mix(word)) &* 0x9E37_79B9_7F4A_7C15).rotatedLeft(by: 27) }
    return mix(h ^ count)
  }

  @inline(__always)
  static func mix(_ x: UInt64) -> UInt64 {
    var z = x
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension UInt64 {
  @inline(__always)
  fileprivate func rotatedLeft(by n: UInt64) -> UInt64 { (self << n) | (self >> (64 - n)) }
}
