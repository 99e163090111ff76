import Foundation
import SpatialIndexes
import Testing
import BenchFormats
import BenchWorkloads
import MapClustering

import _SeededRandom
@testable import BenchCommands

/// `bench query` on hand-made points and query files: its output contract
/// (`query,count,id_sum`), the same answers from every index, and its errors.
extension CLITests {
  @Suite struct QueryCommandTests {
    static let indexNames = allIndexTypes.map { $0.name }

    /// Runs `bench query` with `--out FILE` and returns the exit code and the output text.
    private func query(
      _ folder: TemporaryFolder, index: String = "kdtree", points: String, queries: String,
      extra: [String] = []
    ) throws -> (code: Int32, output: String?) {
      let p = try folder.write("points.csv", points)
      let q = try folder.write("queries.csv", queries)
      let out = folder.file("out.csv")
      try? FileManager.default.removeItem(atPath: out)
      let code = benchMain(
        ["query", "--index", index, "--points", p, "--queries", q, "--out", out] + extra)
      return (code, text(out))
    }

    @Test func listNamesEveryIndex() throws {
      var code: Int32 = -1
      let output = try captureStandardOutput { code = benchMain(["list", "--indexes"]) }
      #expect(code == 0)
      // The first word of each line; other lines (a test runner's) have no "  # ".
      let names = output.split(separator: "\n").filter { $0.contains("  # ") }
        .map { String($0.prefix { $0 != " " }) }
      #expect(names == Self.indexNames)
    }

    @Test(arguments: indexNames)
    func exactOutputWithIdsEdgesAndExtraColumns(index: String) throws {
      try withTemporaryFolder { folder in
        // Ids with leading zeros; columns in any order, with extra ones.
        let points = """
          name,lon,id,lat
          edge-sw,20,00501,10
          edge-ne,21,7,11
          inside,20.5,0000,10.5
          outside,21.000001,9,10.5
          far,-20,11,-10

          """
        // Corners on the points: edges are inclusive.
        let queries = """
          note,max_lon,zoom,min_lat,max_lat,min_lon
          box,21,3,10,11,20
          line,20,,10,10,20
          empty,1,,1,2,0

          """
        let (code, output) = try query(folder, index: index, points: points, queries: queries)
        #expect(code == 0)
        #expect(output == "query,count,id_sum\n0,3,508\n1,1,501\n2,0,0\n")
      }
    }

    @Test(arguments: indexNames)
    func duplicatesAreAllCounted(index: String) throws {
      try withTemporaryFolder { folder in
        let row = "48.8566,2.3522\n"
        let points = "lat,lon\n" + String(repeating: row, count: 40) + "0,0\n"
        // Without an id column, ids are the 0-based rows: 0 + 1 + … + 39 = 780.
        let queries = "min_lat,min_lon,max_lat,max_lon\n48.8566,2.3522,48.8566,2.3522\n-1,-1,1,1\n"
        let (code, output) = try query(folder, index: index, points: points, queries: queries)
        #expect(code == 0)
        #expect(output == "query,count,id_sum\n0,40,780\n1,1,40\n")
      }
    }

    @Test(arguments: indexNames)
    func antimeridianQuery(index: String) throws {
      try withTemporaryFolder { folder in
        let points = """
          id,lat,lon
          1,0,175
          2,0,-175
          4,0,180
          8,0,-180
          16,0,0
          32,0,170
          64,0,-170
          128,0,169.999
          256,0,-169.999
          512,5.5,175

          """
        // min_lon 170 > max_lon -170: [170, 180] and [-180, -170].
        let queries = """
          min_lat,min_lon,max_lat,max_lon
          -1,170,1,-170
          -90,179,90,-179
          -90,180,90,-180

          """
        let (code, output) = try query(folder, index: index, points: points, queries: queries)
        #expect(code == 0)
        // 1 + 2 + 4 + 8 + 32 + 64 = 111.
        #expect(output == "query,count,id_sum\n0,6,111\n1,2,12\n2,2,12\n")
      }
    }

    @Test(arguments: indexNames)
    func idSumWrapsModulo2To64(index: String) throws {
      try withTemporaryFolder { folder in
        let points = """
          id,lat,lon
          18446744073709551615,1,1
          18446744073709551614,1,1
          5,1,1

          """
        let queries = "min_lat,min_lon,max_lat,max_lon\n0,0,2,2\n"
        let (code, output) = try query(folder, index: index, points: points, queries: queries)
        #expect(code == 0)
        // (2^64 - 1) + (2^64 - 2) + 5 = 2^65 + 2.
        #expect(output == "query,count,id_sum\n0,3,2\n")
      }
    }

    @Test(arguments: indexNames)
    func headerOnlyPointsFile(index: String) throws {
      try withTemporaryFolder { folder in
        let queries = "min_lat,min_lon,max_lat,max_lon\n-90,-180,90,180\n0,170,1,-170\n"
        let (code, output) = try query(
          folder, index: index, points: "id,lat,lon\n", queries: queries)
        #expect(code == 0)
        #expect(output == "query,count,id_sum\n0,0,0\n1,0,0\n")
      }
    }

    @Test func headerOnlyQueriesFile() throws {
      try withTemporaryFolder { folder in
        let (code, output) = try query(
          folder, points: "lat,lon\n1,2\n", queries: "min_lat,min_lon,max_lat,max_lon\n")
        #expect(code == 0)
        #expect(output == "query,count,id_sum\n")
      }
    }

    /// Seeded points and queries on a coarse lattice, so many points sit on
    /// query edges and many coincide; every index must give the brute-force answer.
    @Test func everyIndexMatchesBruteForce() throws {
      try withTemporaryFolder { folder in
        var g = SplitMix64(seed: 7)
        func lat() -> Double { Double(g.nextInt(below: 19)) * 10 - 90 }
        func lon() -> Double { Double(g.nextInt(below: 37)) * 10 - 180 }
        var points: [(id: UInt64, lat: Double, lon: Double)] = []
        for _ in 0..<600 { points.append((g.next(), lat(), lon())) }
        var queries: [(minLat: Double, minLon: Double, maxLat: Double, maxLon: Double)] = []
        for _ in 0..<80 {
          let (a, b) = (lat(), lat())
          queries.append((min(a, b), lon(), max(a, b), lon()))  // lon in any order: some wrap
        }
        var expected = "query,count,id_sum\n"
        for (row, q) in queries.enumerated() {
          var count = 0
          var sum: UInt64 = 0
          for p in points where p.lat >= q.minLat && p.lat <= q.maxLat {
            let inside = q.minLon <= q.maxLon
              ? p.lon >= q.minLon && p.lon <= q.maxLon
              : p.lon >= q.minLon || p.lon <= q.maxLon
            if inside {
              count += 1
              sum &+= p.id
            }
          }
          expected += "\(row),\(count),\(sum)\n"
        }
        #expect(queries.contains { $0.minLon > $0.maxLon })

        let pointsText = "id,lat,lon\n" + points.map { "\($0.id),\($0.lat),\($0.lon)\n" }.joined()
        let queriesText = "min_lat,min_lon,max_lat,max_lon\n"
          + queries.map { "\($0.minLat),\($0.minLon),\($0.maxLat),\($0.maxLon)\n" }.joined()
        for index in Self.indexNames {
          let (code, output) = try query(
            folder, index: index, points: pointsText, queries: queriesText)
          #expect(code == 0, "\(index)")
          #expect(output == expected, "\(index)")
        }
        // With a parameter that changes the structure.
        let (code, output) = try query(
          folder, index: "quadtree", points: pointsText, queries: queriesText,
          extra: ["--param", "capacity=1"])
        #expect(code == 0 && output == expected)
      }
    }

    // MARK: - Errors

    /// Runs `bench query` in `folder` as a child process, so its stderr can be read.
    private func queryProcess(
      _ folder: TemporaryFolder, _ arguments: [String]
    ) throws -> BenchResult {
      try runBench(["query", "--index", "grid"] + arguments, in: folder.path)
    }

    @Test func missingPointsFileIs66AndWritesNothing() throws {
      try withTemporaryFolder { folder in
        try folder.write("queries.csv", "min_lat,min_lon,max_lat,max_lon\n0,0,1,1\n")
        let result = try queryProcess(
          folder, ["--points", "nope.csv", "--queries", "queries.csv", "--out", "out.csv"])
        expectOneError(result, code: 66, "nope.csv: no such file")
        #expect(folder.contents() == ["queries.csv"])
        // A missing queries file too.
        try folder.write("points.csv", "lat,lon\n1,1\n")
        expectOneError(
          try queryProcess(
            folder, ["--points", "points.csv", "--queries", "nope.csv", "--out", "out.csv"]),
          code: 66, "nope.csv: no such file")
        // A folder given as the points file.
        expectOneError(
          try queryProcess(folder, ["--points", ".", "--queries", "queries.csv"]),
          code: 66, ".: is a directory, not a file")
        #expect(folder.contents() == ["points.csv", "queries.csv"])
      }
    }

    static let anyQuery = "min_lat,min_lon,max_lat,max_lon\n0,0,1,1\n"

    @Test(arguments: [
      ("lat,lon\n91,0\n", anyQuery, "points.csv:2: lat \"91\" is outside [-90, 90]"),
      ("lat,lon\nabc,0\n", anyQuery, "points.csv:2: lat \"abc\" is not a number"),
      ("lat,lon\n0,180.5\n", anyQuery, "points.csv:2: lon \"180.5\" is outside [-180, 180]"),
      ("lat,lon\nnan,0\n", anyQuery, "points.csv:2: lat \"nan\" is not a number"),
      ("id,lat,lon\n-1,0,0\n", anyQuery, "points.csv:2: id \"-1\" is negative"),
      ("lat,lon\n0\n", anyQuery,
       "points.csv:2: lon is missing: too few fields: 1, but the header has 2"),
      ("lat\n0\n", anyQuery,
       "points.csv:1: no longitude column (expected \"lon\", \"lng\" or \"longitude\"); "
         + "columns found: \"lat\""),
      ("lat,lon\n0,0\n", "min_lat,min_lon,max_lat,max_lon\n2,0,1,1\n",
       "queries.csv:2: min_lat \"2\" is greater than max_lat \"1\""),
      ("lat,lon\n0,0\n", "min_lat,min_lon,max_lat\n0,0,1\n",
       "queries.csv:1: no max_lon column (expected \"max_lon\"); "
         + "columns found: \"min_lat\", \"min_lon\", \"max_lat\""),
      ("lat,lon\n0,0\n", "min_lat,min_lon,max_lat,max_lon\n0,0,1,181\n",
       "queries.csv:2: max_lon \"181\" is outside [-180, 180]"),
    ])
    func badDataIs65AndWritesNothing(
      files: (points: String, queries: String, message: String)
    ) throws {
      try withTemporaryFolder { folder in
        try folder.write("points.csv", files.points)
        try folder.write("queries.csv", files.queries)
        let result = try queryProcess(
          folder, ["--points", "points.csv", "--queries", "queries.csv", "--out", "out.csv"])
        expectOneError(result, code: 65, files.message)
        #expect(folder.contents() == ["points.csv", "queries.csv"])
      }
    }

    @Test func existingOutputIsUnchangedOnBadData() throws {
      try withTemporaryFolder { folder in
        let p = try folder.write("points.csv", "lat,lon\n91,0\n")
        let q = try folder.write("queries.csv", "min_lat,min_lon,max_lat,max_lon\n0,0,1,1\n")
        let out = try folder.write("out.csv", "keep me\n")
        #expect(
          benchMain(["query", "--index", "linear", "--points", p, "--queries", q, "--out", out])
            == 65)
        #expect(text(out) == "keep me\n")
        #expect(folder.contents() == ["out.csv", "points.csv", "queries.csv"])
      }
    }

    @Test func outputFolderMissingIs73AndCreatesNothing() throws {
      try withTemporaryFolder { folder in
        try folder.write("points.csv", "lat,lon\n1,1\n")
        try folder.write("queries.csv", "min_lat,min_lon,max_lat,max_lon\n0,0,1,1\n")
        let inputs = ["--points", "points.csv", "--queries", "queries.csv"]
        expectOneError(
          try queryProcess(folder, inputs + ["--out", "missing/out.csv"]), code: 73,
          "cannot create 'missing/out.csv': folder missing does not exist")
        #expect(!exists(folder.file("missing")))
        // A folder where the output file should go.
        expectOneError(
          try queryProcess(folder, inputs + ["--out", "."]), code: 73,
          "cannot create '.': is a folder")
        #expect(folder.contents() == ["points.csv", "queries.csv"])
      }
    }

    @Test func usageErrors() throws {
      try withTemporaryFolder { folder in
        let p = try folder.write("points.csv", "lat,lon\n1,1\n")
        let q = try folder.write("queries.csv", "min_lat,min_lon,max_lat,max_lon\n0,0,1,1\n")
        let base = ["query", "--points", p, "--queries", q]
        #expect(benchMain(base) == 64)  // no --index
        #expect(benchMain(["query", "--index", "grid", "--queries", q]) == 64)
        #expect(benchMain(["query", "--index", "grid", "--points", p]) == 64)
        #expect(benchMain(base + ["--index", "all"]) == 64)
        #expect(benchMain(base + ["--index", "grid,kdtree"]) == 64)
        #expect(benchMain(base + ["--index", "kdtre"]) == 64)
        #expect(benchMain(base + ["--index", "quadtree", "--param", "capacity=4,16"]) == 64)
        #expect(benchMain(base + ["--index", "quadtree", "--param", "capacity=0"]) == 64)
        #expect(benchMain(base + ["--index", "quadtree", "--param", "nosuch=1"]) == 64)
        #expect(benchMain(base + ["--index", "grid", "--out"]) == 64)
        #expect(folder.contents() == ["points.csv", "queries.csv"])
      }
    }
  }
}
