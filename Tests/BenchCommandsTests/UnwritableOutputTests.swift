import Foundation
import Testing

/// An output path no one can create, for root as for a normal user: the
/// tests run as root, where a chmod 0555 folder stops nothing.
struct UnwritablePath: Sendable, CustomTestStringConvertible {
  var name: String
  /// The path to pass, relative to the run's folder where it can be.
  var path: String
  /// The detail after `cannot create 'PATH': `, when it does not
  /// depend on the kernel's errno for special file systems.
  var detail: String?

  var testDescription: String { name }

  static let all: [UnwritablePath] = [
    UnwritablePath(
      name: "missing folder", path: "missing/out.csv", detail: "folder missing does not exist"),
    // ENOTDIR: even root cannot create a file under a regular file.
    UnwritablePath(
      name: "parent is a file", path: "plain.txt/out.csv", detail: "a part of the path is not a folder"),
    // procfs and sysfs refuse new files to root too, though access(2) says yes.
    UnwritablePath(name: "under /proc", path: "/proc/spatialbench-test-out.csv", detail: nil),
    UnwritablePath(name: "under /sys", path: "/sys/spatialbench-test-out.csv", detail: nil),
  ] + (isRoot ? [] : [
    UnwritablePath(
      name: "read-only folder", path: "locked/out.csv", detail: "folder locked is not writable")
  ])
}

/// Exit 73, one line naming the path, and nothing written, for every command
/// that writes a file, before any work is done (stdout stays empty: `run`
/// prints its table only after the work).
@Suite struct UnwritableOutputTests {
  /// The commands writing to `path`; `export` once for each of its outputs.
  static func invocations(_ path: String) -> [[String]] {
    [
      ["run", "--dataset", "good.csv", "--index", "grid", "--workload", "viewport", "--steps",
       "3", "--repeat", "1", "--warmup", "0", "--quiet", "--out", path],
      ["query", "--index", "grid", "--points", "good.csv", "--queries", "good-queries.csv",
       "--out", path],
      ["export", "--dataset", "good.csv", "--steps", "3", "--quiet", "--points-out", path,
       "--queries-out", "q.csv"],
      ["export", "--dataset", "good.csv", "--steps", "3", "--quiet", "--points-out", "p.csv",
       "--queries-out", path],
    ]
  }

  @Test(arguments: UnwritablePath.all)
  func unwritableOutputIs73AndWritesNothing(target: UnwritablePath) throws {
    try withTemporaryFolder { folder in
      try folder.write("good.csv", InputCommand.goodPoints)
      try folder.write("good-queries.csv", InputCommand.goodQueries)
      try folder.write("plain.txt", "not a folder\n")
      let locked = folder.file("locked")
      try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
      try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
      defer {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked)
      }
      let before = folder.contents()
      let parent = (target.path as NSString).deletingLastPathComponent

      for arguments in Self.invocations(target.path) {
        let result = try runBench(arguments, in: folder.path)
        #expect(result.code == 73, "\(arguments[0]): \(result.stderr)")
        let prefix = "bench: cannot create '\(target.path)': "
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderrLines.first?.hasPrefix(prefix) == true, "\(result.stderr)")
        if let detail = target.detail {
          #expect(result.stderrLines == [prefix + detail])
        }
        #expect(result.stdout.isEmpty, "\(arguments[0]) did the work before failing")
        #expect(folder.contents() == before)
        #expect(!exists(target.path))
        // Nor a temporary or probe file beside it (`/proc` changes all the
        // time, so look for the name only).
        let name = (target.path as NSString).lastPathComponent
        let beside = target.path.hasPrefix("/") ? parent : folder.file(parent)
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: beside)) ?? [])
          .filter { $0.contains(name) }
        #expect(left.isEmpty, "left beside the target: \(left)")
      }
    }
  }
}
