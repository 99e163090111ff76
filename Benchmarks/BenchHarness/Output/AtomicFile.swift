#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing a whole file so that no one ever sees half of it.
///
/// The bytes go to a hidden temporary file in the target's own folder (same
/// file system, so the final step is atomic), are fsync'ed, and then take the
/// target's name in one step: rename(2) when an existing file may be replaced,
/// link(2) when it may not (link fails if the name is taken, so two processes
/// that race for a name never both "win"). A reader, or a crash, sees the old
/// file or the new one, never a mix. On any error the temporary file is removed
/// and the target is untouched; on SIGINT, SIGTERM or SIGHUP the stop handler
/// (``StopSignals``) removes it too.
public enum AtomicFile {
  /// What a write may do to a file that already has the target's name.
  public enum Existing: Sendable, Equatable {
    /// Replace it (only ever a regular file: see ``OutputCheck``).
    case replace
    /// Leave it: the write fails with ``ReportError/Kind/exists``.
    case keep
  }

  /// Writes `bytes` as the whole file at `path`; new files get `mode`.
  ///
  /// - Throws: `.exists` (73) for `.keep` when the name is taken;
  ///   `.cannotCreate` (73) when the folder refuses a new file; `.ioError`
  ///   (74) when a write fails part-way.
  public static func write(
    _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, existing: Existing = .replace
  ) throws(ReportError) {
    try _write(bytes, to: path, mode: mode, existing: existing, beforeCommit: {})
  }

  /// ``write(_:to:mode:existing:)`` with a hook run once the temporary file
  /// is complete, before it takes the target's name: `export` writes its
  /// next file there (all or none), tests throw from it.
  package static func _write(
    _ bytes: [UInt8], to path: String, mode: mode_t, existing: Existing,
    beforeCommit: () throws(ReportError) -> Void
  ) throws(ReportError) {
    guard !path.isEmpty, !path.hasSuffix("/") else {
      throw ReportError(.cannotCreate, path: path, detail: "not a file name")
    }
    let (folder, name) = FilePath.split(path)
    // A hidden name, so `*.csv` globs never pick up a half-written file.
    var template = Array("\(folder)/.\(name).tmp-XXXXXX".utf8CString)
    var slot: Int? = nil
    let fd = StopSignals.holdingStops {
      template.withUnsafeMutableBufferPointer { buffer in
        let fd = mkstemp(buffer.baseAddress!)
        if fd >= 0 { slot = StopSignals.pending(buffer.baseAddress!) }
        return fd
      }
    }
    guard fd >= 0 else {
      throw ReportError(.cannotCreate, path: path, detail: FilePath.lastError())
    }
    let temporary = String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var committed = false
    defer {
      if !committed { unlink(temporary) }
      StopSignals.finished(slot)
    }

    var failure: String? = nil
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = FilePath.lastError()
          return
        }
        offset += written
      }
    }
    if failure == nil, fchmod(fd, mode) != 0 { failure = FilePath.lastError() }
    if failure == nil, fsync(fd) != 0 { failure = FilePath.lastError() }
    if close(fd) != 0, failure == nil { failure = FilePath.lastError() }
    if let failure { throw ReportError(.ioError, path: path, detail: failure) }

    try beforeCommit()
    switch existing {
    case .replace:
      guard rename(temporary, path) == 0 else { throw commitError(path) }
    case .keep:
      guard link(temporary, path) == 0 else {
        if errno == EEXIST {
          if case .success(let info) = FilePath.lstatInfo(path), info.st_mode & S_IFMT == S_IFDIR {
            throw ReportError(.cannotCreate, path: path, detail: "is a folder")
          }
          throw ReportError(.exists, path: path, detail: "already exists")
        }
        throw commitError(path)
      }
      unlink(temporary)
    }
    committed = true
    syncFolder(folder)
  }

  /// The error of a failed rename or link.
  private static func commitError(_ path: String) -> ReportError {
    let code = errno
    let kind: ReportError.Kind = code == EIO || code == ENOSPC ? .ioError : .cannotCreate
    return ReportError(kind, path: path, detail: FilePath.lastError(code))
  }

  /// Makes the new name durable; best effort (some file systems refuse).
  private static func syncFolder(_ folder: String) {
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
