import BenchFormats
import BenchHarness
import Foundation
import Testing

@testable import BenchCommands
import BenchWorkloads
import SpatialIndexes
import _BenchTestSupport
import _SpatialTestSupport

/// `bench run`, `verify`, `export` and `list` end to end on tiny datasets.
extension CLITests {
  @Suite struct RunCommandTests {
    /// Runs `bench run` on the tiny dataset, writing to `out`.
    private func run(_ arguments: [String], out: String) -> Int32 {
      benchMain(["run"] + tinyRun + arguments + ["--out", out])
    }

    @Test func tinyRunWritesTheExpectedRows() throws {
      try withTemporaryFolder { folder in
        let out = folder.file("r.csv")
        #expect(run(["--index", "grid,kdtree"], out: out) == 0)
        // The report and its page; no temporary file left behind.
        #expect(folder.contents() == ["r.csv", "r.html"])
        let page = try #require(text(folder.file("r.html")))
        #expect(SVGDocument(page) != nil, "the page is well-formed")
        #expect(page.contains("class=\"verdict met\""))
        let rows = try wholeRunRows(out)
        let keys = rows.map { "\($0.key.index) \($0.key.workload)/\($0.key.strategy)" }
        var expected: [String] = []
        for index in ["grid", "kdtree"] {
          expected += ["build/", "viewport/", "cluster/per-cell", "cluster/single-pass", "cluster/aggregate"]
            .map { "\(index) \($0)" }
        }
        #expect(keys == expected)
        #expect(rows.allSatisfy { $0.key.dataset == "uniform" && $0.key.n == 200 })
        #expect(rows.allSatisfy { $0.run.seed == 42 && $0.timing.samples >= 1 })
        // Without --counters, counters are not recorded.
        #expect(rows.allSatisfy { $0.counters == .none })

        // The same answers from every index, workload by workload.
        for workload in ["build", "viewport", "cluster"] {
          let group = rows.filter { $0.key.workload == workload }
          #expect(Set(group.map(\.checksum)).count == 1, "\(workload)")
          #expect(Set(group.map(\.resultsTotal)).count == 1, "\(workload)")
        }
        #expect(answerMismatches(rows).isEmpty)
        let viewport = rows.filter { $0.key.workload == "viewport" }
        #expect(viewport.allSatisfy { $0.resultsTotal > 0 })
        #expect(rows.filter { $0.key.workload == "build" }.allSatisfy { $0.resultsTotal == 200 })
      }
    }

    /// `--filter` and `--aggregate` measure filtered work: the viewport,
    /// cluster and tap rows name the filter (cluster rows the aggregates
    /// too), every index gives the same answers, and they differ from the
    /// unfiltered run's; build rows filter nothing and say so.
    @Test func aFilteredRunNamesItsFilterInEveryFilteredRow() throws {
      try withTemporaryFolder { folder in
        let base = ["run", "--dataset", "hotels", "--n", "1500", "--steps", "12", "--repeat", "1", "--warmup", "0",
                    "--budget", "0", "--index", "linear,grid,celltree", "--workload", "build,viewport,cluster,tap",
                    "--quiet"]
        let filter = "stars >= 4 and chain in (chain-1, chain-2)"
        let filtered = folder.file("f.csv"), plain = folder.file("p.csv")
        #expect(benchMain(base + ["--filter", filter, "--aggregate", "sum:price,max:price", "--out", filtered]) == 0)
        #expect(benchMain(base + ["--out", plain]) == 0)
        let rows = try wholeRunRows(filtered), plainRows = try wholeRunRows(plain)
        for r in rows {
          let expected = switch r.key.workload {
          case "build": ""
          case "cluster": filter + " aggregate sum:price,max:price"
          default: filter
          }
          #expect(r.key.filter == expected, "\(r.key)")
        }
        #expect(answerMismatches(rows).isEmpty)
        for workload in ["viewport", "cluster", "tap"] {
          let f = Set(rows.filter { $0.key.workload == workload }.map(\.checksum))
          let p = Set(plainRows.filter { $0.key.workload == workload }.map(\.checksum))
          #expect(f.count == 1 && p.count == 1 && f != p, "\(workload)")
        }
        // the filtered cluster rows keep the property columns beside the clusterer
        let filteredBytes = rows.filter { $0.key.workload == "cluster" }.compactMap(\.workloadBytes)
        let plainBytes = plainRows.filter { $0.key.workload == "cluster" }.compactMap(\.workloadBytes)
        #expect(zip(filteredBytes, plainBytes).allSatisfy { $0 > $1 })
        // compare joins the build rows only
        let comparison = Comparison(
          baseline: try ReportFile.read(plain), current: try ReportFile.read(filtered), threshold: 0.1)
        #expect(comparison.entries.allSatisfy { $0.key.workload == "build" })
      }
    }

    @Test func filterMistakesExit64() throws {
      try withTemporaryFolder { folder in
        let base = ["run", "--n", "500", "--steps", "4", "--repeat", "1", "--quiet", "--out", folder.file("r.csv")]
        let cases: [([String], String)] = [
          (["--filter", "stars >= 4", "--workload", "all", "--dataset", "hotels"],
           "bench: --filter is for the viewport, cluster, tap workloads, not filters, nearest, live"),
          (["--aggregate", "sum:price", "--workload", "viewport", "--dataset", "hotels"],
           "bench: --aggregate is for the cluster workload"),
          (["--filter", "strs >= 4", "--dataset", "hotels"],
           #"bench: --filter: no property called "strs" (did you mean "stars"?"#),
          (["--filter", "stars >= 4", "--dataset", "uniform"], #"bench: --filter: no property called "stars" (the points have none)"#),
        ]
        for (extra, message) in cases {
          let r = try runBench(base + extra, in: folder.path)
          #expect(r.code == 64, "\(extra)")
          #expect(r.stderrLines.first?.hasPrefix(message) == true, "\(r.stderrLines)")
        }
        #expect(folder.contents().isEmpty, "no report written")
      }
    }

    /// `bench verify` on hotels also checks the default filters, every
    /// filtered workload of every index; a given `--filter` replaces them,
    /// and a misspelt one exits 64.
    /// The filter session runs on data with controls, its rows naming
    /// them; verify checks it; on data without controls a run that names it
    /// exits 64 and one that asks for all leaves it out, saying so.
    @Test func theFilterSessionRunsWhereTheDataHaveControls() throws {
      try withTemporaryFolder { folder in
        let base = ["--n", "1200", "--steps", "20", "--repeat", "1", "--warmup", "0", "--budget", "0",
                    "--index", "linear,grid,celltree", "--quiet"]
        let out = folder.file("s.csv")
        let run = try runBench(["run", "--dataset", "hotels", "--workload", "filters", "--out", out] + base, in: folder.path)
        #expect(run.code == 0, "\(run.stderr)")
        let rows = try wholeRunRows(out).filter { $0.key.workload == "filters" }
        #expect(rows.count == 3 * 3, "three indexes, three strategies")
        #expect(rows.allSatisfy { $0.key.filter == "chips chain,stars slider price<= aggregate min:price" })
        #expect(Set(rows.map(\.checksum)).count == 1 && answerMismatches(rows).isEmpty)

        let verify = try runBench(
          ["verify", "--dataset", "places", "--workload", "filters", "--session", "map"] + base.prefix(4)
            + ["--index", "linear,kdtree"], in: folder.path)
        #expect(verify.code == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("map kdtree(nodeSize=64,threads=auto) filters/aggregate: 20 steps ok"))

        let named = try runBench(["run", "--dataset", "uniform", "--workload", "filters"] + base, in: folder.path)
        #expect(named.code == 64)
        #expect(named.stderr.contains("the filters workload: \"uniform\" has no filter controls; it runs on hotels"))
        let all = try runBench(
          ["verify", "--dataset", "uniform", "--workload", "all", "--session", "map"] + base.prefix(4)
            + ["--index", "linear,kdtree"], in: folder.path)
        #expect(all.code == 0)
        #expect(all.stderr.contains("bench: the filters workload is left out: \"uniform\" has no filter controls"))
        #expect(!all.stdout.contains(" filters"))
      }
    }

    @Test func verifyChecksFilters() throws {
      try withTemporaryFolder { folder in
        let base = ["verify", "--dataset", "hotels", "--n", "800", "--steps", "6", "--index", "linear,kdtree",
                    "--session", "map"]
        let r = try runBench(base, in: folder.path)
        #expect(r.code == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let filtered = lines.filter { $0.contains(" {") }
        #expect(filtered.contains(
          "hotels n=800 map kdtree(nodeSize=64,threads=auto) cluster/aggregate {chain in (chain-7) aggregate sum:price,min:price,max:price}: 6 steps ok"))
        #expect(filtered.contains("hotels n=800 map kdtree(nodeSize=64,threads=auto) viewport {stars >= 4 and price <= 150}: 6 steps ok"))
        // two checks, each of viewport and three strategies on kdtree, two strategies on linear
        #expect(filtered.count == 2 * (4 + 2))
        let given = try runBench(base + ["--filter", "chain = chain-2", "--workload", "cluster"], in: folder.path)
        #expect(given.code == 0)
        #expect(given.stdout.split(separator: "\n").filter { $0.contains(" {chain = chain-2}: 6 steps ok") }.count == 5)
        let wrong = try runBench(base + ["--filter", "chan = chain-2"], in: folder.path)
        #expect(wrong.code == 64)
      }
    }

    @Test func answerMismatchesNamesTheDifferingIndex() {
      let a = reportRow(index: "grid", resultsTotal: 10, checksum: 1)
      let b = reportRow(index: "kdtree", resultsTotal: 10, checksum: 2)
      let build = reportRow(index: "kdtree", workload: "build", resultsTotal: 3, checksum: 3)
      #expect(answerMismatches([a, a, build]).isEmpty)
      let problems = answerMismatches([a, b, build])
      #expect(problems.count == 1)
      #expect(problems.first?.contains("kdtree") == true)
    }

    @Test func appendAddsRowsAndKeepsTheOldBytes() throws {
      try withTemporaryFolder { folder in
        let out = folder.file("r.csv")
        #expect(run(["--index", "grid", "--workload", "viewport"], out: out) == 0)
        let old = try #require(bytes(out))
        #expect(
          run(["--index", "kdtree,linear", "--workload", "viewport", "--append"], out: out) == 0)
        let new = try #require(bytes(out))
        #expect(new.count > old.count)
        #expect(Array(new.prefix(old.count)) == old)
        let rows = try wholeRunRows(out)
        #expect(rows.map(\.key.index) == ["grid", "kdtree", "linear"])
        #expect(Set(rows.map(\.checksum)).count == 1)
        // The first run's page; an appended run writes none (it would show its own rows only).
        #expect(folder.contents() == ["r.csv", "r.html"])
        // --append to a file that is not there yet makes a new report.
        let fresh = folder.file("fresh.csv")
        #expect(run(["--index", "grid", "--workload", "viewport", "--append"], out: fresh) == 0)
        #expect(try wholeRunRows(fresh).count == 1)
      }
    }

    @Test func appendToAnotherHeaderIs65AndLeavesTheFile() throws {
      try withTemporaryFolder { folder in
        let args = ["--index", "grid", "--workload", "viewport", "--append"]
        // Not a report at all.
        let other = try folder.write("other.csv", "a,b\n1,2\n")
        #expect(run(args, out: other) == 65)
        #expect(text(other) == "a,b\n1,2\n")
        // A readable report whose header has one more column.
        let header = String(ReportSchema.headerLine.dropLast()) + ",extra\n"
        let row = String(ReportSchema.render([reportRow()]).split(separator: "\n")[1]) + ",x\n"
        let wider = try folder.write("wider.csv", header + row)
        #expect(try wholeRunRows(wider).count == 1)
        #expect(run(args, out: wider) == 65)
        #expect(text(wider) == header + row)
        // An empty file.
        let empty = try folder.write("empty.csv", "")
        #expect(run(args, out: empty) == 65)
        #expect(text(empty) == "")
        #expect(folder.contents() == ["empty.csv", "other.csv", "wider.csv"])
      }
    }

    @Test func countersAreRecorded() throws {
      try withTemporaryFolder { folder in
        let out = folder.file("r.csv")
        #expect(run(["--index", "kdtree,linear", "--workload", "all", "--counters"], out: out) == 0)
        let rows = try wholeRunRows(out)
        for row in rows where row.key.workload != "build" && !WorkloadCatalog.isPhaseRow(row.key.workload) {
          #expect(row.counters.nodesVisited != nil, "\(row.key)")
          #expect(row.counters.pointsTested != nil, "\(row.key)")
          #expect(row.counters.pointsReported != nil, "\(row.key)")
        }
        let viewport = rows.filter { $0.key.workload == "viewport" }
        #expect(viewport.count == 2)
        for row in viewport {
          #expect(row.counters.pointsReported == row.resultsTotal)
          #expect((row.counters.pointsTested ?? 0) >= row.resultsTotal)
        }
        // The linear scan tests every point on every query rectangle.
        let linear = try #require(viewport.first { $0.key.index == "linear" })
        #expect((linear.counters.pointsTested ?? 0) >= 200 * 5)
        // Build rows never have counters.
        #expect(rows.filter { $0.key.workload == "build" }.allSatisfy { $0.counters == .none })
      }
    }

    @Test func parameterSweepMakesOneRowPerValue() throws {
      try withTemporaryFolder { folder in
        let out = folder.file("r.csv")
        let code = run(
          ["--index", "quadtree", "--workload", "viewport", "--param", "capacity=4,16"], out: out)
        #expect(code == 0)
        let rows = try wholeRunRows(out)
        #expect(rows.count == 2)
        #expect(rows.map { $0.key.params.hasPrefix("capacity=4;") } == [true, false])
        #expect(rows.map { $0.key.params.hasPrefix("capacity=16;") } == [false, true])
        #expect(rows[0].checksum == rows[1].checksum)
      }
    }

    @Test func zeroPointsRunEveryWorkloadWithoutNaN() throws {
      try withTemporaryFolder { folder in
        let out = folder.file("r.csv")
        let code = benchMain(
          ["run", "--dataset", "uniform", "--n", "0", "--steps", "5", "--repeat", "1",
           "--warmup", "0", "--quiet", "--workload", "all", "--index", "all", "--counters",
           "--out", out])
        #expect(code == 0)
        let csv = try #require(text(out))
        let rows = try wholeRunRows(out)
        // every index × build and each workload variant that runs on it, with live's phases
        #expect(rows.count == RunRows.allIndexes)
        // the filter session needs properties: uniform has none
        #expect(Set(rows.map(\.key.workload)) == Set(
          ["build"] + WorkloadCatalog.all.filter { !$0.needsProperties }.map { $0.name } + ["live.update", "live.query"]))
        for row in rows {
          #expect(row.key.n == 0)
          #expect(row.bytesPerPoint == 0)
          #expect(row.resultsTotal == 0)
          #expect(row.timing.median.isFinite && row.buildMilliseconds.isFinite)
          if row.key.workload != "build" && !WorkloadCatalog.isPhaseRow(row.key.workload) {
            #expect(row.counters.pointsReported == 0)
          }
        }
        // Every figure from `samples` to `points_reported` is a plain finite
        // number: never "nan" or "inf", and never empty (the writer's spelling
        // of NaN), except counters, which build rows do not record.
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let first = ReportSchema.columns.firstIndex(of: "samples")!
        let last = ReportSchema.columns.firstIndex(of: "points_reported")!
        let counters = ReportSchema.columns.firstIndex(of: "nodes_visited")!
        let checksum = ReportSchema.columns.firstIndex(of: "checksum")!
        let churn = ReportSchema.columns.firstIndex(of: "churn")!
        let zooms = ReportSchema.columns.firstIndex(of: "zooms")!
        for line in lines.dropFirst() {
          let fields = line.split(separator: ",", omittingEmptySubsequences: false)
          #expect(fields.count == ReportSchema.columns.count)
          guard fields.count == ReportSchema.columns.count else { continue }
          // zoom-band and phase rows carry no counters or churn
          let isBand = fields[zooms] != "all" || line.contains(",live.update,") || line.contains(",live.query,")
          for c in first...last where c != checksum {
            let field = fields[c].lowercased()
            #expect(!field.contains("nan") && !field.contains("inf"), "\(ReportSchema.columns[c])")
            if field.isEmpty {
              let noCounters = c >= counters && (line.contains(",build,") || isBand)
              let noChurn = c == churn && (!line.contains(",cluster,") || isBand)
              #expect(noCounters || noChurn, "\(ReportSchema.columns[c]) empty")
            } else {
              #expect(Double(field)?.isFinite == true, "\(ReportSchema.columns[c]) \(field)")
            }
          }
        }
        // A header-only points file is N = 0 too.
        let empty = try folder.write("empty.csv", "lat,lon\n")
        let fileOut = folder.file("file.csv")
        #expect(
          benchMain(
            ["run", "--dataset", empty, "--steps", "3", "--repeat", "1", "--warmup", "0",
             "--quiet", "--workload", "all", "--index", "grid", "--out", fileOut]) == 0)
        let fileRows = try wholeRunRows(fileOut)
        // named by its path as given, with its fingerprint
        #expect(fileRows.allSatisfy { $0.key.n == 0 && $0.key.dataset == empty })
        #expect(fileRows.allSatisfy { $0.datasetOrigin == .file(FileFingerprint(of: Array("lat,lon\n".utf8))) })
      }
    }

    /// Each error: its exit code, one line on stderr naming the file (and
    /// the line and field for bad data), and no report. Run as a child
    /// process, so stderr is bench's alone.
    @Test func errorsWriteNoReport() throws {
      try withTemporaryFolder { folder in
        func run(_ arguments: [String], out: String = "r.csv") throws -> BenchResult {
          let options = overriding(tinyRun + ["--index", "grid"], with: arguments) + ["--out", out]
          return try runBench(["run"] + options, in: folder.path)
        }
        expectOneError(try run(["--dataset", "missing.csv"]), code: 66, "missing.csv: no such file")
        try folder.write("bad.csv", "lat,lon\n1,2\n95,3\n")
        let outside = "bad.csv:3: lat \"95\" is outside [-90, 90]"
        expectOneError(try run(["--dataset", "bad.csv"]), code: 65, outside)
        expectOneError(try run(["--dataset", "bad.csv", "--n", "1"]), code: 65, outside)
        expectOneError(try run(["--queries", "missing.csv"]), code: 66, "missing.csv: no such file")
        let misspelt = try run(["--dataset", "unifrom"])
        #expect(misspelt.code == 64)
        #expect(
          misspelt.stderrLines.first == "bench: unknown dataset \"unifrom\" (did you mean uniform?)")
        expectOneError(
          try run([], out: "missing/r.csv"), code: 73,
          "cannot create 'missing/r.csv': folder missing does not exist")
        expectOneError(try run([], out: "."), code: 73, "cannot create '.': is a folder")
        #expect(folder.contents() == ["bad.csv"])
        // More rows asked of a file than it has.
        try folder.write("small.csv", "lat,lon\n1,2\n")
        let tooMany = try run(["--dataset", "small.csv", "--n", "2"])
        #expect(tooMany.code == 64)
        #expect(tooMany.stderrLines.first == "bench: --n 2 exceeds the 1 rows of small.csv")
        #expect(folder.contents() == ["bad.csv", "small.csv"])
      }
    }

    @Test func queriesFileReplacesTheSession() throws {
      try withTemporaryFolder { folder in
        let points = try folder.write("p.csv", "id,lat,lon\n1,0,175\n2,0,-175\n3,0,0\n")
        let queries = try folder.write(
          "q.csv", "min_lat,min_lon,max_lat,max_lon\n-1,170,1,-170\n-1,-1,1,1\n-90,-180,90,180\n")
        let out = folder.file("r.csv")
        let code = benchMain(
          ["run", "--dataset", points, "--queries", queries, "--steps", "3", "--repeat", "1",
           "--warmup", "0", "--quiet", "--workload", "viewport", "--index", "all", "--out", out])
        #expect(code == 0)
        let rows = try wholeRunRows(out)
        #expect(rows.count == allIndexTypes.count)
        #expect(rows.allSatisfy { $0.resultsTotal == 2 + 1 + 3 })
        #expect(Set(rows.map(\.checksum)).count == 1)
      }
    }

    /// A queries file of positions drives the nearest workload at exactly
    /// its positions (the checksum is that of the answers worked out by
    /// hand: each position 0.1e-7° nearer one of two points 0.2e-7° apart),
    /// and the workloads that need viewports are refused.
    @Test func positionsDriveTheNearestWorkloadExactly() throws {
      try withTemporaryFolder { folder in
        let points = try folder.write("p.csv", "lat,lon\n0,0\n0,0.0000002\n10,10\n")
        let positions = try folder.write("q.csv", "lat,lon\n0,0.00000011\n0,0.00000009\n9.9,10\n")
        let out = folder.file("r.csv")
        let code = benchMain(
          ["run", "--dataset", points, "--queries", positions, "--repeat", "1", "--warmup", "0", "--quiet",
           "--workload", "nearest", "--strategy", "k=1", "--index", "all", "--out", out])
        #expect(code == 0)
        let rows = try wholeRunRows(out).filter { $0.key.workload == "nearest" }
        #expect(rows.count == allIndexTypes.count)
        var expected: UInt64 = 0
        for id: UInt64 in [1, 0, 2] { expected = expected &* 0x100_0000_01B3 &+ mix64(id) }
        #expect(rows.allSatisfy { $0.checksum == expected && $0.resultsTotal == 3 && $0.key.strategy == "k=1" })

        let viewport = try runBench(
          ["run", "--dataset", "p.csv", "--queries", "q.csv", "--workload", "viewport", "--quiet",
           "--out", "v.csv"], in: folder.path)
        #expect(viewport.code == 64)
        #expect(viewport.stderrLines.first
          == "bench: q.csv has positions, not viewports or taps: the viewport workload needs viewports")
        let export = try runBench(
          ["export", "--dataset", "p.csv", "--queries", "q.csv", "--points-out", "e.csv", "--queries-out",
           "eq.csv"], in: folder.path)
        #expect(export.code == 64)
        #expect(export.stderrLines.first
          == "bench: q.csv has positions, not viewports or taps: --queries-out writes viewports")
        #expect(folder.contents() == ["p.csv", "q.csv", "r.csv", "r.html"])
      }
    }

    @Test func verifyTinyDatasetIs0() {
      #expect(benchMain(["verify"] + tinySession) == 0)
      let all = ["--workload", "all", "--index", "quadtree,kdtree"]
      #expect(benchMain(["verify"] + tinySession + all) == 0)
      #expect(
        benchMain(["verify"] + tinySession + ["--index", "quadtree", "--param", "capacity=1,4"]) == 0)
      #expect(benchMain(["verify", "--dataset", "uniform", "--n", "0", "--steps", "3"]) == 0)
      #expect(benchMain(["verify", "--dataset", "unifrom", "--n", "10"]) == 64)
    }

    @Test func exportThenQueryRoundTrip() throws {
      try withTemporaryFolder { folder in
        let p = folder.file("points.csv"), q = folder.file("queries.csv")
        #expect(benchMain(["export"] + tinySession + ["--points-out", p, "--queries-out", q]) == 0)
        #expect(folder.contents() == ["points.csv", "queries.csv"])
        #expect(text(p)?.hasPrefix("id,lat,lon\n") == true)
        #expect(text(q)?.hasPrefix("min_lat,min_lon,max_lat,max_lon,zoom\n") == true)

        // The files read back; one query per session step.
        let out = folder.file("answers.csv")
        let query = ["query", "--index", "grid", "--points", p, "--queries", q, "--out", out]
        #expect(benchMain(query) == 0)
        let answers = queryRows(try #require(text(out)))
        #expect(answers.map(\.0) == Array(0..<5))

        // The same work as the run's viewport workload: the same points found.
        let report = folder.file("r.csv")
        #expect(run(["--index", "kdtree", "--workload", "viewport"], out: report) == 0)
        let viewport = try #require(try wholeRunRows(report).first)
        #expect(UInt64(answers.map(\.1).reduce(0, +)) == viewport.resultsTotal)
        // Generated points' ids are their rows, so each sum is a sum of rows.
        #expect(answers.allSatisfy { $0.2 <= UInt64($0.1 * 199) })

        // And the exported points run as a dataset file, with the same answers.
        let fromFile = folder.file("r2.csv")
        let code = benchMain(
          ["run", "--dataset", p, "--steps", "5", "--repeat", "1", "--warmup", "0", "--quiet",
           "--index", "kdtree", "--workload", "viewport", "--out", fromFile])
        #expect(code == 0)
        let again = try #require(try wholeRunRows(fromFile).first)
        #expect(again.checksum == viewport.checksum && again.resultsTotal == viewport.resultsTotal)
      }
    }

    @Test func exportErrorsWriteNothing() throws {
      try withTemporaryFolder { folder in
        func export(_ arguments: [String]) throws -> BenchResult {
          try runBench(["export"] + overriding(tinySession, with: arguments), in: folder.path)
        }
        // The second output cannot be created: neither file is written.
        try FileManager.default.createDirectory(
          atPath: folder.file("taken"), withIntermediateDirectories: false)
        expectOneError(
          try export(["--points-out", "points.csv", "--queries-out", "taken"]), code: 73,
          "cannot create 'taken': is a folder")
        expectOneError(
          try export(["--points-out", "points.csv", "--queries-out", "no/q.csv"]), code: 73,
          "cannot create 'no/q.csv': folder no does not exist")
        let twoSizes = try export(
          ["--n", "10,20", "--points-out", "points.csv", "--queries-out", "queries.csv"])
        #expect(twoSizes.code == 64)
        #expect(twoSizes.stderrLines.first == "bench: export takes one --n value")
        #expect(folder.contents() == ["taken"])
      }
    }

    @Test func listSucceeds() {
      #expect(benchMain(["list"]) == 0)
      #expect(benchMain(["list", "--indexes"]) == 0)
      #expect(benchMain(["list", "--workloads", "--datasets"]) == 0)
      #expect(benchMain(["list", "--help"]) == 0)
    }

    @Test func everyCommandHasHelp() {
      #expect(benchMain(["help"]) == 0 && benchMain(["--help"]) == 0 && benchMain(["-h"]) == 0)
      for command in Usage.commands {
        #expect(benchMain(["help", command]) == 0, "\(command)")
        if command != "help" {
          #expect(benchMain([command, "--help"]) == 0, "\(command)")
        }
      }
      #expect(benchMain(["run", "--index", "grid", "-h"]) == 0)
    }
  }
}

/// A dataset exported as binary points drives the same work as the dataset.
@Suite struct BinaryDatasetTests {
  @Test func anExportedBinaryFileGivesTheSameAnswers() throws {
    try withTemporaryFolder { folder in
      let export = try runBench(
        ["export", "--dataset", "hotels", "--n", "3000", "--steps", "5", "--points-out", "p.f64",
         "--queries-out", "q.csv"], in: folder.path)
      #expect(export.code == 0, "\(export.stderr)")
      #expect(try #require(fileSize(folder.file("p.f64"))) == 3000 * 16)
      var checksums: [String] = []
      for dataset in ["p.f64", "hotels"] {
        let run = try runBench(
          ["run", "--dataset", dataset, "--n", "3000", "--index", "kdtree", "--workload", "viewport,cluster",
           "--queries", "q.csv", "--repeat", "1", "--warmup", "0", "--quiet", "--out", "\(dataset).csv"],
          in: folder.path)
        #expect(run.code == 0, "\(run.stderr)")
        let rows = try wholeRunRows(folder.file("\(dataset).csv"))
        checksums.append(rows.filter { $0.key.workload != "build" }.map { String($0.checksum) }.joined(separator: ","))
      }
      #expect(checksums[0] == checksums[1] && !checksums[0].isEmpty)
    }
  }
}
