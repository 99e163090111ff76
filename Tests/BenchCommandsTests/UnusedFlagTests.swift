import Foundation
import Testing

/// Every command accepts exactly the flags it uses: a flag it has no use
/// for, or a flag given twice, is a usage error (exit 64) before any work,
/// where it used to be accepted in silence.
@Suite struct UnusedFlagTests {
  /// `--dataset missing.csv` makes a command that parsed its flags fail on
  /// its input (exit 66): a 64 shows the flags were refused first.
  static let missing = ["--dataset", "missing.csv"]

  @Test(arguments: [
    ("export", ["--repeat", "3"], "--repeat does not apply to bench export (it times nothing)"),
    ("export", ["--counters"], "--counters does not apply to bench export (it times nothing)"),
    ("export", ["--append"],
     "--append does not apply to bench export (its files are --points-out, --queries-out and --taps-out)"),
    ("export", ["--index", "grid"],
     "--index does not apply to bench export (it writes the points and steps; it builds no index and runs no workload)"),
    ("verify", ["--out", "r.csv"],
     "--out does not apply to bench verify (it writes no report: its answer is what it prints and its exit code)"),
    ("verify", ["--repeat", "2"], "--repeat does not apply to bench verify (it times nothing)"),
    ("verify", ["--counters"], "--counters does not apply to bench verify (it times nothing)"),
  ])
  func aFlagACommandDoesNotUseIsRefused(command: String, arguments: [String], message: String) throws {
    try withTemporaryFolder { folder in
      let outputs = command == "export" ? ["--points-out", "p.csv", "--queries-out", "q.csv"] : []
      let result = try runBench([command] + Self.missing + arguments + outputs, in: folder.path)
      #expect(result.code == 64, "\(result.stderr)")
      #expect(result.stderrLines.first == "bench: " + message)
      #expect(folder.contents().isEmpty)
    }
  }

  /// A repeated flag took its last value without a word: now every
  /// command refuses it, in either form (`--n 10 --n=20`).
  @Test(arguments: [
    ("run", ["--seed", "1", "--seed", "2"], "--seed"),
    ("run", ["--n", "10", "--n=20"], "--n"),
    ("run", ["--quiet", "--quiet"], "--quiet"),
    ("verify", ["--index", "grid", "--index", "kdtree"], "--index"),
    ("export", ["--points-out", "a.csv", "--points-out", "b.csv", "--queries-out", "q.csv"], "--points-out"),
    ("query", ["--index", "grid", "--index", "kdtree", "--points", "missing.csv", "--queries", "q.csv"], "--index"),
    ("recommend", ["--fps", "60", "--fps", "120"], "--fps"),
    ("render", ["--center", "0,0", "--zoom", "3", "--zoom", "4"], "--zoom"),
    ("report", ["missing.csv", "--out", "a.html", "--out", "b.html"], "--out"),
    ("compare", ["a.csv", "b.csv", "--threshold", "5", "--threshold", "6"], "--threshold"),
    ("plot", ["missing.csv", "--out", "a", "--out", "b"], "--out"),
    ("speed", ["--n", "10", "--n", "2000000000"], "--n"),
    ("peer", ["postgis", "--steps", "5", "--steps", "6"], "--steps"),
  ])
  func aFlagGivenTwiceIsAUsageError(command: String, arguments: [String], flag: String) throws {
    try withTemporaryFolder { folder in
      let takesDataset = ["run", "verify", "export", "recommend", "render", "peer"].contains(command)
      let result = try runBench([command] + arguments + (takesDataset ? Self.missing : []), in: folder.path)
      #expect(result.code == 64, "\(result.stderr)")
      #expect(result.stderrLines.first == "bench: \(flag) is given twice: give it once")
      #expect(folder.contents().isEmpty)
    }
  }

  /// A section of `bench list` named twice is one mistake like the others.
  @Test func listRefusesASectionTwice() throws {
    try withTemporaryFolder { folder in
      let result = try runBench(["list", "--indexes", "--indexes"], in: folder.path)
      #expect(result.code == 64)
      #expect(result.stderrLines.first == "bench: --indexes is given twice: give it once")
    }
  }

  /// `--quiet` means something wherever it is accepted: `export` then
  /// prints nothing once its files are written.
  @Test func exportQuietPrintsNothing() throws {
    try withTemporaryFolder { folder in
      let data = ["export", "--dataset", "uniform", "--n", "50", "--steps", "3", "--points-out", "p.csv",
                  "--queries-out", "q.csv"]
      let loud = try runBench(data, in: folder.path)
      #expect(loud.code == 0 && loud.stderrLines == ["bench: wrote 50 points and 3 steps to p.csv, q.csv"])
      let quiet = try runBench(data.map { $0.replacingOccurrences(of: ".csv", with: "2.csv") } + ["--quiet"],
                               in: folder.path)
      #expect(quiet.code == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
  }

  /// and `verify` prints only what differs and its closing line.
  @Test func verifyQuietPrintsOnlyTheVerdict() throws {
    try withTemporaryFolder { folder in
      let data = ["verify", "--dataset", "uniform", "--n", "50", "--steps", "3", "--index", "grid"]
      let loud = try runBench(data, in: folder.path)
      #expect(loud.code == 0 && loud.stdout.contains(" viewport: 3 steps ok\n"), "\(loud.stdout)")
      let quiet = try runBench(data + ["--quiet"], in: folder.path)
      #expect(quiet.code == 0 && quiet.stdout == "verify: every index agrees with the linear scan\n", "\(quiet.stdout)")
    }
  }
}
