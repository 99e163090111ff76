import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nothing a command writes destroys anything: not its input, not another of
/// its outputs, not a device or a link, not an earlier report, not a
/// concurrent run's rows; a stop signal leaves no temporary file, and a
/// failed write to standard output is an error.
@Suite struct OutputSafetyTests {
  /// Every command that writes files, each with one output at `path` and
  /// reading `good.csv` (points) and `good-queries.csv`.
  static func writers(_ path: String) -> [(name: String, arguments: [String])] {
    let tiny = ["--steps", "3", "--repeat", "1", "--warmup", "0", "--quiet"]
    return [
      ("run --out", ["run", "--dataset", "good.csv", "--index", "grid", "--workload", "viewport"] + tiny + ["--out", path]),
      ("run --json", ["run", "--dataset", "good.csv", "--index", "grid", "--workload", "viewport"] + tiny
        + ["--out", "report.csv", "--json", path]),
      ("query", ["query", "--index", "grid", "--points", "good.csv", "--queries", "good-queries.csv", "--out", path]),
      ("export --points-out", ["export", "--dataset", "good.csv", "--steps", "3", "--quiet", "--points-out", path,
                               "--queries-out", "q.csv"]),
      ("export --queries-out", ["export", "--dataset", "good.csv", "--steps", "3", "--quiet", "--points-out", "p.csv",
                                "--queries-out", path]),
      ("render", ["render", "--dataset", "good.csv", "--center", "0,0", "--zoom", "3", "--out", path]),
    ]
  }

  /// A folder with the inputs every writer reads.
  static func prepared(_ folder: TemporaryFolder) throws {
    try folder.write("good.csv", InputCommand.goodPoints)
    try folder.write("good-queries.csv", InputCommand.goodQueries)
  }

  /// The points file, spelled five ways: as given, with `./`, absolute,
  /// through a linked folder, and a hard link to it.
  @Test(arguments: ["good.csv", "./good.csv", "ABSOLUTE", "linked/good.csv", "hard.csv"])
  func anOutputThatIsTheInputIsRefusedAndTheInputKept(spelling: String) throws {
    try withTemporaryFolder { folder in
      try Self.prepared(folder)
      try FileManager.default.createSymbolicLink(atPath: folder.file("linked"), withDestinationPath: folder.path)
      #expect(link(folder.file("good.csv"), folder.file("hard.csv")) == 0)
      let path = spelling == "ABSOLUTE" ? folder.file("good.csv") : spelling
      let before = bytes(folder.file("good.csv"))
      for (name, arguments) in Self.writers(path) {
        let result = try runBench(arguments, in: folder.path)
        #expect(result.code == 64, "\(name): \(result.stderr)")
        #expect(result.stderr.contains("is the input --"), "\(name): \(result.stderr)")
        #expect(bytes(folder.file("good.csv")) == before, "\(name) wrote over its input")
      }
    }
  }

  @Test func twoOutputsOfOneCommandMustBeTwoFiles() throws {
    try withTemporaryFolder { folder in
      try Self.prepared(folder)
      let export = try runBench(
        ["export", "--dataset", "good.csv", "--steps", "3", "--quiet", "--points-out", "same.csv",
         "--queries-out", "./same.csv"], in: folder.path)
      expectOneError(export, code: 64, "--points-out 'same.csv' and --queries-out './same.csv' name the same file")
      let run = try runBench(
        ["run", "--dataset", "good.csv", "--index", "grid", "--workload", "viewport", "--steps", "3",
         "--repeat", "1", "--warmup", "0", "--quiet", "--out", "r.csv", "--json", folder.file("r.csv")],
        in: folder.path)
      #expect(run.code == 64)
      #expect(run.stderr.contains("name the same file"))
      #expect(!exists(folder.file("same.csv")) && !exists(folder.file("r.csv")))
    }
  }

  /// A FIFO, a link to a file, a dangling link and a folder: refused with
  /// exit 73, and each is still what it was.
  @Test func onlyRegularFilesAreWritten() throws {
    try withTemporaryFolder { folder in
      try Self.prepared(folder)
      #expect(mkfifo(folder.file("fifo"), 0o644) == 0)
      try folder.write("target.csv", "kept\n")
      try FileManager.default.createSymbolicLink(atPath: folder.file("link.csv"), withDestinationPath: "target.csv")
      try FileManager.default.createSymbolicLink(atPath: folder.file("dangling.csv"), withDestinationPath: "nowhere.csv")
      try FileManager.default.createDirectory(atPath: folder.file("dir"), withIntermediateDirectories: false)
      let cases = [
        ("fifo", "is a FIFO, not a regular file"),
        ("link.csv", "is a symbolic link, not a regular file"),
        ("dangling.csv", "is a symbolic link, not a regular file"),
        ("dir", "is a folder"),
      ]
      for (path, detail) in cases {
        for (name, arguments) in Self.writers(path) {
          let result = try runBench(arguments, in: folder.path)
          #expect(result.code == 73, "\(name) \(path): \(result.stderr)")
          #expect(result.stderr.contains("cannot create '\(path)': \(detail)"), "\(name): \(result.stderr)")
        }
      }
      var info = stat()
      #expect(lstat(folder.file("fifo"), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
      #expect(lstat(folder.file("link.csv"), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
      #expect(text(folder.file("target.csv")) == "kept\n")
      #expect(!exists(folder.file("nowhere.csv")))
    }
  }

  /// As root, `--out /dev/null` once replaced the machine's `/dev/null`.
  @Test func aDeviceIsNeverReplaced() throws {
    guard exists("/dev/null") else { return }
    try withTemporaryFolder { folder in
      try Self.prepared(folder)
      for (name, arguments) in Self.writers("/dev/null") {
        let result = try runBench(arguments, in: folder.path)
        #expect(result.code == 73, "\(name): \(result.stderr)")
      }
      var info = stat()
      #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }
  }

  @Test func anEarlierReportIsNeverReplaced() throws {
    try withTemporaryFolder { folder in
      try Self.prepared(folder)
      let run = ["run", "--dataset", "good.csv", "--index", "grid", "--workload", "viewport", "--steps", "3",
                 "--repeat", "1", "--warmup", "0", "--quiet"]
      try folder.write("earlier.csv", "an earlier report\n")
      let again = try runBench(run + ["--out", "earlier.csv"], in: folder.path)
      #expect(again.code == 73)
      #expect(again.stderr.contains("'earlier.csv' already exists: bench never replaces a report"))
      let json = try runBench(run + ["--out", "new.csv", "--json", "earlier.csv"], in: folder.path)
      #expect(json.code == 73)
      #expect(text(folder.file("earlier.csv")) == "an earlier report\n")
      #expect(!exists(folder.file("new.csv")), "checked before any work")
    }
  }

  /// Two runs started together with the default report name: two reports,
  /// each whole, each named in its own "wrote" line.
  @Test func twoRunsStartedTogetherWriteTwoReports() throws {
    try withTemporaryFolder { folder in
      try Self.prepared(folder)
      let arguments = ["run", "--dataset", "good.csv", "--index", "grid,kdtree", "--workload", "viewport",
                       "--steps", "20", "--repeat", "1", "--warmup", "0", "--quiet"]
      let results = try runConcurrently(Array(repeating: arguments, count: 2), in: folder.path)
      let written = results.compactMap { r in r.stderrLines.first { $0.hasPrefix("bench: wrote ") } }
      #expect(results.allSatisfy { $0.code == 0 }, "\(results.map(\.stderr))")
      #expect(Set(written).count == 2, "\(written)")
      let reports = folder.contents().filter { $0.hasSuffix(".csv") && $0.contains("-run") }
      #expect(reports.count == 2, "\(folder.contents())")
      let lines = reports.map { text(folder.file($0))?.split(separator: "\n").count ?? 0 }
      #expect(lines.count == 2 && lines[0] == lines[1] && lines[0] > 1, "\(lines)")
    }
  }

  /// Eight runs appending to one report at once: every row of every run is
  /// there.
  @Test func eightConcurrentAppendsKeepEveryRow() throws {
    try withTemporaryFolder { folder in
      try Self.prepared(folder)
      let arguments = ["run", "--dataset", "good.csv", "--index", "grid", "--workload", "viewport",
                       "--steps", "3", "--repeat", "1", "--warmup", "0", "--quiet", "--out", "shared.csv",
                       "--append"]
      let alone = try runBench(Array(arguments.dropLast(3)) + ["--out", "alone.csv"], in: folder.path)
      let rowsARun = (text(folder.file("alone.csv"))?.split(separator: "\n").count ?? 0) - 1
      #expect(alone.code == 0 && rowsARun > 0)
      let results = try runConcurrently(Array(repeating: arguments, count: 8), in: folder.path)
      #expect(results.allSatisfy { $0.code == 0 }, "\(results.map(\.stderr))")
      #expect(text(folder.file("shared.csv"))?.split(separator: "\n").count == 1 + 8 * rowsARun)
      #expect(!folder.contents().contains { $0.contains(".tmp-") })
    }
  }

  /// SIGINT while a large file is being written (seen by its hidden
  /// temporary file appearing): the process dies of the signal and leaves
  /// neither the temporary file nor the output.
  @Test func aStopSignalDuringAWriteLeavesNoTemporaryFile() throws {
    let bench = try #require(benchExecutable)
    try withTemporaryFolder { folder in
      let process = Process()
      process.executableURL = bench
      process.arguments = ["export", "--dataset", "uniform", "--n", "4000000", "--steps", "3", "--quiet",
                           "--points-out", "big.csv", "--queries-out", "q.csv"]
      process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      var sawTemporary = false
      // watched until it ends, however slow the build (the address
      // sanitizer on a loaded machine took longer than 60,000 polls)
      while process.isRunning {
        if folder.contents().contains(where: { $0.contains(".tmp-") }) {
          sawTemporary = true
          kill(process.processIdentifier, SIGINT)
          break
        }
        usleep(500)
      }
      waitForExit(of: process, seconds: 60, "bench export after SIGINT")
      #expect(sawTemporary, "the export ended before its temporary file was seen")
      #expect(process.terminationReason == .uncaughtSignal)
      #expect(folder.contents().isEmpty, "left behind: \(folder.contents())")
    }
  }

  /// A full device on standard output: exit 74 and a line saying so, where
  /// the answers used to be cut short with exit 0.
  @Test func aFailedWriteToStandardOutputIsExit74() throws {
    guard exists("/dev/full") else { return }
    let bench = try #require(benchExecutable)
    try withTemporaryFolder { folder in
      try Self.prepared(folder)
      let process = Process()
      process.executableURL = bench
      process.arguments = ["query", "--index", "grid", "--points", "good.csv", "--queries", "good-queries.csv"]
      process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
      let errors = folder.file("stderr")
      try folder.write("stderr", "")
      process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
      try process.run()
      waitForExit(of: process, seconds: 120, "bench query to /dev/full")
      #expect(process.terminationStatus == 74)
      #expect(text(errors)?.contains("bench: cannot write to standard output: No space left on device") == true)
    }
  }

  /// `bench query … >> points.csv` appended the answers to the points. As
  /// GNU cat refuses "input file is output file", every command refuses a
  /// standard output that is one of its inputs (device and inode), before
  /// any work: exit 64, the input untouched.
  @Test func standardOutputOntoAnInputIsRefused() throws {
    try withTemporaryFolder { folder in
      try Self.prepared(folder)
      let tiny = ["--steps", "3", "--quiet"]
      let readers: [(input: String, flag: String, arguments: [String])] = [
        ("good.csv", "--points", ["query", "--index", "grid", "--points", "good.csv", "--queries", "good-queries.csv"]),
        ("good-queries.csv", "--queries",
         ["query", "--index", "grid", "--points", "good.csv", "--queries", "good-queries.csv"]),
        ("good.csv", "--dataset", ["run", "--dataset", "good.csv", "--index", "grid", "--workload", "viewport",
                                   "--repeat", "1", "--warmup", "0", "--out", "r.csv"] + tiny),
        ("good.csv", "--dataset", ["verify", "--dataset", "good.csv", "--index", "grid"] + tiny),
        ("good.csv", "--dataset", ["export", "--dataset", "good.csv", "--points-out", "p.csv",
                                   "--queries-out", "q.csv"] + tiny),
        ("good.csv", "--dataset", ["recommend", "--dataset", "good.csv", "--steps", "10", "--quiet", "--out", "r.csv"]),
        ("good.csv", "--dataset", ["render", "--dataset", "good.csv", "--center", "0,0", "--zoom", "2", "--out", "m.svg"]),
        ("good.csv", "report", ["compare", "good.csv", "good-queries.csv"]),
        ("good.csv", "report", ["plot", "good.csv", "--out", "plots"]),
        ("good.csv", "report", ["report", "good.csv", "--out", "p.html"]),
      ]
      for (input, flag, arguments) in readers {
        let before = bytes(folder.file(input))
        let result = try runBench(arguments, in: folder.path, appendingStandardOutputTo: folder.file(input))
        expectOneError(
          result, code: 64, "standard output is the input \(flag) '\(input)': bench never writes over its input")
        #expect(bytes(folder.file(input)) == before, "\(arguments[0]) wrote onto \(input)")
        #expect(folder.contents() == ["good-queries.csv", "good.csv"], "\(arguments[0]): \(folder.contents())")
      }
      // another file as standard output is fine
      try folder.write("answers.csv", "")
      let fine = try runBench(readers[0].arguments, in: folder.path, appendingStandardOutputTo: folder.file("answers.csv"))
      #expect(fine.code == 0 && text(folder.file("answers.csv"))?.hasPrefix("query,count,id_sum\n") == true)
    }
  }

  /// Two runs that share one --out: the second ran all its work and failed
  /// at the end. Now the first claims the name at its start, and the second
  /// fails at once, while the first still runs. Stopped, the first leaves
  /// nothing behind: no report, no page, no claim.
  @Test func aSecondRunOntoTheSameOutFailsAtOnce() throws {
    let bench = try #require(benchExecutable)
    try withTemporaryFolder { folder in
      // about a minute of work in a debug build, several seconds in release
      let arguments = ["run", "--dataset", "uniform", "--n", "20000", "--index", "linear,grid", "--workload",
                       "viewport,cluster", "--steps", "40", "--repeat", "20", "--warmup", "0", "--out", "shared.csv"]
      let first = Process()
      first.executableURL = bench
      first.arguments = arguments
      first.currentDirectoryURL = URL(fileURLWithPath: folder.path)
      first.standardOutput = FileHandle.nullDevice
      try folder.write("first.err", "")
      first.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.file("first.err")))
      try first.run()
      // its progress shows it is past its start
      var waited = 0
      while (text(folder.file("first.err")) ?? "").isEmpty && first.isRunning && waited < 6_000 {
        usleep(10_000)
        waited += 1
      }
      let second = try runBench(arguments + ["--quiet"], in: folder.path)
      let firstStillRuns = first.isRunning
      kill(first.processIdentifier, SIGINT)
      waitForExit(of: first, seconds: 60, "the first run after SIGINT")
      #expect(firstStillRuns, "the second run ended after the first: it did its work")
      expectOneError(
        second, code: 73, "'shared.csv' is being written by another bench process: name a new file with --out")
      #expect(folder.contents() == ["first.err"], "\(folder.contents())")
    }
  }

  /// `bench list | head -1`: the reader goes away and the write fails with
  /// EPIPE. That is the reader's choice, not bench's failure: bench stops
  /// writing and ends quietly with exit 0.
  @Test func aClosedPipeEndsQuietly() throws {
    let bench = try #require(benchExecutable)
    try withTemporaryFolder { folder in
      let process = Process()
      process.executableURL = bench
      process.arguments = ["list"]
      let pipe = Pipe()
      try pipe.fileHandleForReading.close()  // no reader at all
      process.standardOutput = pipe
      try folder.write("err", "")
      process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.file("err")))
      try process.run()
      waitForExit(of: process, seconds: 60, "bench list into a closed pipe")
      #expect(process.terminationReason == .exit && process.terminationStatus == 0)
      #expect(text(folder.file("err")) == "")
    }
  }

  /// Short names, `-` and names that end in a dot are names like others
  /// (`--out a` crashed in Foundation's path code); `-` is standard output
  /// for `query`.
  @Test func shortNamesAndDashAreHandled() throws {
    try withTemporaryFolder { folder in
      try Self.prepared(folder)
      let query = ["query", "--index", "grid", "--points", "good.csv", "--queries", "good-queries.csv"]
      let a = try runBench(query + ["--out", "a"], in: folder.path)
      #expect(a.code == 0)
      #expect(text(folder.file("a"))?.hasPrefix("query,count,id_sum\n") == true)
      let dash = try runBench(query + ["--out", "-"], in: folder.path)
      #expect(dash.code == 0)
      #expect(dash.stdout == text(folder.file("a")))
      let dot = try runBench(query + ["--out", "sub/."], in: folder.path)
      #expect(dot.code == 73)
    }
  }
}
