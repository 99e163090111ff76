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

/// The exit code and one-line message for any error a command throws.
func report(_ error: any Error) -> (code: Int32, message: String) {
  switch error {
  case let e as UsageError:
    return (64, "bench: \(escapingControls(e.message))\n\(Usage.line(for: e.command))")
  case let e as DataError:
    return (e.exitCode, "bench: \(e)")
  case let e as ReportError:
    return (e.exitCode, "bench: \(e)")
  case let e as PeerError:
    return (e.exitCode, "bench: \(e)")
  case let e as TableError:
    return (e.exitCode, "bench: \(e)")
  case let e as DocsFailures:
    return (e.exitCode, "bench: \(e)")
  case let e as SavedIndexError:
    // a file missing is 66, one that cannot be read 74, one that is not
    // a saved index (or not this build's) 65
    if case .io(let operation, let message) = e.problem {
      return (operation == "open" && message.contains("No such file") ? 66 : 74, "bench: \(e)")
    }
    return (65, "bench: \(e)")
  case let e as IndexError:
    switch e {
    case .invalidParameter, .unknownParameter: return (64, "bench: \(e)")
    default: return (65, "bench: \(e)")
    }
  default:
    return (70, "bench: internal error: \(error)")
  }
}
