#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reports a command will write, claimed before its work starts.
///
/// Two runs given one `--out` both passed ``OutputCheck`` (no file yet),
/// both did all their work, and the second then failed to write. A claim is
/// an exclusive flock(2) on a hidden file beside the output,
/// `.NAME.claim`, taken at the start and held to the end: a second bench
/// that claims the same name fails at once (exit 73). The lock is the
/// kernel's, so a process that dies, even by SIGKILL, holds nothing; the
/// claim file is removed at the end, on an error, and by the stop handler
/// on SIGINT, SIGTERM or SIGHUP (``StopSignals``), so an interrupted run
/// leaves neither a report nor a claim. Advisory: it orders bench
/// processes, not other tools (whose file the final link(2) still never
/// replaces).
public final class OutputClaims {
  private var held: [(fd: Int32, path: String, slot: Int?)] = []

  private init() {}

  deinit { release() }

  /// Claims every target, in order; none when it throws.
  ///
  /// - Throws: `.exists` (73) when another bench process holds a claim on
  ///   one; `.cannotCreate` (73) when the claim file cannot be made.
  public static func claim(_ targets: [OutputTarget]) throws(ReportError) -> OutputClaims {
    let claims = OutputClaims()
    for target in targets {
      try claims.claimOne(target)
    }
    return claims
  }

  /// Gives up every claim and removes the claim files.
  public func release() {
    for (fd, path, slot) in held.reversed() {
      // removed while the lock is held: a process that opened this file
      // and locks it after sees that the name is no longer it, and retries
      unlink(path)
      StopSignals.finished(slot)
      close(fd)
    }
    held = []
  }

  /// The hidden claim file of `path`: `folder/.name.claim`.
  static func claimPath(of path: String) -> String {
    let (folder, name) = FilePath.split(path)
    return "\(folder)/.\(name).claim"
  }

  private func claimOne(_ target: OutputTarget) throws(ReportError) {
    let path = Self.claimPath(of: target.path)
    while true {
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      guard fd >= 0 else {
        throw ReportError(.cannotCreate, path: target.path, detail: "cannot claim it: \(FilePath.lastError())")
      }
      if flock(fd, LOCK_EX | LOCK_NB) != 0 {
        let code = errno
        close(fd)
        if code == EINTR { continue }
        guard code == EWOULDBLOCK else {
          throw ReportError(.cannotCreate, path: target.path, detail: "cannot claim it: \(FilePath.lastError(code))")
        }
        let flag = target.flag.split(separator: " ").first.map(String.init) ?? target.flag
        throw ReportError(
          .exists, path: target.path, detail: "is being written by another bench process: name a new file with \(flag)")
      }
      // the holder before may have removed the file between our open and
      // our lock: then the lock is on a name no one sees, so take it again
      var mine = stat()
      guard fstat(fd, &mine) == 0, case .success(let named) = FilePath.lstatInfo(path),
            named.st_dev == mine.st_dev && named.st_ino == mine.st_ino
      else {
        close(fd)
        continue
      }
      let slot = path.withCString { StopSignals.pending($0) }
      held.append((fd, path, slot))
      return
    }
  }
}

extension OutputCheck {
  /// Claims the reports among `outputs` (``OutputClaims``: those kept, not
  /// appended to), then checks `outputs` again: a report another bench
  /// finished between the first check and the claim is there now. Call it
  /// after ``check(_:inputs:)``, for names the user gave (a default name is
  /// chosen free when it is written).
  public static func claim(_ outputs: [OutputTarget], inputs: [InputSource]) throws(ReportError) -> OutputClaims {
    let claims = try OutputClaims.claim(outputs.filter { $0.existing == .keep && !$0.appends })
    try check(outputs, inputs: inputs)
    return claims
  }
}
