import BenchFormats
import BenchWorkloads
import Foundation
import MapClustering
import SpatialIndexes
import Testing

@testable import BenchCommands

/// `bench query --workload cluster|tap` over an exported session: the answer
/// files equal what the workloads compute in process, for every index and
/// strategy, on samples of every bundled dataset.
extension CLITests {
  @Suite struct QueryWorkloadTests {
    /// A 4,000-point sample of each bundled dataset keeps the per-cell
    /// strategy on the linear scan (a scan per cell) quick in a debug build.
    static let datasets = BundledDataset.allCases.map(\.rawValue)
    static let sample = ["--n", "4000", "--seed", "5"]

    /// `lat`/`lon` text with exactly 7 decimals as 1e-7° units, read digit by digit.
    func units(_ text: Substring) -> Int32? {
      let negative = text.hasPrefix("-")
      let body = negative ? text.dropFirst() : text
      let parts = body.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count == 2, parts[1].count == 7, let whole = Int64(parts[0]), let fraction = Int64(parts[1])
      else { return nil }
      let v = whole * 10_000_000 + fraction
      return Int32(negative ? -v : v)
    }

    /// Exports `dataset`'s session and returns the files and the in-process data.
    func exported(_ dataset: String, steps: Int, in folder: TemporaryFolder) throws
      -> (points: String, queries: String, taps: String, data: LoadedDataset, steps: MapSteps)
    {
      let p = folder.file("p.csv"), q = folder.file("q.csv"), t = folder.file("t.csv")
      let code = benchMain(
        ["export", "--dataset", dataset, "--steps", "\(steps)"] + Self.sample
          + ["--points-out", p, "--queries-out", q, "--taps-out", t, "--quiet"])
      #expect(code == 0)
      let options = try RunOptions.parse(
        ["--dataset", dataset, "--steps", "\(steps)"] + Self.sample, command: "run")
      let data = try loadDatasets(options, command: "run")[0]
      return (p, q, t, data, options.steps(for: data, queries: nil))
    }

    @Test(arguments: datasets)
    func clusterAnswersAreTheClusterersMarkers(dataset: String) throws {
      try withTemporaryFolder { folder in
        let e = try exported(dataset, steps: 30, in: folder)
        let areas = try #require(e.steps.areas)
        struct Expected: IndexTypeOperation {
          let points: [Point]
          let areas: [VisibleArea]
          let strategy: ClusterStrategy
          func run<I: DescribedIndex>(_ type: I.Type) throws -> [[ClusterMarker]] {
            var clusterer = try Clusterer<I>(points: points)
            return areas.map { clusterer.markers(for: $0, strategy: strategy) }
          }
        }
        for index in allIndexTypes.map({ $0.name }) {
          for strategy in ClusterStrategy.allCases {
            var op = Expected(points: e.data.points, areas: areas, strategy: strategy)
            let expected = try #require(try withIndexType(named: index, &op))
            let out = folder.file("a-\(index)-\(strategy).csv")
            let code = benchMain([
              "query", "--workload", "cluster", "--index", index, "--strategy", strategy.rawValue,
              "--points", e.points, "--queries", e.queries, "--out", out,
            ])
            #expect(code == 0)
            let lines = try #require(text(out)).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "query,cell_x,cell_y,count,lat,lon,id")
            let rows = lines.dropFirst().filter { !$0.isEmpty }.map {
              $0.split(separator: ",", omittingEmptySubsequences: false)
            }
            let markers = expected.enumerated().flatMap { q, ms in ms.map { (q, $0) } }
            #expect(rows.count == markers.count, "\(dataset) \(index) \(strategy)")
            var wrong = 0
            for (row, (q, m)) in zip(rows, markers) {
              let fine = row.count == 7 && Int(row[0]) == q && Int(row[1]) == m.key.column
                && Int(row[2]) == m.key.row && Int(row[3]) == m.count
                && units(row[4]) == m.latitudeE7 && units(row[5]) == m.longitudeE7
                && row[6] == (m.id.map { "\(e.data.ids[Int($0)])" } ?? "")[...]
              if !fine {
                wrong += 1
                if wrong <= 3 { Issue.record("\(dataset) \(index) \(strategy): \(row) against \(q) \(m)") }
              }
            }
            #expect(wrong == 0)
          }
        }
      }
    }

    @Test(arguments: datasets)
    func tapAnswersAreTheTapWorkloads(dataset: String) throws {
      try withTemporaryFolder { folder in
        let e = try exported(dataset, steps: 300, in: folder)
        let taps = try #require(e.steps.taps)
        let reference = try LinearScanIndex(points: e.data.points)
        let expected = taps.map { tap in
          reference.nearestByRangeQuery(to: tap, points: e.data.points).map { "\(e.data.ids[Int($0.id)])" } ?? ""
        }
        #expect(expected.contains { !$0.isEmpty }, "\(dataset): no tap hits anything")
        for index in allIndexTypes.map({ $0.name }) {
          for way in TapWorkload.variants {
          let out = folder.file("taps-\(index)-\(way).csv")
          #expect(benchMain([
            "query", "--workload", "tap", "--strategy", way, "--index", index, "--points", e.points,
            "--queries", e.taps, "--out", out,
          ]) == 0)
          let lines = try #require(text(out)).split(separator: "\n", omittingEmptySubsequences: false)
          #expect(lines.first == "query,id")
          let got = lines.dropFirst().filter { !$0.isEmpty }.map { line -> String in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            return f.count == 2 ? String(f[1]) : "?"
          }
          #expect(got == expected, "\(dataset) \(index) \(way)")
          }
        }
      }
    }

    /// `--workload nearest` over the exported taps read as positions: for
    /// every index, the ranking of every point by great-circle distance,
    /// ties by id, distances in metres with 3 decimals.
    @Test(arguments: datasets)
    func nearestAnswersAreTheRanking(dataset: String) throws {
      try withTemporaryFolder { folder in
        let e = try exported(dataset, steps: 40, in: folder)
        let positions = try #require(e.steps.taps).map(\.coordinate)
        let k = 7
        var expected = ["query,rank,id,distance_m"]
        for (q, position) in positions.enumerated() {
          let ranked = e.data.points.enumerated()
            .map { (d: GreatCircle.distance(position, $0.element), id: $0.offset) }
            .sorted { ($0.d, $0.id) < ($1.d, $1.id) }
          for (rank, n) in ranked.prefix(k).enumerated() {
            expected.append("\(q),\(rank + 1),\(e.data.ids[n.id]),\(String(format: "%.3f", n.d))")
          }
        }
        for index in allIndexTypes.map({ $0.name }) {
          let out = folder.file("nearest-\(index).csv")
          #expect(benchMain([
            "query", "--workload", "nearest", "--k", "\(k)", "--index", index, "--points", e.points,
            "--queries", e.taps, "--out", out,
          ]) == 0)
          let lines = try #require(text(out)).split(separator: "\n").map(String.init)
          #expect(lines == expected, "\(dataset) \(index): \(zip(lines, expected).first { $0 != $1 } ?? ("", ""))")
        }
      }
    }

    /// Frame `q` of `--workload live` is the query's viewport clustered once
    /// the fleet has moved `q + 1` times from the points file's positions:
    /// a clusterer built afresh over those positions gives the same file,
    /// and so does every index through every strategy that runs on it.
    @Test func liveAnswersAreTheMovedPointsMarkers() throws {
      try withTemporaryFolder { folder in
        let e = try exported("airports", steps: 12, in: folder)
        let queries = try QueriesFile(contentsOf: e.queries)
        let areas = try #require(MapSteps(queries: queries, screen: (390, 844), seed: 42).areas)
        var motion = FleetMotion(count: e.data.points.count, settings: LiveSettings(share: 0.2, seed: 9))
        var positions = e.data.points, moves: [PointMove] = []
        var expected = CSVWriter()
        expected.writeRow(["query"] + ClusterWorkload.answerColumns)
        for (q, area) in areas.enumerated() {
          motion.nextFrame(positions: positions, into: &moves)
          for m in moves { positions[Int(m.id)] = m.to }
          var fresh = try Clusterer<LinearScanIndex>(points: positions)
          ClusterWorkload.writeAnswer(ClusterAnswer(markers: fresh.markers(for: area)), query: q, ids: e.data.ids, to: &expected)
        }
        let unmoved = folder.file("cluster.csv")
        #expect(benchMain(["query", "--workload", "cluster", "--index", "linear", "--points", e.points,
                           "--queries", e.queries, "--out", unmoved]) == 0)
        #expect(text(unmoved) != expected.text, "the points did move")
        for index in allIndexTypes.map({ $0.name }) {
          for strategy in [nil] + LiveWorkload.variants.filter({ LiveWorkload.runs($0, on: indexType(named: index)!) }) {
            let out = folder.file("live-\(index)-\(strategy ?? "default").csv")
            #expect(benchMain(
              ["query", "--workload", "live", "--index", index, "--points", e.points, "--queries", e.queries,
               "--out", out, "--moving", "0.2", "--seed", "9"] + (strategy.map { ["--strategy", $0] } ?? [])) == 0)
            #expect(text(out) == expected.text, "\(index) \(strategy ?? "default")")
          }
        }
        let move = try runBench(
          ["query", "--workload", "live", "--strategy", "move", "--index", "kdtree", "--points", e.points,
           "--queries", e.queries], in: folder.path)
        #expect(move.code == 64)
        #expect(move.stderrLines.first
          == "bench: the live workload's move strategy does not run on kdtree (it needs a dynamic index); it runs buffered, rebuild")
      }
    }

    /// Equal distances go by id; the antimeridian is crossed; a pole's
    /// neighbours lie at every longitude; the default k is 10.
    @Test func aWorkedNearestExample() throws {
      try withTemporaryFolder { folder in
        let p = try folder.write("p.csv", """
          id,lat,lon
          7,0,-1
          5,1,0
          6,0,1
          9,0,-179.5
          4,89.9,180
          """)
        let q = try folder.write("q.csv", "lat,lon\n0,0\n0,179.5\n89.9,0\n")
        let out = folder.file("a.csv")
        #expect(benchMain(["query", "--workload", "nearest", "--k", "2", "--index", "rtree", "--points", p, "--queries", q, "--out", out]) == 0)
        #expect(text(out) == """
          query,rank,id,distance_m
          0,1,7,111195.080
          0,2,5,111195.080
          1,1,9,111195.080
          1,2,4,9996438.136
          2,1,4,22239.016
          2,2,5,9885242.633

          """)
        let all = folder.file("b.csv")
        #expect(benchMain(["query", "--workload", "nearest", "--index", "kdtree", "--points", p, "--queries", q, "--out", all]) == 0)
        #expect(text(all)?.split(separator: "\n").count == 1 + 3 * 5, "k = 10 by default: all five points, three times")
        let wrong = try runBench(["query", "--workload", "tap", "--k", "3", "--index", "kdtree", "--points", p, "--queries", q], in: folder.path)
        #expect(wrong.code == 64)
        #expect(wrong.stderrLines.first == "bench: --k is for the nearest workload")
      }
    }

    /// The answers of a hand-made case, written out: cells at zoom 0 are 88
    /// points of a 256-point world (columns 0, 1, 2); a multi-point marker's
    /// position is the mean in 1e-7° units, halves rounded away from zero
    /// (latitude 200000003 / 2 → 100000002, longitude −3399999999 / 2 →
    /// −1700000000); a lone point keeps its id; a view with nothing in it
    /// writes no row; across the antimeridian the cells stay world-aligned:
    /// column 0 starts at −180°, and the last (23 at zoom 3, a partial one)
    /// ends at 180°, so the two sides make two markers.
    @Test func aWorkedExample() throws {
      try withTemporaryFolder { folder in
        let p = try folder.write("p.csv", """
          id,lat,lon
          7,10.0000001,-170.0000001
          8,10.0000002,-169.9999998
          9,-40,100
          10,60,179.5
          11,60.1,-179.5
          12,60.2,180
          """)
        let q = try folder.write("q.csv", """
          min_lat,min_lon,max_lat,max_lon,zoom
          -85,-180,50,180,0
          0,20,1,21,3
          55,179,65,-179,3
          55,179,65,180,3
          55,-180,65,-179,3
          """)
        let out = folder.file("a.csv")
        #expect(benchMain(["query", "--workload", "cluster", "--index", "grid", "--points", p, "--queries", q, "--out", out]) == 0)
        #expect(text(out) == """
          query,cell_x,cell_y,count,lat,lon,id
          0,0,1,2,10.0000002,-170.0000000,
          0,2,1,1,-40.0000000,100.0000000,9
          2,0,6,2,60.1500000,-179.7500000,
          2,23,6,1,60.0000000,179.5000000,10
          3,0,6,1,60.2000000,-180.0000000,12
          3,23,6,1,60.0000000,179.5000000,10
          4,0,6,1,60.1000000,-179.5000000,11

          """)
      }
    }

    @Test func clusterNeedsAZoomAndTapNeedsATapsFile() throws {
      try withTemporaryFolder { folder in
        let p = try folder.write("p.csv", "id,lat,lon\n1,0,0\n")
        let boxes = try folder.write("q.csv", "min_lat,min_lon,max_lat,max_lon\n-1,-1,1,1\n")
        let noZoom = try runBench(
          ["query", "--workload", "cluster", "--index", "kdtree", "--points", "p.csv", "--queries", "q.csv"],
          in: folder.path)
        #expect(noZoom.code == 64)
        #expect(noZoom.stderrLines.first
          == "bench: q.csv has no zoom column (or a row without a zoom): the cluster workload needs a zoom for each viewport")
        let tap = try runBench(
          ["query", "--workload", "tap", "--index", "kdtree", "--points", "p.csv", "--queries", "q.csv"],
          in: folder.path)
        expectOneError(
          tap, code: 65,
          "q.csv:1: no latitude column (expected \"lat\" or \"latitude\"); columns found: \"min_lat\", \"min_lon\", \"max_lat\", \"max_lon\"")
        let strategy = try runBench(
          ["query", "--workload", "tap", "--strategy", "aggregate", "--index", "kdtree", "--points", "p.csv",
           "--queries", "q.csv"], in: folder.path)
        #expect(strategy.code == 64)
        #expect(strategy.stderrLines.first == "bench: unknown strategy \"aggregate\" (valid: range, nearest)")
        _ = (p, boxes)
      }
    }
  }
}
