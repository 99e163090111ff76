#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What happens when bench is told to stop (SIGINT, SIGTERM, SIGHUP): the
/// temporary files being written, if any, are removed, and the process then
/// dies of the signal as it would have (so a shell sees 130 for Ctrl-C).
///
/// A temporary file's name waits in a slot of a table allocated once: filled
/// before the file has data, emptied once it took its final name. There are
/// several slots because files can be open together: `export` writes its
/// second file before the first takes its name, and tests write from many
/// threads. Slots are claimed under a lock; the handler takes no lock, it
/// only reads the slots (a name's first byte is written last, so a slot holds
/// a whole name or none) and calls unlink(2), signal(2) and raise(3), which
/// are async-signal-safe.
public enum StopSignals {
  /// The signals that stop a run.
  static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// Installs the handler and unblocks the signals: a parent may start bench
  /// with them blocked (Foundation's `Process` passes its thread's mask on),
  /// and then Ctrl-C and `kill` would do nothing.
  public static func install() {
    // The table is made here, before a handler can run: a signal arriving
    // while a lazy global is first set up would wait in the handler for that
    // set-up to finish, which it never does (seen as a hang under SIGINT).
    _ = (slots, claimed, lock, slotCount, slotSize)
    var set = sigset_t()
    sigemptyset(&set)
    for s in stopping {
      _ = signal(s, removePendingAndStop)
      sigaddset(&set, s)
    }
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  /// Runs `body` with the stop signals held back, so that a file it creates
  /// and names in a slot is never left between the two: a signal that
  /// arrives meanwhile is handled as `body` returns.
  static func holdingStops<T>(_ body: () -> T) -> T {
    var set = sigset_t(), previous = sigset_t()
    sigemptyset(&set)
    for s in stopping { sigaddset(&set, s) }
    pthread_sigmask(SIG_BLOCK, &set, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return body()
  }

  /// Files that can be pending at once; a write past that many still
  /// happens, and only its clean-up on a signal is lost.
  static let slotCount = 16
  /// Room in a slot for the longest path the system accepts.
  static let slotSize = Int(PATH_MAX) + 1

  /// The slots, one after another.
  nonisolated(unsafe) static let slots: UnsafeMutablePointer<CChar> = {
    let p = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * slotSize)
    p.initialize(repeating: 0, count: slotCount * slotSize)
    return p
  }()

  /// Which slots are claimed, read and written under ``lock``.
  nonisolated(unsafe) static let claimed: UnsafeMutablePointer<Bool> = {
    let p = UnsafeMutablePointer<Bool>.allocate(capacity: slotCount)
    p.initialize(repeating: false, count: slotCount)
    return p
  }()

  nonisolated(unsafe) static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
    let p = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    p.initialize(to: pthread_mutex_t())
    pthread_mutex_init(p, nil)
    return p
  }()

  /// Names a temporary file being written; returns its slot for
  /// ``finished(_:)`` (`nil` when every slot is taken).
  static func pending(_ path: UnsafePointer<CChar>) -> Int? {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    guard let index = (0..<slotCount).first(where: { !claimed[$0] }) else { return nil }
    claimed[index] = true
    let slot = slots + index * slotSize
    let length = min(strlen(path), slotSize - 1)
    memcpy(slot + 1, path + 1, max(0, length - 1))
    slot[length] = 0
    slot[0] = path[0]  // the first byte last: the slot holds a whole name or none
    return index
  }

  /// Empties the slot ``pending(_:)`` returned: the file has its final name
  /// or is gone.
  static func finished(_ index: Int?) {
    guard let index else { return }
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    slots[index * slotSize] = 0
    claimed[index] = false
  }

  /// The names in the slots, for tests.
  package static var pendingPaths: [String] {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return (0..<slotCount).compactMap { i in
      slots[i * slotSize] == 0 ? nil : String(cString: slots + i * slotSize)
    }
  }
}

/// The handler: a C function, so it is a plain global.
private func removePendingAndStop(_ signal: Int32) {
  for i in 0..<StopSignals.slotCount {
    let slot = StopSignals.slots + i * StopSignals.slotSize
    if slot[0] != 0 { unlink(slot) }
  }
  #if canImport(Glibc)
  _ = Glibc.signal(signal, SIG_DFL)
  #elseif canImport(Darwin)
  _ = Darwin.signal(signal, SIG_DFL)
  #endif
  raise(signal)
}
