import BenchFormats
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing report files without ever leaving a half-written one.
///
/// Every write goes through `writeAtomically`: the bytes go to a temporary
/// file in the target's own folder (same file system, so the final rename(2)
/// is atomic), are fsync'ed, and the temporary file is renamed over the target.
/// A reader — or a crash — sees the old file or the new one, never a mix. On
/// any error the temporary file is removed and the target is untouched.
public enum ReportFile {
  /// Writes `rows` as a complete report at `path`, replacing any file there.
  ///
  /// - Throws: `.cannotCreate` (exit 73) when the folder is missing or
  ///   read-only, a path component is a regular file, or `path` is a
  ///   directory; `.ioError` (exit 74) when writing fails part-way.
  public static func write(_ rows: [ReportRow], to path: String) throws(ReportError) {
    try writeAtomically(Array(ReportSchema.render(rows).utf8), to: path)
  }

  /// Adds `rows` to the report at `path`, or writes a new report if there is
  /// no file there.
  ///
  /// The existing file's first line must equal `ReportSchema.headerLine`
  /// byte for byte, else `.badData` (exit 65: the file is fine, but it is a
  /// different kind of report — mixing schemas would misalign columns) and the
  /// file is untouched.
  ///
  /// The old bytes are copied verbatim (never re-parsed and re-written), the
  /// new lines added after them, and the whole goes through `writeAtomically`.
  /// Appending in place with `O_APPEND` would be cheaper, but a crash or a full
  /// disk mid-write would leave a torn last line in the old file; here the old
  /// file stays intact until the rename. The file's permission bits are kept.
  /// (A crash between creating and renaming the temporary file can leave a
  /// hidden `.<name>.tmp-XXXXXX` beside it; the report itself is never torn.)
  ///
  /// - Throws: `.badData` (65) for a differing or missing header;
  ///   `.cannotCreate` (73) as for `write`, or when `path` is not a regular file.
  ///
  /// - Complexity: O(size of the existing file + new rows).
  public static func append(_ rows: [ReportRow], to path: String) throws(ReportError) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return try write(rows, to: path) }
      throw ReportError(.cannotCreate, path: path, detail: lastError())
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw ReportError(.cannotCreate, path: path, detail: "not a regular file")
    }
    var bytes = try readBytes(path)
    let header = Array(ReportSchema.headerLine.utf8)
    guard headerLine(of: bytes) == header.dropLast() else {
      let found = String(decoding: headerLine(of: bytes).prefix(200), as: UTF8.self)
      throw ReportError(
        .badData, path: path,
        detail: "its header differs from this version's report columns; refusing to append"
          + " (found: \(found.isEmpty ? "nothing" : found))")
    }
    if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    for row in rows { bytes += CSVWriter.line(row.csvFields).utf8 }
    try writeAtomically(bytes, to: path, mode: mode_t(info.st_mode) & 0o7777)
  }

  /// The rows of the report at `path`.
  ///
  /// - Throws: `.noInput` (66) when it is missing or unreadable, `.badData`
  ///   (65) when it is not a valid report (see `ReportSchema.parse`).
  public static func read(_ path: String) throws(ReportError) -> [ReportRow] {
    try ReportSchema.parse(try readBytes(path), path: path)
  }

  /// A path in `directory` that does not exist yet:
  /// `<directory>/<yyyy-mm-dd>-<gitCommit>-<suite>.csv`, or with `-2`, `-3`, …
  /// before `.csv` when taken. The date is UTC. Characters other than
  /// letters, digits, `.`, `_` and `-` in `gitCommit` and `suite` become `-`.
  ///
  /// Does not create `directory` (the caller does, e.g. with `mkdir -p`).
  /// Another process can still take the name before the report is written.
  public static func defaultPath(
    suite: String, gitCommit: String, date: Date = Date(), directory: String = "results"
  ) -> String {
    let day = RunMetadata.iso8601(date).prefix(10)
    let stem = "\(day)-\(safeName(gitCommit))-\(safeName(suite))"
    let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    var candidate = "\(folder)/\(stem).csv"
    var suffix = 2
    while exists(candidate) {
      candidate = "\(folder)/\(stem)-\(suffix).csv"
      suffix += 1
    }
    return candidate
  }

  /// Writes `bytes` to `path` through a temporary file in the same folder and
  /// rename(2); see the type's notes. New files get `mode` (default 0644).
  public static func writeAtomically(
    _ bytes: [UInt8], to path: String, mode: mode_t = 0o644
  ) throws(ReportError) {
    try _writeAtomically(bytes, to: path, mode: mode, beforeRename: {})
  }

  /// `writeAtomically` with a hook run after the temporary file is complete
  /// and before the rename; tests throw from it to simulate a failure there.
  package static func _writeAtomically(
    _ bytes: [UInt8], to path: String, mode: mode_t,
    beforeRename: () throws(ReportError) -> Void
  ) throws(ReportError) {
    guard !path.isEmpty, !path.hasSuffix("/") else {
      throw ReportError(.cannotCreate, path: path, detail: "not a file name")
    }
    let (folder, name) = split(path)
    // A hidden name, so `*.csv` globs never pick up a half-written report.
    var template = Array("\(folder)/.\(name).tmp-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      throw ReportError(.cannotCreate, path: path, detail: lastError())
    }
    let temporary = String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var renamed = false
    defer { if !renamed { unlink(temporary) } }

    var failure: String? = nil
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = lastError()
          return
        }
        offset += written
      }
    }
    if failure == nil, fchmod(fd, mode) != 0 { failure = lastError() }
    if failure == nil, fsync(fd) != 0 { failure = lastError() }
    if close(fd) != 0, failure == nil { failure = lastError() }
    if let failure { throw ReportError(.ioError, path: path, detail: failure) }

    try beforeRename()
    guard rename(temporary, path) == 0 else {
      let code = errno
      let kind: ReportError.Kind = code == EIO || code == ENOSPC ? .ioError : .cannotCreate
      throw ReportError(kind, path: path, detail: lastError(code))
    }
    renamed = true
    syncFolder(folder)
  }

  // MARK: - Helpers

  /// All bytes of the file at `path`.
  static func readBytes(_ path: String) throws(ReportError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ReportError(.noInput, path: path, detail: lastError()) }
    defer { close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        let code = errno
        let kind: ReportError.Kind = code == EISDIR ? .noInput : .ioError
        throw ReportError(kind, path: path, detail: lastError(code))
      }
      if count == 0 { return result }
      result += chunk[..<count]
    }
  }

  /// The first line of `bytes`, without its LF or CRLF.
  private static func headerLine(of bytes: [UInt8]) -> ArraySlice<UInt8> {
    var line = bytes[...]
    if let end = bytes.firstIndex(of: UInt8(ascii: "\n")) { line = bytes[..<end] }
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    return line
  }

  /// (folder, file name) of `path`; the folder is "." for a bare name.
  private static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let folder = String(path[..<slash])
    return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
  }

  /// Makes the rename durable; best effort (some file systems refuse).
  private static func syncFolder(_ folder: String) {
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  private static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  private static func safeName(_ text: String) -> String {
    let cleaned = String(
      text.unicodeScalars.map { c -> Character in
        let ok = c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c))
        return ok || c == "." || c == "_" || c == "-" ? Character(c) : "-"
      })
    return cleaned.isEmpty ? "unknown" : cleaned
  }

  private static func lastError(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
  }
}

// The module-qualified names, because inside `ReportFile` `read` and `write`
// name its own static methods.
#if canImport(Glibc)
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif
