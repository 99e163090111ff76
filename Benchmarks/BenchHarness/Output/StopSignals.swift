#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What happens when bench is told to stop (SIGINT, SIGTERM, SIGHUP): the
/// temporary file being written, if any, is removed, and the process then
/// dies of the signal as it would have (so a shell sees 130 for Ctrl-C).
///
/// Only one file is written at a time, so one slot holds its name: a buffer
/// allocated once, filled before the file exists and emptied after it took
/// its final name. The handler only reads the slot and calls unlink(2),
/// signal(2) and raise(3), which are async-signal-safe.
public enum StopSignals {
  /// The signals that stop a run.
  static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// Installs the handler and unblocks the signals: a parent may start bench
  /// with them blocked (Foundation's `Process` passes its thread's mask on),
  /// and then Ctrl-C and `kill` would do nothing.
  public static func install() {
    var set = sigset_t()
    sigemptyset(&set)
    for s in stopping {
      _ = signal(s, removePendingAndStop)
      sigaddset(&set, s)
    }
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  /// Room for the longest path the system accepts.
  nonisolated(unsafe) static let slot: UnsafeMutablePointer<CChar> = {
    let capacity = Int(PATH_MAX) + 1
    let p = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    p.initialize(repeating: 0, count: capacity)
    return p
  }()

  /// Names the temporary file being written (`nil`: none any more).
  static func pending(_ path: UnsafePointer<CChar>?) {
    guard let path else {
      slot[0] = 0
      return
    }
    let length = min(strlen(path), Int(PATH_MAX))
    slot[0] = 0
    memcpy(slot + 1, path + 1, max(0, length - 1))
    slot[length] = 0
    slot[0] = path[0]  // the first byte last: the slot holds a whole name or none
  }

  /// The name in the slot, for tests.
  package static var pendingPath: String? { slot[0] == 0 ? nil : String(cString: slot) }
}

/// The handler: a C function, so it is a plain global.
private func removePendingAndStop(_ signal: Int32) {
  if StopSignals.slot[0] != 0 { unlink(StopSignals.slot) }
  #if canImport(Glibc)
  _ = Glibc.signal(signal, SIG_DFL)
  #elseif canImport(Darwin)
  _ = Darwin.signal(signal, SIG_DFL)
  #endif
  raise(signal)
}
