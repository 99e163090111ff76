import BenchFormats
/// Why a report could not be written or read, with the process exit code the
/// `bench` command should return (BSD `sysexits.h` values, so scripts can tell
/// "fix your path" from "fix your file").
public struct ReportError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// The output file cannot be created: missing or read-only folder, a path
    /// through a regular file, a directory in the way. Exit 73 (`EX_CANTCREAT`).
    case cannotCreate
    /// The file is not a report we can use: malformed CSV, missing columns, a
    /// header that differs from ours on `--append`. Exit 65 (`EX_DATAERR`).
    case badData
    /// An input report does not exist or cannot be read. Exit 66 (`EX_NOINPUT`).
    case noInput
    /// A read or write failed part-way (disk full, I/O error, a closed
    /// standard output). Exit 74 (`EX_IOERR`).
    case ioError
    /// The output names a file that exists and must not be replaced (a
    /// report without `--append`). Exit 73 (`EX_CANTCREAT`).
    case exists
    /// Two files of one command are the same file: an output is one of its
    /// inputs, or two outputs coincide. Exit 64 (`EX_USAGE`).
    case conflict
  }

  public var kind: Kind
  /// The file the error is about.
  public var path: String
  /// What went wrong, e.g. the `strerror` text.
  public var detail: String

  public init(_ kind: Kind, path: String, detail: String) {
    self.kind = kind
    self.path = path
    self.detail = detail
  }

  /// The sysexits code for `kind`.
  public var exitCode: Int32 {
    switch kind {
    case .cannotCreate, .exists: 73
    case .badData: 65
    case .noInput: 66
    case .ioError: 74
    case .conflict: 64
    }
  }

  /// A one-line message naming the path (control characters written out,
  /// ``escapingControls(_:keeping:)``).
  public var description: String { escapingControls(text) }

  private var text: String {
    switch kind {
    case .cannotCreate: "cannot create '\(path)': \(detail)"
    case .badData: "bad report '\(path)': \(detail)"
    case .noInput: "cannot read report '\(path)': \(detail)"
    case .ioError: "I/O error on '\(path)': \(detail)"
    case .exists: "'\(path)' \(detail)"
    case .conflict: detail
    }
  }
}
