import BenchFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What commands print, written to file descriptor 1 with write(2) and
/// checked: `print` drops a failed write silently, so a full disk or
/// `/dev/full` cut `bench query`'s answers short and still exited 0. The
/// first failure is kept, the rest of the output skipped, and
/// ``benchMain(_:)`` then exits 74 naming it.
///
/// A reader that closes the pipe (`bench list | head -1`) is no failure:
/// it has read what it wanted. The write fails with EPIPE (SIGPIPE is
/// ignored, so nothing dies half-way through writing a file), the rest of
/// the output is skipped, and bench ends quietly with the command's code.
enum StandardOutput {
  /// The errno of the first failed write; 0 while none failed, and while
  /// only the reader went away (EPIPE).
  nonisolated(unsafe) static var failure: Int32 = 0
  /// The reader closed the pipe: nothing more is written.
  nonisolated(unsafe) static var readerGone = false

  static func write(_ text: String) {
    guard failure == 0 && !readerGone else { return }
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes { systemWrite(1, $0.baseAddress! + offset, $0.count - offset) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        if n < 0 && errno == EPIPE {
          readerGone = true
        } else {
          failure = n < 0 ? errno : EIO
        }
        return
      }
      offset += n
    }
  }

  /// The failure as a line for stderr, or nil.
  static var failureMessage: String? {
    failure == 0 ? nil : "bench: cannot write to standard output: \(String(cString: strerror(failure)))"
  }
}

/// `print` for a command's output (see ``StandardOutput``); a control
/// character but the line feed and tab is written out, as on stderr.
func output(_ text: String, terminator: String = "\n") {
  StandardOutput.write(escapingControls(text, keeping: ["\n", "\t"]) + terminator)
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
