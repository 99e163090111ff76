import Foundation
import Testing

/// A command that reads a points file, and how to call it with one.
enum InputCommand: String, Sendable, CaseIterable {
  case run, query, export

  /// A valid points file, for the runs whose queries file is the bad one.
  static let goodPoints = "id,lat,lon\n1,48.85,2.35\n2,-33.9,151.2\n"
  static let goodQueries = "min_lat,min_lon,max_lat,max_lon\n-90,-180,90,180\n"

  /// The arguments that read `points` (and `queries` where the command
  /// takes one) and write into the folder `out`.
  func arguments(points: String, queries: String? = nil, out: String = "out") -> [String] {
    switch self {
    case .run:
      ["run", "--dataset", points] + (queries.map { ["--queries", $0] } ?? []) + [
        "--index", "grid", "--workload", "viewport", "--steps", "3", "--repeat", "1",
        "--warmup", "0", "--quiet", "--out", out + "/r.csv",
      ]
    case .query:
      ["query", "--index", "grid", "--points", points, "--queries", queries ?? "good-queries.csv",
       "--out", out + "/answers.csv"]
    case .export:
      ["export", "--dataset", points, "--steps", "3", "--quiet",
       "--points-out", out + "/p.csv", "--queries-out", out + "/q.csv"]
    }
  }
}

/// Every bad input of issue #6 through the commands that read it: the exit
/// code, exactly one line on stderr naming the file, line and field, and
/// nothing written, not even a temporary file.
@Suite struct BadInputTests {
  /// Runs `arguments` in a fresh folder holding the good inputs, an empty
  /// `out` folder and whatever `make` adds; checks the run left both folders
  /// as they were.
  private func expectRejected(
    _ input: BadInput, make: (TemporaryFolder) throws -> String,
    arguments: (String) -> [String]
  ) throws {
    try withTemporaryFolder { folder in
      try folder.write("good.csv", InputCommand.goodPoints)
      try folder.write("good-queries.csv", InputCommand.goodQueries)
      try FileManager.default.createDirectory(
        atPath: folder.file("out"), withIntermediateDirectories: false)
      let path = try make(folder)
      let before = folder.contents()
      let result = try runBench(arguments(path), in: folder.path)
      expectOneError(result, code: input.code, input.expectedLine(path))
      #expect(result.stdout.isEmpty)
      #expect(folder.contents() == before)
      let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.file("out"))) ?? []
      #expect(left.isEmpty, "left in the output folder: \(left)")
    }
  }

  @Test(arguments: BadInput.points, InputCommand.allCases)
  func badPointsFile(input: BadInput, command: InputCommand) throws {
    try expectRejected(input, make: { try input.make(in: $0, named: "points.csv") }) {
      command.arguments(points: $0)
    }
  }

  /// `export` takes no queries file; `run --queries` and `query` do.
  @Test(arguments: BadInput.queries, [InputCommand.run, .query])
  func badQueriesFile(input: BadInput, command: InputCommand) throws {
    try expectRejected(input, make: { try input.make(in: $0, named: "queries.csv") }) {
      command.arguments(points: "good.csv", queries: $0)
    }
  }

  /// The valid inputs above do run, so each rejection is the bad file's doing.
  @Test(arguments: InputCommand.allCases)
  func goodInputsSucceed(command: InputCommand) throws {
    try withTemporaryFolder { folder in
      try folder.write("good.csv", InputCommand.goodPoints)
      try folder.write("good-queries.csv", InputCommand.goodQueries)
      try FileManager.default.createDirectory(
        atPath: folder.file("out"), withIntermediateDirectories: false)
      let queries = command == .export ? nil : "good-queries.csv"
      let result = try runBench(
        command.arguments(points: "good.csv", queries: queries), in: folder.path)
      #expect(result.code == 0, "\(result.stderr)")
      #expect(!result.stderr.contains("bench: good"))
    }
  }
}
