#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a command will write, with the flag that named it.
public struct OutputTarget: Sendable, Equatable {
  public var flag: String
  public var path: String
  /// Whether a file already at `path` may be replaced.
  public var existing: AtomicFile.Existing
  /// `--append`: the file may exist (a report the rows are added to).
  public var appends: Bool
  /// What the user can do when a file to keep is there, in the words of
  /// the command's own flags (`name a new file with --out FILE.html`): a
  /// hint must never name a flag the command refuses.
  public var ifTaken: String

  public init(_ flag: String, _ path: String, existing: AtomicFile.Existing = .replace,
              appends: Bool = false, ifTaken: String = "name a new file") {
    self.flag = flag
    self.path = path
    self.existing = existing
    self.appends = appends
    self.ifTaken = ifTaken
  }
}

/// A file a command reads, with the flag that named it.
public struct InputSource: Sendable, Equatable {
  public var flag: String
  public var path: String

  public init(_ flag: String, _ path: String) {
    self.flag = flag
    self.path = path
  }
}

/// The checks every command runs on its outputs before any work, so a bad
/// path costs nothing and destroys nothing.
///
/// - An output is a regular file or a new name: a folder, a device, a FIFO,
///   a socket or a symbolic link is refused (exit 73), never replaced (as
///   root, replacing `/dev/null` broke the machine). A link is refused rather
///   than followed, since replacing the file behind it would go through
///   someone else's name; give the file it points to.
/// - A report (`existing: .keep`) is never replaced: an existing one is
///   refused unless the rows are appended.
/// - No output is an input or another output of the same command, by any
///   spelling: files are compared by device and inode, new names by their
///   folder with every link resolved (exit 64).
/// - Standard output is none of the inputs (``checkStandardOutput(against:)``).
/// - The folder exists and takes a new file: a hidden file is created there
///   and removed at once, since permission bits cannot tell (root may write
///   in a 0555 folder, no one can create a file in `/proc`).
///
/// Another process can still change the files between this check and the
/// write; the write itself never replaces a report (link(2)) and never
/// leaves half a file (``AtomicFile``).
public enum OutputCheck {
  public static func check(_ outputs: [OutputTarget], inputs: [InputSource]) throws(ReportError) {
    try checkStandardOutput(against: inputs)
    var seen: [(target: OutputTarget, identity: Identity)] = []
    let inputIdentities = inputs.compactMap { input in
      Identity(existing: input.path).map { (input, $0) }
    }
    for target in outputs {
      let (identity, kept) = try checkOne(target)
      for (input, id) in inputIdentities where id.matches(identity) {
        throw ReportError(
          .conflict, path: target.path,
          detail: "\(target.flag) '\(target.path)' is the input \(input.flag) '\(input.path)':"
            + " bench never writes over its input")
      }
      for (other, id) in seen where id.matches(identity) {
        throw ReportError(
          .conflict, path: target.path,
          detail: "\(other.flag) '\(other.path)' and \(target.flag) '\(target.path)' name the same file")
      }
      // an existing report is refused after the conflicts, which say more
      if let kept { throw kept }
      seen.append((target, identity))
    }
  }

  /// Refuses a standard output that is one of `inputs` (the same device and
  /// inode), as GNU cat refuses "input file is output file": `bench query …
  /// >> points.csv` appended the answers to the points it read. Only a
  /// regular file is compared: a terminal, a pipe or `/dev/null` is never
  /// an input here.
  ///
  /// - Throws: `.conflict` (64).
  public static func checkStandardOutput(against inputs: [InputSource]) throws(ReportError) {
    var out = stat()
    guard fstat(1, &out) == 0, out.st_mode & S_IFMT == S_IFREG else { return }
    for input in inputs {
      guard let id = Identity(existing: input.path), let file = id.file,
            file.0 == out.st_dev && file.1 == out.st_ino
      else { continue }
      throw ReportError(
        .conflict, path: input.path,
        detail: "standard output is the input \(input.flag) '\(input.path)': bench never writes over its input")
    }
  }

  /// The checks of one output, how to tell it from the others, and the
  /// error to give when it is a report that must be kept.
  private static func checkOne(_ target: OutputTarget) throws(ReportError) -> (Identity, ReportError?) {
    let path = target.path
    func refuse(_ detail: String) -> ReportError { ReportError(.cannotCreate, path: path, detail: detail) }
    guard !path.isEmpty, !path.hasSuffix("/"), !path.hasSuffix("/."), !path.hasSuffix("/..") else {
      throw refuse("not a file name")
    }
    var file: stat? = nil
    var kept: ReportError? = nil
    switch FilePath.lstatInfo(path) {
    case .success(let info):
      let type = info.st_mode & S_IFMT
      if type == S_IFDIR { throw refuse("is a folder") }
      guard type == S_IFREG else {
        throw refuse(
          "is \(FilePath.kind(info.st_mode)), not a regular file: bench writes only regular files"
            + (type == S_IFLNK ? " (name the file the link points to)" : ""))
      }
      if target.existing == .keep && !target.appends {
        kept = ReportError(
          .exists, path: path,
          detail: "already exists: bench never replaces a report (\(target.ifTaken))")
      }
      file = info
    case .failure(let e) where e.code == ENOENT:
      break
    case .failure(let e) where e.code == ENOTDIR:
      throw refuse("a part of the path is not a folder")
    case .failure(let e):
      throw refuse(e.text)
    }
    let (folder, name) = FilePath.split(path)
    guard case .success(let folderInfo) = FilePath.statInfo(folder) else {
      throw refuse("folder \(folder) does not exist")
    }
    guard folderInfo.st_mode & S_IFMT == S_IFDIR else { throw refuse("\(folder) is not a folder") }
    var template = Array("\(folder)/.\(name).probe-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw refuse("cannot create files in folder \(folder): \(FilePath.lastError())") }
    close(fd)
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    let resolvedFolder = FilePath.resolved(folder) ?? folder
    return (Identity(file: file.map { ($0.st_dev, $0.st_ino) }, name: resolvedFolder + "/" + name), kept)
  }

  /// A file by device and inode when it exists, and by its resolved name.
  struct Identity {
    var file: (dev_t, ino_t)?
    var name: String

    init(file: (dev_t, ino_t)?, name: String) {
      self.file = file
      self.name = name
    }

    /// An existing input: links followed.
    init?(existing path: String) {
      guard case .success(let info) = FilePath.statInfo(path) else { return nil }
      file = (info.st_dev, info.st_ino)
      name = FilePath.resolved(path) ?? path
    }

    func matches(_ other: Identity) -> Bool {
      if let a = file, let b = other.file { return a.0 == b.0 && a.1 == b.1 }
      return name == other.name
    }
  }
}
