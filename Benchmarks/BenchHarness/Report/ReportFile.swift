import BenchFormats
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing report files without ever leaving a half-written one
/// or replacing an earlier one: every write goes through ``AtomicFile``.
public enum ReportFile {
  /// Writes `rows` as a new report at `path`.
  ///
  /// - Throws: `.exists` (exit 73) when a file has that name: a report is
  ///   never replaced; `.cannotCreate` (73) when the folder is missing or
  ///   read-only, a path component is a regular file, or `path` is a
  ///   directory; `.ioError` (exit 74) when writing fails part-way.
  public static func write(_ rows: [ReportRow], to path: String) throws(ReportError) {
    try AtomicFile.write(Array(ReportSchema.render(rows).utf8), to: path, existing: .keep)
  }

  /// Writes `rows` as a new report named after the day, the commit and the
  /// suite in `directory` (see ``defaultPath(suite:gitCommit:date:directory:)``),
  /// taking the next free `-2`, `-3`… when the name is taken, also by a run
  /// that finished in the meantime: each name is claimed with link(2), so two
  /// runs started together never write one report. Returns the path written.
  public static func writeNew(
    _ rows: [ReportRow], suite: String, gitCommit: String, date: Date = Date(),
    directory: String = "results"
  ) throws(ReportError) -> String {
    let bytes = Array(ReportSchema.render(rows).utf8)
    var suffix = 1
    while true {
      let path = candidate(suite: suite, gitCommit: gitCommit, date: date, directory: directory, suffix: suffix)
      do {
        try AtomicFile.write(bytes, to: path, existing: .keep)
        return path
      } catch where error.kind == .exists {
        suffix += 1
      }
    }
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
  /// Appends take turns: the folder is locked (``FolderLock``) from the read
  /// to the rename, so eight runs appending at once add all their rows.
  ///
  /// - Throws: `.badData` (65) for a differing or missing header;
  ///   `.cannotCreate` (73) as for `write`, or when `path` is not a regular file.
  ///
  /// - Complexity: O(size of the existing file + new rows).
  public static func append(_ rows: [ReportRow], to path: String) throws(ReportError) {
    try FolderLock.withLock(onFolderOf: path) { () throws(ReportError) in try appendLocked(rows, to: path) }
  }

  private static func appendLocked(_ rows: [ReportRow], to path: String) throws(ReportError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
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
    try AtomicFile.write(bytes, to: path, mode: mode_t(info.st_mode) & 0o7777)
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
  /// Another process can take the name before it is written: ``writeNew``
  /// claims it.
  public static func defaultPath(
    suite: String, gitCommit: String, date: Date = Date(), directory: String = "results"
  ) -> String {
    var suffix = 1
    while true {
      let path = candidate(suite: suite, gitCommit: gitCommit, date: date, directory: directory, suffix: suffix)
      if case .failure = FilePath.lstatInfo(path) { return path }
      suffix += 1
    }
  }

  /// The default name with its `-suffix` (none for 1).
  private static func candidate(
    suite: String, gitCommit: String, date: Date, directory: String, suffix: Int
  ) -> String {
    let day = RunMetadata.iso8601(date).prefix(10)
    let stem = "\(day)-\(safeName(gitCommit))-\(safeName(suite))"
    let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    return suffix == 1 ? "\(folder)/\(stem).csv" : "\(folder)/\(stem)-\(suffix).csv"
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

  private static func safeName(_ text: String) -> String {
    let cleaned = String(
      text.unicodeScalars.map { c -> Character in
        let ok = c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c))
        return ok || c == "." || c == "_" || c == "-" ? Character(c) : "-"
      })
    return cleaned.isEmpty ? "unknown" : cleaned
  }

  private static func lastError(_ code: Int32 = errno) -> String { FilePath.lastError(code) }
}

// The module-qualified names, because inside `ReportFile` `read` and `write`
// name its own static methods.
#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif
