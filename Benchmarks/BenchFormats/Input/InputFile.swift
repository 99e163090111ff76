#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a streaming reader gets its bytes: a file, or a buffer held in
/// memory. Each call fills a part of `buffer` and says how much; 0 is the end.
public protocol ByteSource {
  mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int
}

/// An input opened with `open`/`fstat`/`read`, `errno` turned into a
/// ``DataError/unreadable(file:reason:)`` whose reason a person can act on.
///
/// A regular file is read to its end. Anything else (a pipe, a FIFO, a
/// device such as `/dev/zero`) may never end, so it is read up to
/// ``nonRegularLimit`` bytes and refused beyond: no input is read until
/// memory runs out. Plain POSIX calls keep the readers free of Foundation.
public final class InputFile: ByteSource {
  /// The most bytes read from an input that is not a regular file: 1 GiB.
  public static let nonRegularLimit = 1 << 30

  /// The path as given, for messages.
  public let path: String
  let fd: Int32
  /// A regular file: its size is known and it ends.
  public let isRegular: Bool
  /// The size `fstat` reports (a hint: a file may grow or shrink).
  public let sizeHint: Int
  private var readSoFar = 0

  public init(_ path: String) throws(DataError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 { throw .unreadable(file: path, reason: _reason(errno: errno)) }
    var info = stat()
    if fstat(fd, &info) != 0 {
      let code = errno
      close(fd)
      throw .unreadable(file: path, reason: _reason(errno: code))
    }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw .unreadable(file: path, reason: _reason(errno: EISDIR))
    }
    self.path = path
    self.fd = fd
    isRegular = (info.st_mode & S_IFMT) == S_IFREG
    sizeHint = isRegular ? max(Int(info.st_size), 0) : 0
  }

  deinit { close(fd) }

  public func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int {
    while true {
      let r = systemRead(fd, buffer.baseAddress!, buffer.count)
      if r < 0 && errno == EINTR { continue }
      if r < 0 { throw .unreadable(file: path, reason: _reason(errno: errno)) }
      readSoFar += r
      if !isRegular && readSoFar > Self.nonRegularLimit {
        throw .unreadable(
          file: path,
          reason: "not a regular file, and more than \(Self.nonRegularLimit >> 20) MiB long: refused")
      }
      return r
    }
  }

  /// Every byte to the end.
  ///
  /// - Complexity: O(*n*) in the file size.
  public func readAll() throws(DataError) -> [UInt8] {
    var bytes: [UInt8] = []
    // Reads go through a 64 KiB block appended with one copy each (zero-filling
    // the array first was slow in debug builds); the size is a hint only.
    bytes.reserveCapacity(sizeHint + 1)
    var failure: DataError? = nil
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 16) { block in
      do throws(DataError) {
        while true {
          let r = try read(into: block)
          if r == 0 { return }
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: block[..<r]))
        }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return bytes
  }
}

/// The bytes of the file at `path`, read whole (see ``InputFile``).
func _readWholeFile(_ path: String) throws(DataError) -> [UInt8] {
  try InputFile(path).readAll()
}

/// A short reason for an `errno` value, in words rather than a code.
func _reason(errno code: Int32) -> String {
  switch code {
  case ENOENT: return "no such file"
  case EACCES, EPERM: return "permission denied"
  case EISDIR: return "is a directory, not a file"
  case ENOTDIR: return "a component of the path is not a directory"
  case ELOOP: return "too many levels of symbolic links"
  case ENAMETOOLONG: return "file name too long"
  case EMFILE, ENFILE: return "too many open files"
  default:
    if let text = strerror(code) { return "cannot read: \(String(cString: text)) (errno \(code))" }
    return "cannot read (errno \(code))"
  }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif
