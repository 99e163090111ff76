import BenchHarness
import Testing

@testable import BenchCommands

/// `bench compare` on hand-made reports: its exit codes, and that it never
/// writes to either input.
extension CLITests {
  @Suite struct CompareCommandTests {
    /// The rows of a small run: one index, every query workload.
    static let baseline = [
      reportRow(workload: "build", resultsTotal: 200, checksum: 200, counters: .none),
      reportRow(workload: "viewport"),
      reportRow(workload: "cluster", strategy: "per-cell", resultsTotal: 160, checksum: 0xC3F6),
      reportRow(workload: "cluster", strategy: "single-pass", resultsTotal: 160, checksum: 0xC3F6),
    ]

    /// Writes both reports, runs `bench compare` on them, checks that neither
    /// file changed and returns the exit code.
    private func compare(
      _ old: [ReportRow], _ new: [ReportRow], extra: [String] = [],
      sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int32 {
      try withTemporaryFolder { folder in
        let a = folder.file("old.csv"), b = folder.file("new.csv")
        try ReportFile.write(old, to: a)
        try ReportFile.write(new, to: b)
        let before = (bytes(a), bytes(b))
        let code = benchMain(["compare", a, b] + extra)
        #expect(bytes(a) == before.0 && bytes(b) == before.1, sourceLocation: sourceLocation)
        #expect(folder.contents() == ["new.csv", "old.csv"], sourceLocation: sourceLocation)
        return code
      }
    }

    /// `baseline` with the viewport row changed by `change`.
    private func changed(_ change: (inout ReportRow) -> Void) -> [ReportRow] {
      var rows = Self.baseline
      change(&rows[1])
      return rows
    }

    @Test func noChangeIs0() throws {
      #expect(try compare(Self.baseline, Self.baseline) == 0)
      // Row order does not matter; the join is by key.
      #expect(try compare(Self.baseline, Self.baseline.reversed()) == 0)
    }

    @Test func counterIncreaseIs1() throws {
      let more = changed { $0.counters.nodesVisited = 31 }
      #expect(try compare(Self.baseline, more) == 1)
      let fewer = changed { $0.counters.pointsTested = 599 }
      #expect(try compare(Self.baseline, fewer) == 0)  // an improvement
    }

    @Test func timingRegressionWithDisjointIntervalsIs1() throws {
      // 1000 ± 10 → 1300 ± 10: 30% slower, [990, 1010] and [1290, 1310] do not overlap.
      let slower = changed { $0 = reportRow(median: 1_300) }
      #expect(try compare(Self.baseline, slower) == 1)
      // 30% slower but ± 300: [1000, 1600] overlaps [990, 1010], within noise.
      let noisy = changed { $0 = reportRow(median: 1_300, halfWidth: 300) }
      #expect(try compare(Self.baseline, noisy) == 0)
      // 5% slower, disjoint: below the default 10% threshold, but not below 2%.
      let slightly = changed { $0 = reportRow(median: 1_050, halfWidth: 1) }
      #expect(try compare(Self.baseline, slightly) == 0)
      #expect(try compare(Self.baseline, slightly, extra: ["--threshold", "2"]) == 1)
      // Faster is never a regression.
      let faster = changed { $0 = reportRow(median: 500) }
      #expect(try compare(Self.baseline, faster) == 0)
    }

    @Test func changedAnswersAre1() throws {
      #expect(try compare(Self.baseline, changed { $0.checksum ^= 1 }) == 1)
      #expect(try compare(Self.baseline, changed { $0.resultsTotal += 1 }) == 1)
    }

    @Test func lostBaselineRowsOrNoRowInCommonAre1() throws {
      #expect(try compare(Self.baseline, Array(Self.baseline.prefix(2))) == 1)
      #expect(try compare(Self.baseline, Array(Self.baseline.prefix(2)), extra: ["--allow-missing"]) == 0)
      #expect(try compare(Self.baseline, Self.baseline + [reportRow(index: "grid")]) == 0)
      let elsewhere = Self.baseline.map { row in
        var r = row
        r.key.dataset = "elsewhere"
        return r
      }
      #expect(try compare(Self.baseline, elsewhere, extra: ["--allow-missing"]) == 1)
    }

    /// The gate that could be fooled: a current report without counters
    /// against a baseline with them said "no regression" and exited 0.
    @Test func countersOnlyInTheBaselineAre1UnlessAllowed() throws {
      let uncounted = Self.baseline.map { row in
        var r = row
        r.counters = .none
        return r
      }
      #expect(try compare(Self.baseline, uncounted) == 1)
      #expect(try compare(Self.baseline, uncounted, extra: ["--allow-missing"]) == 0)
      #expect(try compare(uncounted, Self.baseline) == 0)
    }

    /// A report with two rows for one key is refused (exit 65), naming the
    /// file and both lines: compare used the last and hid a regressed
    /// earlier one.
    @Test func duplicateRowsAreRefusedByLine() throws {
      try withTemporaryFolder { folder in
        let regressed = changed { $0 = reportRow(median: 5_000) }[1]
        try ReportFile.write(Self.baseline, to: folder.file("old.csv"))
        try ReportFile.write([Self.baseline[0], regressed] + Self.baseline.dropFirst(), to: folder.file("new.csv"))
        let result = try runBench(["compare", "old.csv", "new.csv"], in: folder.path)
        expectOneError(
          result, code: 65,
          "bad report 'new.csv': lines 3 and 4 hold rows for one key (kdtree[nodeSize=64] uniform n=200 viewport):"
            + " compare needs one row per key (keep one of them)")
        #expect(try runBench(["compare", "new.csv", "old.csv"], in: folder.path).code == 65)
        #expect(try runBench(["compare", "new.csv", "old.csv", "--allow-missing"], in: folder.path).code == 65)
      }
    }

    @Test func missingOrBadReports() throws {
      try withTemporaryFolder { folder in
        let good = folder.file("good.csv")
        try ReportFile.write(Self.baseline, to: good)
        let before = bytes(good)
        #expect(benchMain(["compare", good, folder.file("missing.csv")]) == 66)
        #expect(benchMain(["compare", folder.file("missing.csv"), good]) == 66)
        let bad = try folder.write("bad.csv", "index,n\nkdtree,1\n")
        #expect(benchMain(["compare", good, bad]) == 65)
        #expect(text(bad) == "index,n\nkdtree,1\n")
        #expect(bytes(good) == before)
        #expect(folder.contents() == ["bad.csv", "good.csv"])
      }
    }
  }
}
