#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small path facts the output checks share, with the C library only
/// (Foundation's `NSString` path methods trapped on a one-letter name).
enum FilePath {
  /// (folder, file name) of `path`; the folder is "." for a bare name and
  /// "/" for a file at the root.
  static func split(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let folder = String(path[..<slash])
    return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
  }

  /// What lstat(2) says of `path`, or the errno.
  static func lstatInfo(_ path: String) -> Result<stat, Errno> {
    var info = stat()
    return lstat(path, &info) == 0 ? .success(info) : .failure(Errno(errno))
  }

  /// What stat(2) says of `path` (links followed), or the errno.
  static func statInfo(_ path: String) -> Result<stat, Errno> {
    var info = stat()
    return stat(path, &info) == 0 ? .success(info) : .failure(Errno(errno))
  }

  /// The absolute path with every link resolved, for an existing path.
  static func resolved(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }

  /// The kind of a file type in words, for messages.
  static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a folder"
    case S_IFLNK: "a symbolic link"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }

  static func lastError(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
  }
}

/// An errno value as an `Error`.
struct Errno: Error, Equatable {
  var code: Int32
  init(_ code: Int32) { self.code = code }
  var text: String { FilePath.lastError(code) }
}
