import BenchHarness
import Foundation
import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// An unknown `--flag`, with the closest valid one.
func unknownOption(_ option: String, command: String, valid: [String]) -> UsageError {
  if option.hasPrefix("-") {
    return .unknown("option", option, valid: valid, command: command)
  }
  return UsageError("unexpected argument \"\(option)\"", command: command)
}

/// Fails early, before any work, when an output file cannot be created:
/// its folder must exist and be a folder, and the path itself must not be a
/// folder (`export` writes two files; a late failure on the second would
/// leave the first behind).
///
/// Permission bits are not enough to tell: root may write in a 0555 folder,
/// but no one can create a file in `/proc`, and `access(2)` says yes to both.
/// So a hidden file is created in the folder and removed at once; only the
/// real attempt answers for every user and file system.
func checkOutputPath(_ path: String) throws(ReportError) {
  guard !path.isEmpty, !path.hasSuffix("/") else {
    throw ReportError(.cannotCreate, path: path, detail: "not a file name")
  }
  var pathIsDirectory: ObjCBool = false
  if FileManager.default.fileExists(atPath: path, isDirectory: &pathIsDirectory),
     pathIsDirectory.boolValue
  {
    throw ReportError(.cannotCreate, path: path, detail: "is a folder")
  }
  let folder = (path as NSString).deletingLastPathComponent
  var isDirectory: ObjCBool = false
  let dir = folder.isEmpty ? "." : folder
  guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) else {
    throw ReportError(.cannotCreate, path: path, detail: "folder \(dir) does not exist")
  }
  guard isDirectory.boolValue else {
    throw ReportError(.cannotCreate, path: path, detail: "\(dir) is not a folder")
  }
  guard FileManager.default.isWritableFile(atPath: dir) else {
    throw ReportError(.cannotCreate, path: path, detail: "folder \(dir) is not writable")
  }
  let name = (path as NSString).lastPathComponent
  var template = Array("\(dir)/.\(name).probe-XXXXXX".utf8CString)
  let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
  guard fd >= 0 else {
    let reason = String(cString: strerror(errno))
    throw ReportError(
      .cannotCreate, path: path, detail: "cannot create files in folder \(dir): \(reason)")
  }
  close(fd)
  template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
}

/// The exit code and one-line message for any error a command throws.
func report(_ error: any Error) -> (code: Int32, message: String) {
  switch error {
  case let e as UsageError:
    return (64, "bench: \(e.message)\n\(Usage.line(for: e.command))")
  case let e as DataError:
    return (e.exitCode, "bench: \(e)")
  case let e as ReportError:
    return (e.exitCode, "bench: \(e)")
  case let e as IndexError:
    switch e {
    case .invalidParameter, .unknownParameter: return (64, "bench: \(e)")
    default: return (65, "bench: \(e)")
    }
  default:
    return (70, "bench: internal error: \(error)")
  }
}
