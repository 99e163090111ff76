#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file into memory with `open`/`fstat`/`read`, turning
/// `errno` into a ``DataError/unreadable(file:reason:)`` whose reason a
/// person can act on.
///
/// Plain POSIX calls keep the CSV readers free of Foundation, so the fuzz
/// target builds from this folder and the geometry files alone.
///
/// - Complexity: O(*n*) in the file size.
func _readWholeFile(_ path: String) throws(DataError) -> [UInt8] {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  if fd < 0 { throw .unreadable(file: path, reason: _reason(errno: errno)) }
  defer { close(fd) }
  var info = stat()
  if fstat(fd, &info) != 0 { throw .unreadable(file: path, reason: _reason(errno: errno)) }
  if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(file: path, reason: _reason(errno: EISDIR)) }

  var bytes: [UInt8] = []
  // The size is a hint only: a file may grow or shrink while it is read, and
  // pipes or /proc files report 0. Reads go through a 64 KiB block appended
  // with one copy each (zero-filling the array first was slow in debug builds).
  bytes.reserveCapacity(max(Int(info.st_size), 0) + 1)
  var failure: Int32 = 0
  withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 16) { block in
    while true {
      let r = read(fd, block.baseAddress!, block.count)
      if r < 0 && errno == EINTR { continue }
      if r < 0 { failure = errno; return }
      if r == 0 { return }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: block[..<r]))
    }
  }
  if failure != 0 { throw .unreadable(file: path, reason: _reason(errno: failure)) }
  return bytes
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
