@testable import BenchCommands
import Foundation
import Testing

/// `bench verify`'s sessions and `bench fuzz`'s command line.
extension CLITests {
  @Suite struct FuzzCommandTests {
    /// By default verify checks the map session, then the adversarial one;
    /// `--session` picks one. Each line names its session.
    @Test func verifyRunsBothSessionsOrTheOneNamed() throws {
      try withTemporaryFolder { folder in
        func sessions(_ extra: [String]) throws -> [String] {
          // not --quiet: it would print only what differs
          let tiny = ["--dataset", "uniform", "--n", "200", "--steps", "5"]
          let result = try runBench(["verify"] + tiny + ["--workload", "viewport,nearest"] + extra, in: folder.path)
          #expect(result.code == 0, "\(result.stderr)")
          return result.stdout.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            return words.count > 3 && words[1].hasPrefix("n=") ? String(words[2]) : nil
          }
        }
        let both = try sessions([])
        #expect(Set(both) == ["map", "adversarial"])
        #expect(both.firstIndex(of: "adversarial")! > both.lastIndex(of: "map")!, "the map session first")
        #expect(Set(try sessions(["--session", "adversarial"])) == ["adversarial"])
        #expect(Set(try sessions(["--session", "map"])) == ["map"])
        #expect(Set(try sessions(["--session", "all"])) == ["map", "adversarial"])
        let bad = try runBench(["verify"] + tinySession + ["--session", "maps"], in: folder.path)
        #expect(bad.code == 64)
        #expect(bad.stderrLines.first == "bench: unknown session \"maps\" (did you mean map?)")
        let notForRun = try runBench(["run"] + tinyRun + ["--session", "map"], in: folder.path)
        #expect(notForRun.code == 64)
      }
    }

    @Test func fuzzRefusesBadOptions() throws {
      try withTemporaryFolder { folder in
        for (arguments, message) in [
          (["--seconds", "0"], "--seconds 0 runs without a time limit: give --cases N too"),
          (["--seconds", "-1"], "--seconds \"-1\" must be seconds in 0...604800 (0: no limit, with --cases)"),
          (["--cases", "0"], "--cases 0 must be at least 1"),
          (["--seed", "x"], "--seed \"x\" is not a non-negative whole number"),
          (["--case"], "--case needs a value"),
        ] {
          let result = try runBench(["fuzz"] + arguments, in: folder.path)
          #expect(result.code == 64, "\(arguments)")
          #expect(result.stderrLines.first == "bench: " + message, "\(arguments)")
        }
      }
    }

    /// One case, twice: the same cases, the same failures, whatever ran
    /// before (the summary's times aside).
    @Test func aCaseIsReproducedBySeedAndNumber() throws {
      try withTemporaryFolder { folder in
        let runs = try (0..<2).map { _ in
          try runBench(["fuzz", "--seed", "11", "--case", "4", "--quiet"], in: folder.path)
        }
        for r in runs { #expect(r.code == 0 || r.code == 1, "\(r.stderr)") }
        #expect(runs[0].code == runs[1].code)
        let lines = runs.map { $0.stdout.split(separator: "\n").filter { !$0.hasPrefix("fuzz: 1 case in") } }
        #expect(lines[0] == lines[1])
        #expect(runs[0].stdout.contains("fuzz: 1 case in "))
        #expect(runs[0].stdout.hasPrefix("fuzz: seed 11, indexes linear, quadtree, grid, kdtree, rtree, celltree;"))
      }
    }
  }
}
