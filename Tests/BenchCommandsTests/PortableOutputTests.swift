import BenchFormats
import BenchHarness
import BenchWorkloads
import Foundation
import Testing

@testable import BenchCommands

/// The forms a run leaves for other tools: JSON reports, Markdown
/// comparisons, exported sessions that drive a run again, and the tables
/// the documentation holds, all from the same declarations.
extension CLITests {
  @Suite struct PortableOutputTests {
    /// The package root (three folders above this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path

    @Test func jsonHoldsTheRowsAndTheRunOnce() throws {
      try withTemporaryFolder { folder in
        let out = folder.file("r.csv"), json = folder.file("r.json")
        let code = benchMain(["run"] + tinyRun + ["--index", "kdtree,grid", "--out", out, "--json", json])
        #expect(code == 0)
        let rows = try ReportFile.read(out)
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect(object["format"] as? String == "spatialbench-report")
        #expect(object["version"] as? Int == ReportSchema.version)
        let run = try #require(object["run"] as? [String: Any])
        #expect(run["seed"] as? Int == 42)
        #expect(run["git_commit"] as? String == rows[0].run.gitCommit)
        let jsonRows = try #require(object["rows"] as? [[String: Any]])
        #expect(jsonRows.count == rows.count)
        let columns = try #require(object["columns"] as? [[String: Any]])
        #expect(columns.map { $0["name"] as? String } == ReportColumn.all.filter { $0.group != .run }.map(\.name))
        for (j, r) in zip(jsonRows, rows) {
          #expect(j["index"] as? String == r.key.index && j["n"] as? Int == r.key.n)
          #expect((j["median_ns"] as? Double).map { abs($0 - r.timing.median) < 1e-6 } == true)
          #expect(j["checksum"] as? String == CSVWriter.hexField(r.checksum))
          #expect(j["noisy"] as? Bool == r.timing.noisy)
          #expect(j["seed"] == nil, "run columns are in run, once")
          if r.key.workload == "build" { #expect(j["churn"] is NSNull) }
        }
      }
    }

    @Test func jsonAndTheReportMustBeTwoFiles() throws {
      try withTemporaryFolder { folder in
        let same = try runBench(["run"] + tinyRun + ["--out", "r.csv", "--json", "r.csv"], in: folder.path)
        #expect(same.code == 64 && same.stderrLines.first == "bench: --out 'r.csv' and --json 'r.csv' name the same file")
        #expect(folder.contents().isEmpty)
      }
    }

    @Test func markdownIsATableForAPullRequest() throws {
      try withTemporaryFolder { folder in
        var slower = CompareCommandTests.baseline
        slower[1].timing.median *= 3
        slower[1].timing.ciLow *= 3
        slower[1].timing.ciHigh *= 3
        slower[1].counters.pointsTested = slower[1].counters.pointsTested.map { $0 + 1 }
        let a = folder.file("old.csv"), b = folder.file("new.csv")
        try ReportFile.write(CompareCommandTests.baseline, to: a)
        try ReportFile.write(slower, to: b)
        var code: Int32 = -1
        let printed = try captureStandardOutput { code = benchMain(["compare", a, b, "--markdown"]) }
        #expect(code == 1)
        let lines = printed.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("**Result: regression.** 4 rows compared (threshold 10%): 1 slower, 0 faster"))
        #expect(lines[0].contains("1 counter increases; 0 answer changes."))
        #expect(lines.contains("| row | median old | median new | ratio | timing | work | answers |"))
        let row = try #require(lines.first { $0.contains("viewport") && $0.hasPrefix("| `") })
        #expect(row.contains("| 3.000× | **regressed** | **regressed** | same |"), "\(row)")
      }
    }

    /// An exported session run through `--queries` is the same work: the
    /// viewport and cluster answers match the session's, checksum for checksum.
    @Test func anExportedSessionDrivesTheSameRun() throws {
      try withTemporaryFolder { folder in
        let p = folder.file("p.csv"), q = folder.file("q.csv")
        let data = ["--dataset", "clustered", "--n", "2000", "--steps", "25", "--quiet"]
        let setup = data + ["--repeat", "1", "--warmup", "0"]
        #expect(benchMain(["export"] + data + ["--points-out", p, "--queries-out", q]) == 0)
        let workloads = ["--workload", "viewport,cluster", "--index", "kdtree,quadtree"]
        let session = folder.file("s.csv"), fromFile = folder.file("f.csv")
        #expect(benchMain(["run"] + setup + workloads + ["--out", session]) == 0)
        #expect(benchMain(["run"] + setup + workloads + ["--queries", q, "--out", fromFile]) == 0)
        let a = try ReportFile.read(session).filter { $0.key.zooms == "all" }
        let b = try ReportFile.read(fromFile).filter { $0.key.zooms == "all" }
        #expect(a.count == 2 * 4 && b.count == a.count)
        for (x, y) in zip(a, b) {
          #expect(x.key == y.key && x.checksum == y.checksum && x.resultsTotal == y.resultsTotal, "\(x.key)")
        }
        #expect(a.first { $0.key.workload == "cluster" }?.resultsTotal ?? 0 > 0)
      }
    }

    @Test func aQueriesFileWithoutZoomsRunsOnlyTheViewportWorkload() throws {
      try withTemporaryFolder { folder in
        try folder.write("q.csv", "min_lat,min_lon,max_lat,max_lon\n-1,-1,1,1\n")
        let refused = try runBench(["run"] + tinyRun + ["--queries", "q.csv"], in: folder.path)
        #expect(refused.code == 64)
        #expect(refused.stderrLines.first
          == "bench: q.csv has no zoom column (or a row without a zoom): the cluster workload needs a zoom for each viewport")
        let viewport = try runBench(
          ["run"] + tinyRun + ["--queries", "q.csv", "--workload", "viewport", "--out", "r.csv"], in: folder.path)
        #expect(viewport.code == 0, "\(viewport.stderr)")
      }
    }

    @Test func exportWritesTapsThatReadBack() throws {
      try withTemporaryFolder { folder in
        let p = folder.file("p.csv"), q = folder.file("q.csv"), t = folder.file("t.csv")
        #expect(benchMain(["export"] + tinySession + ["--points-out", p, "--queries-out", q, "--taps-out", t]) == 0)
        let taps = try TapsFile(contentsOf: t)
        #expect(taps.taps.count == 5)
        let same = try runBench(
          ["export"] + tinySession + ["--points-out", "a.csv", "--queries-out", "b.csv", "--taps-out", "a.csv"],
          in: folder.path)
        #expect(same.code == 64)
        #expect(same.stderrLines.first == "bench: --points-out 'a.csv' and --taps-out 'a.csv' name the same file")
      }
    }

    /// The tables in the documentation are the catalogues' own: a workload or
    /// a column added without pasting `bench list --markdown` fails here.
    @Test func theDocumentedTablesAreTheCataloguesTables() throws {
      let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
      let formats = try String(contentsOfFile: Self.root + "/docs/formats.md", encoding: .utf8)
      #expect(readme.contains(Listing.workloadTable), "the workloads' table in README.md: bench docs")
      #expect(formats.contains(Listing.columnTable), "the columns' table in docs/formats.md: bench docs")
    }

    /// `bench help` said that `query` writes `query,count,id_sum`, which is
    /// the viewport's answer only. It lists every workload's columns, from
    /// the registry.
    @Test func theOverviewGivesEachWorkloadsAnswerColumns() throws {
      let overview = try captureStandardOutput { _ = benchMain(["help"]) }
      #expect(!overview.contains("(query,count,id_sum)"))
      let lines = overview.split(separator: "\n").map(String.init)
      for type in WorkloadCatalog.all {
        let columns = "query," + type.answerColumns.joined(separator: ",")
        #expect(lines.contains { $0.hasPrefix("  \(type.name) ") && $0.hasSuffix(" " + columns) }, "\(type.name)")
      }
    }

    @Test func listAndUsageNameEveryWorkload() throws {
      var code: Int32 = -1
      let listed = try captureStandardOutput { code = benchMain(["list", "--workloads"]) }
      #expect(code == 0)
      let names = listed.split(separator: "\n").filter { $0.contains("  # ") }.map { String($0.prefix { $0 != " " }) }
      #expect(names == [WorkloadCatalog.buildName] + WorkloadCatalog.names)
      for name in WorkloadCatalog.names {
        #expect(Usage.runOptions.contains(name) && Usage.text(for: "query").contains(name))
      }
    }
  }
}
