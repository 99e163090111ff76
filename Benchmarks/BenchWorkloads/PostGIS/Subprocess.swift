import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to its end with `posix_spawn` and `waitpid`: its standard
/// output read through a pipe (or into the error file), its standard error
/// into a file (so no pipe can fill and block it), its standard input from
/// `/dev/null`, and no other descriptor of bench's.
///
/// Not Foundation's `Process`, which passes a child every descriptor not
/// marked close-on-exec: `pg_ctl start` handed its output pipe on to the
/// server it leaves running, so reading it to the end never ended.
enum Subprocess {
  struct Result {
    var status: Int32
    /// Whether it exited (rather than died of a signal).
    var exited: Bool
    var output: Data
    var errorText: String

    var succeeded: Bool { exited && status == 0 }
  }

  /// Runs `executable` with `arguments`; its standard error goes to
  /// `errorFile` (created, then read back), and so does its standard
  /// output unless `captureOutput`: a program that leaves a child running
  /// (`pg_ctl start`) would otherwise hold the pipe open for ever.
  ///
  /// - Throws: ``PeerError`` `.unavailable` when the program cannot be started.
  static func run(
    _ executable: String, _ arguments: [String], errorFile: String, captureOutput: Bool = true
  ) throws(PeerError) -> Result {
    var fds: [Int32] = [-1, -1]
    if captureOutput {
      guard pipe(&fds) == 0 else { throw PeerError(.failed, "cannot make a pipe: \(errorText())") }
      _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
      _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    }
    defer { if captureOutput { close(fds[0]) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if captureOutput {
      posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    } else {
      posix_spawn_file_actions_adddup2(&actions, 2, 1)
    }
    let pid = try spawn(executable, arguments, &actions, setsid: false)
    var data = Data()
    if captureOutput {
      close(fds[1])
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        if n > 0 { data.append(contentsOf: buffer[0..<n]); continue }
        if n < 0 && errno == EINTR { continue }
        break
      }
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let text = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
    let exited = status & 0x7f == 0
    return Result(
      status: exited ? (status >> 8) & 0xff : -1, exited: exited, output: data,
      errorText: text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// Starts `executable` and leaves it running in a session of its own
  /// (`setsid`): a Ctrl-C that stops bench does not reach it. Its output
  /// goes nowhere.
  static func detach(_ executable: String, _ arguments: [String]) throws(PeerError) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in 0...2 {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    _ = try spawn(executable, arguments, &actions, setsid: true)
  }

  private static func spawn(
    _ executable: String, _ arguments: [String], _ actions: inout posix_spawn_file_actions_t, setsid: Bool
  ) throws(PeerError) -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // nothing of bench's but 0, 1 and 2: a child left running (the server,
    // the watcher) must not hold a descriptor open that someone waits on,
    // like the one Foundation's `Process` watches to learn a child ended
    #if canImport(Glibc)
    // glibc 2.34 has it; its header declares it where Swift's module does not look
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
      _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
    let closeOthers: Int32 = 0
    #else
    let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    // the stop signals: default handling and unblocked in the child
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, s) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | closeOthers
    if setsid { flags |= spawnSetsid }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    let argv = ([executable] + arguments).map { strdup($0) }
    defer { for a in argv { free(a) } }
    var pid: pid_t = 0
    let result = (argv + [nil]).withUnsafeBufferPointer { args in
      posix_spawn(&pid, executable, &actions, &attributes, args.baseAddress!, environ)
    }
    guard result == 0 else {
      throw PeerError(.unavailable, "cannot run \(executable): \(String(cString: strerror(result)))")
    }
    return pid
  }

  /// `POSIX_SPAWN_SETSID`, which glibc declares only under `_GNU_SOURCE`.
  #if canImport(Glibc)
  private static let spawnSetsid: Int32 = 0x80
  #else
  private static let spawnSetsid = Int32(POSIX_SPAWN_SETSID)
  #endif

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
