import BenchHarness
import BenchWorkloads
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bench peer postgis`: its refusals, its one-line errors with exit 69, a
/// whole run, and a Ctrl-C that leaves no server and no folder behind.
private let hasPostGIS = (try? PostgresTools.find(needsServer: true))?.hasPostGIS() ?? false
private let hasPSQL = (try? PostgresTools.find(needsServer: false)) != nil

@Suite struct PeerCommandTests {
  @Test func refusesWhatItCannotDo() throws {
    try withTemporaryFolder { folder in
      let none = try runBench(["peer"], in: folder.path)
      #expect(none.code == 64 && none.stderrLines.first == "bench: name the engine: bench peer postgis")
      let other = try runBench(["peer", "mysql"], in: folder.path)
      #expect(other.code == 64 && other.stderr.contains("unknown engine"))
      let param = try runBench(["peer", "postgis", "--param", "nodeSize=8"], in: folder.path)
      #expect(param.code == 64)
      #expect(param.stderrLines.first == "bench: --param does not apply to bench peer (a database engine, not an index)")
      let index = try runBench(["peer", "postgis", "--index", "kdtree"], in: folder.path)
      #expect(index.code == 64 && index.stderr.contains("valid: gist, spgist, brin"))
      #expect(folder.contents().isEmpty)
    }
  }

  @Test func withoutPostgreSQLItSaysSoInOneLine() throws {
    try withTemporaryFolder { folder in
      let result = try runBench(
        ["peer", "postgis", "--steps", "5"], in: folder.path, environment: ["SPATIALBENCH_PG_BIN": folder.path])
      #expect(result.code == 69)
      #expect(result.stderrLines.count == 1)
      #expect(result.stderrLines.first?.hasPrefix("bench: PostgreSQL is not installed: no psql, initdb, pg_ctl in") == true)
      #expect(folder.contents().isEmpty, "no report")
    }
  }

  /// SP-GiST and BRIN cannot order by distance: a run that reads in KNN
  /// order with them says so (it sorts the table at every step), and still
  /// agrees with the linear scan.
  @Test(.enabled(if: hasPostGIS, "needs PostgreSQL and PostGIS"))
  func knnWithoutAnOrderingIndexIsWarnedOf() throws {
    try withTemporaryFolder { folder in
      let result = try runBench(
        ["peer", "postgis", "--index", "spgist", "--dataset", "clustered", "--n", "2000", "--steps", "10",
         "--repeat", "1", "--workload", "tap", "--quiet", "--out", "sp.csv"],
        in: folder.path)
      #expect(result.code == 0, "\(result.stderr)")
      #expect(result.stderr.contains("warning: postgis-spgist cannot order by distance on geography"))
      #expect(result.stdout.contains("postgis-spgist tap/nearest: all 10 steps agree with the linear scan"))
      let viewport = try runBench(
        ["peer", "postgis", "--index", "spgist", "--dataset", "clustered", "--n", "2000", "--steps", "10",
         "--repeat", "1", "--workload", "viewport", "--quiet", "--out", "v.csv"],
        in: folder.path)
      #expect(viewport.code == 0 && !viewport.stderr.contains("warning"), "\(viewport.stderr)")
    }
  }

  /// With a filter and aggregates PostGIS runs the filtered work, its
  /// answers checked against the filtered linear scan; a filter with a
  /// workload it does not apply to is a usage error.
  @Test(.enabled(if: hasPostGIS, "needs PostgreSQL and PostGIS"))
  func aFilteredRunIsCheckedAgainstTheFilteredLinearScan() throws {
    try withTemporaryFolder { folder in
      let base = ["peer", "postgis", "--dataset", "hotels", "--n", "3000", "--steps", "12", "--repeat", "1", "--quiet"]
      let result = try runBench(
        base + ["--workload", "viewport,cluster,tap", "--filter", "chain in (chain-1, chain-3) and price <= 150.005",
                "--aggregate", "sum:price,min:price,max:stars", "--out", "f.csv"], in: folder.path)
      #expect(result.code == 0, "\(result.stderr)")
      for label in ["viewport/exact", "cluster/group-by", "tap/range", "tap/nearest"] {
        #expect(result.stdout.contains("postgis-gist \(label): all 12 steps agree with the linear scan"), "\(result.stdout)")
      }
      let rows = try ReportFile.read(folder.file("f.csv")).filter { $0.key.workload == "cluster" }
      #expect(!rows.isEmpty && rows.allSatisfy {
        $0.key.filter == "chain in (chain-1, chain-3) and price <= 150.005 aggregate sum:price,min:price,max:stars"
      })
      let nearest = try runBench(base + ["--filter", "stars >= 4"], in: folder.path)
      #expect(nearest.code == 64 && nearest.stderr.contains("--filter is for the viewport, cluster, tap workloads, not nearest"))
    }
  }

  /// `recommend --peer postgis` starts the server before any index runs:
  /// without PostgreSQL it stops at once, one line, nothing written.
  @Test func recommendWithoutPostgreSQLStopsFirst() throws {
    try withTemporaryFolder { folder in
      let result = try runBench(
        ["recommend", "--dataset", "clustered", "--n", "3000", "--steps", "20", "--peer", "postgis", "--quiet"],
        in: folder.path, environment: ["SPATIALBENCH_PG_BIN": folder.path])
      #expect(result.code == 69)
      #expect(result.stderrLines.count == 1, "\(result.stderr)")
      #expect(result.stdout.isEmpty && folder.contents().isEmpty)
    }
  }

  /// PostGIS on the same session as the indexes: its rows, checked, are
  /// candidates of the verdict and rows of the report and its page.
  @Test(.enabled(if: hasPostGIS, "needs PostgreSQL and PostGIS"))
  func recommendWeighsPostGISBesideTheIndexes() throws {
    try withTemporaryFolder { folder in
      let result = try runBench(
        ["recommend", "--dataset", "clustered", "--n", "3000", "--steps", "20", "--repeat", "1", "--peer", "postgis",
         "--quiet", "--out", "rec.csv"],
        in: folder.path)
      expectVerdictExit(result)
      let rows = try ReportFile.read(folder.file("rec.csv")).filter { $0.key.index == "postgis-gist" && $0.key.zooms == "all" }
      #expect(Set(rows.map(\.key.workload)) == ["build", "viewport", "cluster", "tap", "nearest"])
      for r in rows where r.key.strategy != "bbox" && r.key.workload != "build" {
        #expect(r.wrongAnswers == 0, "\(r.key)")
      }
      let page = try String(contentsOfFile: folder.file("rec.html"), encoding: .utf8)
      #expect(page.contains("postgis-gist clock=server") && page.contains("postgis-gist clock=client"))
    }
  }

  @Test(.enabled(if: hasPSQL, "needs psql"))
  func aRefusedConnectionIsOneLine() throws {
    try withTemporaryFolder { folder in
      let result = try runBench(
        ["peer", "postgis", "--steps", "5", "--quiet", "--connection", "host=\(folder.path) connect_timeout=5"],
        in: folder.path)
      #expect(result.code == 69)
      #expect(result.stderrLines.count == 1)
      #expect(result.stderrLines.first?.hasPrefix("bench: cannot connect to the server of --connection:") == true)
    }
  }

  @Test(.enabled(if: hasPostGIS, "needs PostgreSQL and PostGIS"))
  func aRunWritesRowsThatAgreeAndRemovesItsServer() throws {
    try withTemporaryFolder { folder in
      let scratch = folder.file("tmp")
      try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
      let result = try runBench(
        ["peer", "postgis", "--dataset", "clustered", "--n", "3000", "--steps", "30", "--repeat", "1",
         "--quiet", "--out", "peer.csv"],
        in: folder.path, environment: ["TMPDIR": scratch])
      #expect(result.code == 0, "\(result.stderr)")
      let rows = try ReportFile.read(folder.file("peer.csv"))
      let whole = rows.filter { $0.key.zooms == "all" }
      #expect(whole.count == 1 + 2 * 8)
      #expect(whole.allSatisfy { $0.key.index == "postgis-gist" })
      for r in whole where r.key.strategy != "bbox" && r.key.workload != "build" {
        #expect(r.wrongAnswers == 0, "\(r.key)")
      }
      #expect(result.stdout.contains("postgis-gist cluster/group-by: all 30 steps agree with the linear scan"))
      #expect((try FileManager.default.contentsOfDirectory(atPath: scratch)).isEmpty, "the server's folder is removed")

      // recommend's rules weigh its rows beside the indexes' (each clock a candidate)
      let run = try runBench(
        ["run", "--dataset", "clustered", "--n", "3000", "--steps", "30", "--repeat", "1", "--index", "kdtree",
         "--workload", "build,viewport,cluster,tap,nearest", "--quiet", "--out", "run.csv"], in: folder.path)
      #expect(run.code == 0, "\(run.stderr)")
      let report = try runBench(["report", "run.csv", "peer.csv", "--out", "both.html"], in: folder.path)
      #expect(report.code == 0, "\(report.stderr)")
      let page = try String(contentsOfFile: folder.file("both.html"), encoding: .utf8)
      #expect(page.contains("postgis-gist clock=server") && page.contains("postgis-gist clock=client"))
      #expect(page.contains("kdtree"))
    }
  }

  /// SIGINT mid-run (once the server answers, or as soon as its folder
  /// exists: during initdb): bench dies of it, and the watcher it left
  /// stops the server and removes its folder.
  @Test(.enabled(if: hasPostGIS, "needs PostgreSQL and PostGIS"), arguments: [true, false])
  func ctrlCLeavesNoServerBehind(serverUp: Bool) throws {
    let bench = try #require(benchExecutable)
    try withTemporaryFolder { folder in
      let scratch = folder.file("tmp")
      try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
      let process = Process()
      process.executableURL = bench
      process.arguments = [
        "peer", "postgis", "--dataset", "uniform", "--n", "20000", "--steps", "20000", "--repeat", "100",
        "--budget", "0", "--quiet", "--out", "peer.csv",
      ]
      process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
      process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch]) { $1 }
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // wait for the server to be up (its pid file), at most 60 s
      var pidFile: String? = nil
      for _ in 0..<600 where pidFile == nil && serverUp {
        usleep(100_000)
        let made = (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []
        // the socket: the server itself (initdb's single-user run writes a pid file too)
        pidFile = made.map { scratch + "/" + $0 + "/d/postmaster.pid" }
          .first { FileManager.default.fileExists(atPath: $0.replacingOccurrences(of: "postmaster.pid", with: ".s.PGSQL.5432")) }
      }
      if !serverUp {
        var made: [String] = []
        for _ in 0..<600 where made.isEmpty {
          usleep(10_000)
          // its data folder: made once the watcher runs
          made = ((try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? [])
            .filter { FileManager.default.fileExists(atPath: scratch + "/" + $0 + "/d") }
        }
        kill(process.processIdentifier, SIGINT)
        waitForExit(of: process, seconds: 20, "bench after SIGINT")
        var gone = false
        for _ in 0..<600 where !gone {
          usleep(100_000)
          gone = ((try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []).isEmpty
        }
        #expect(!made.isEmpty && gone, "the folder \(made) is left")
        return
      }
      let pidPath = try #require(pidFile, "the server never started")
      var serverPID: pid_t? = nil
      for _ in 0..<100 where serverPID == nil {  // the file is written in steps
        usleep(100_000)
        let text = (try? String(contentsOfFile: pidPath, encoding: .utf8)) ?? ""
        if text.split(separator: "\n").count >= 2 { serverPID = pid_t(text.split(separator: "\n")[0]) }
      }
      let pid = try #require(serverPID, "no pid in \(pidPath)")
      usleep(500_000)
      #expect(process.isRunning)
      kill(process.processIdentifier, SIGINT)
      waitForExit(of: process, seconds: 20, "bench after SIGINT")
      #expect(process.terminationReason == .uncaughtSignal)
      var gone = false
      for _ in 0..<300 where !gone {
        usleep(100_000)
        gone = !Self.isAlive(pid) && ((try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []).isEmpty
      }
      #expect(gone, "the server (alive: \(Self.isAlive(pid))) or its folder is left: \((try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? [])")
      #expect(!FileManager.default.fileExists(atPath: folder.file("peer.csv")))
    }
  }

  /// Whether `pid` runs: it answers signal 0 and is no zombie (a container
  /// whose first process reaps nothing keeps those).
  static func isAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")")
    else { return true }
    return stat[stat.index(close, offsetBy: 2)] != "Z"
  }
}
