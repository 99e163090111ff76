#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive flock(2) on a file's folder while a read-modify-write of the
/// file runs, so concurrent `--append`s take turns instead of each renaming
/// its own copy over the other's rows.
///
/// The folder, not the file, is locked: the write replaces the file (a new
/// inode), so a lock on the old file would not stop a second writer that
/// opened the new one. Advisory: it orders bench processes, not other tools.
enum FolderLock {
  static func withLock<T>(
    onFolderOf path: String, _ body: () throws(ReportError) -> T
  ) throws(ReportError) -> T {
    let folder = FilePath.split(path).folder
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else {
      throw ReportError(.cannotCreate, path: path, detail: "cannot open folder \(folder): \(FilePath.lastError())")
    }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw ReportError(.cannotCreate, path: path, detail: "cannot lock folder \(folder): \(FilePath.lastError())")
      }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }
}
