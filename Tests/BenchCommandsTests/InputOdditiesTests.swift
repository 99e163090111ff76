import BenchHarness
import Foundation
import Testing
import BenchWorkloads
import SpatialIndexes
import _BenchTestSupport
import _SpatialTestSupport

/// Valid oddities through the commands: CRLF, a UTF-8 BOM, quoted fields
/// holding commas, doubled quotes and line breaks, trailing blank lines and a
/// header-only file. An odd file must give exactly what its plain twin gives.
@Suite struct InputOdditiesTests {
  /// Two places, id 1 in France and id 2 by the antimeridian.
  static let plainPoints = "id,lat,lon\n1,48.5,2.25\n2,-10,170\n"
  /// The world, a box round id 1, and a box across the antimeridian round id 2.
  static let plainQueries =
    "min_lat,min_lon,max_lat,max_lon\n-90,-180,90,180\n40,0,50,10\n-20,160,0,-170\n"
  static let expectedAnswers = "query,count,id_sum\n0,2,3\n1,1,1\n2,1,2\n"

  static let oddPoints: [(String, String)] = [
    ("CRLF", "id,lat,lon\r\n1,48.5,2.25\r\n2,-10,170\r\n"),
    ("UTF-8 BOM", "\u{FEFF}id,lat,lon\n1,48.5,2.25\n2,-10,170\n"),
    ("quoted fields",
     "\"id\",\"lat\",lon,name\n"
       + "1,\"48.5\",2.25,\"Joe's, \"\"Diner\"\"\"\n"
       + "2,-10,\"170\",\"two\nlines\r\nand three\"\n"),
    ("trailing blank lines", "id,lat,lon\n1,48.5,2.25\n2,-10,170\n\n\r\n\n"),
    ("all at once",
     "\u{FEFF}name,\"id\",lat,lon\r\n\"a,\"\"b\"\"\r\nc\",1,48.5,2.25\r\nx,2,\"-10\",170"),
  ]

  /// What one command wrote, by output file name, from inside `folder`.
  private func outputs(
    _ command: InputCommand, points: String, queries: String?, folder: TemporaryFolder,
    out: String
  ) throws -> [String: String] {
    try FileManager.default.createDirectory(
      atPath: folder.file(out), withIntermediateDirectories: false)
    let result = try runBench(
      command.arguments(points: points, queries: queries, out: out), in: folder.path)
    #expect(result.code == 0, "\(command) \(points): \(result.stderr)")
    var files: [String: String] = [:]
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.file(out))) ?? []
    for name in names { files[name] = text(folder.file(out + "/" + name)) }
    return files
  }

  /// A run report's answers, one line a row, without what depends on timing.
  private func answers(_ report: String?) throws -> [String] {
    let report = try #require(report, "no report written")
    let rows = try ReportSchema.parse(Array(report.utf8), path: "r.csv")
    return rows.filter { $0.key.zooms == "all" }.map {
      "\($0.key.index) \($0.key.dataset) n=\($0.key.n) \($0.key.workload) "
        + "\($0.resultsTotal) \($0.checksum)"
    }
  }

  @Test(arguments: oddPoints.map(\.0), InputCommand.allCases)
  func oddPointsFileAnswersAsThePlainOne(name: String, command: InputCommand) throws {
    let odd = try #require(Self.oddPoints.first { $0.0 == name }?.1)
    try withTemporaryFolder { folder in
      try FileManager.default.createDirectory(
        atPath: folder.file("odd"), withIntermediateDirectories: false)
      try FileManager.default.createDirectory(
        atPath: folder.file("plain"), withIntermediateDirectories: false)
      // The same file name, so reports name the same dataset.
      try folder.write("odd/places.csv", odd)
      try folder.write("plain/places.csv", Self.plainPoints)
      try folder.write("good-queries.csv", Self.plainQueries)
      let queries = command == .export ? nil : "good-queries.csv"
      let a = try outputs(
        command, points: "odd/places.csv", queries: queries, folder: folder, out: "odd-out")
      let b = try outputs(
        command, points: "plain/places.csv", queries: queries, folder: folder, out: "plain-out")
      switch command {
      case .query:
        #expect(a["answers.csv"] == Self.expectedAnswers)
        #expect(b["answers.csv"] == Self.expectedAnswers)
      case .export:
        #expect(a["p.csv"] == "id,lat,lon\n1,48.5,2.25\n2,-10.0,170.0\n")
        #expect(a == b)
        #expect(a.count == 2)
      case .run:
        let rows = try answers(a["r.csv"])
        #expect(rows.count == 1)
        // The session starts with the whole world in view: points are found.
        #expect(rows.first?.hasPrefix("grid odd/places.csv n=2 viewport ") == true)
        #expect(rows.first?.hasPrefix("grid odd/places.csv n=2 viewport 0 ") == false)
        // the same answers; each report names its file by its path
        #expect(rows == (try answers(b["r.csv"])).map { $0.replacingOccurrences(of: "plain/", with: "odd/") })
      }
    }
  }

  /// A queries file with every oddity at once reads as the plain one.
  @Test(arguments: [InputCommand.run, .query])
  func oddQueriesFileAnswersAsThePlainOne(command: InputCommand) throws {
    let odd = "\u{FEFF}\"max_lon\",min_lat,min_lon,max_lat,note\r\n"
      + "180,-90,-180,90,\"a, \"\"b\"\"\"\r\n"
      + "10,40,0,\"50\",\"x\r\ny\"\r\n"
      + "-170,-20,160,0,\r\n\r\n"
    try withTemporaryFolder { folder in
      try folder.write("places.csv", Self.plainPoints)
      try folder.write("odd.csv", odd)
      try folder.write("plain.csv", Self.plainQueries)
      let a = try outputs(
        command, points: "places.csv", queries: "odd.csv", folder: folder, out: "a")
      let b = try outputs(
        command, points: "places.csv", queries: "plain.csv", folder: folder, out: "b")
      // bench run writes its report and the HTML page beside it.
      #expect(a.count == (command == .query ? 1 : 2))
      if command == .query {
        #expect(a["answers.csv"] == Self.expectedAnswers)
        #expect(a == b)
      } else {
        let rows = try answers(a["r.csv"])
        // One query a step, each answered: 2 + 1 + 1 points.
        #expect(rows.count == 1 && rows[0].hasPrefix("grid places.csv n=2 viewport 4 "), "\(rows)")
        #expect(try rows == answers(b["r.csv"]))
      }
    }
  }

  /// A header-only file is an empty dataset: every count is 0, and no figure
  /// is NaN or infinite, through every command.
  @Test(arguments: ["lat,lon\n", "\u{FEFF}id,lat,lon\r\n"], InputCommand.allCases)
  func headerOnlyPointsFile(header: String, command: InputCommand) throws {
    try withTemporaryFolder { folder in
      try folder.write("empty.csv", header)
      try folder.write("q.csv", Self.plainQueries)
      try FileManager.default.createDirectory(
        atPath: folder.file("out"), withIntermediateDirectories: false)
      var arguments = command.arguments(
        points: "empty.csv", queries: command == .query ? "q.csv" : nil)
      if command == .run {
        arguments = overriding(arguments, with: ["--workload", "all", "--index", "all", "--counters"])
      }
      let result = try runBench(arguments, in: folder.path)
      #expect(result.code == 0, "\(result.stderr)")
      #expect(!result.stdout.lowercased().contains("nan"), "\(result.stdout)")
      switch command {
      case .query:
        let answers = text(folder.file("out/answers.csv"))
        #expect(answers == "query,count,id_sum\n0,0,0\n1,0,0\n2,0,0\n")
      case .export:
        #expect(text(folder.file("out/p.csv")) == "id,lat,lon\n")
        let queries = try #require(text(folder.file("out/q.csv")))
        #expect(queries.split(separator: "\n").count == 1 + 3)  // the header, one row a step
        #expect(!queries.lowercased().contains("nan") && !queries.lowercased().contains("inf"))
      case .run:
        let report = try #require(text(folder.file("out/r.csv")))
        let rows = try wholeRunRows(folder.file("out/r.csv"))
        // every index × build and each workload variant that runs on it, with live's phases
        #expect(rows.count == RunRows.allIndexes)
        #expect(rows.allSatisfy { $0.key.n == 0 && $0.key.dataset == "empty.csv" })
        #expect(rows.allSatisfy { $0.resultsTotal == 0 })
        #expect(rows.filter { $0.key.workload != "build" && !WorkloadCatalog.isPhaseRow($0.key.workload) }.allSatisfy {
          $0.counters.pointsReported == 0
        })
        for line in report.split(separator: "\n").dropFirst() {
          let figures = line.lowercased()
          #expect(!figures.contains("nan") && !figures.contains("inf"), "\(line)")
        }
      }
    }
  }
}
