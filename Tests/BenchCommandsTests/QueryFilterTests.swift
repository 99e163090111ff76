import BenchFormats
import BenchWorkloads
import Foundation
import MapClustering
import SpatialIndexes
import Testing
import _SpatialTestSupport

@testable import BenchCommands

/// `bench query --filter EXPR --aggregate LIST`: the answers are those of
/// the points that pass, worked out by the reference (``ReferenceFiltering``:
/// the documented rules, point by point) for every index; the properties'
/// names are checked before the points load; a queries file's `filter`
/// column replaces `--filter` row by row.
extension CLITests {
  @Suite struct QueryFilterTests {
    static let clauses: [ReferenceClause] = [.atLeast("stars", "4"), .oneOf("chain", ["chain-1", "chain-2", "chain-5"])]
    static let filter = "stars >= 4 and chain in (chain-1, chain-2, chain-5)"
    static let asked: [ClusterAggregate] = [.sum("price"), .min("price"), .max("price")]

    /// Seeded hotels with their properties, and a session's queries and taps.
    struct Exported {
      var points: String, queries: String, taps: String
      var file: PointsFile
      var reference: ReferenceProperties
      var steps: MapSteps
    }

    func exported(in folder: TemporaryFolder, n: Int = 2_000, steps: Int = 24) throws -> Exported {
      let p = folder.file("p.csv"), q = folder.file("q.csv"), t = folder.file("t.csv")
      #expect(benchMain([
        "export", "--dataset", "hotels", "--n", "\(n)", "--steps", "\(steps)", "--seed", "3",
        "--properties", "stars:number,price:number,chain", "--points-out", p, "--queries-out", q, "--taps-out", t,
        "--quiet",
      ]) == 0)
      let file = try PointsFile(contentsOf: p, properties: [.number("stars"), .number("price"), .category("chain")])
      var reference = ReferenceProperties()
      for name in ["stars", "price"] {
        let c = try #require(file.properties.decimal(name))
        reference.numbers.append((name, c.units, c.scale))
      }
      let chain = try #require(file.properties.category("chain"))
      reference.categories.append(("chain", (0..<chain.count).map { chain.value(at: $0) }))
      let queries = try QueriesFile(contentsOf: q)
      return Exported(
        points: p, queries: q, taps: t, file: file, reference: reference,
        steps: MapSteps(queries: queries, screen: (390, 844), seed: 42))
    }

    func passing(_ e: Exported) -> [Int] {
      e.file.points.indices.filter { ReferenceFiltering.passes($0, Self.clauses, e.reference) }
    }

    /// Every index and strategy writes the reference's markers of the
    /// passing points, and its aggregates with the column's scale.
    @Test func clusterAnswersAreTheReferencesOnThePassingPoints() throws {
      try withTemporaryFolder { folder in
        let e = try exported(in: folder)
        let passing = passing(e)
        #expect(passing.count > 50 && passing.count < e.file.count / 2, "the filter keeps some points, not all")
        var expected = CSVWriter()
        expected.writeRow(["query"] + ClusterWorkload.answerColumns + ["sum_price", "min_price", "max_price"])
        for (q, area) in try #require(e.steps.areas).enumerated() {
          let markers = try ReferenceFiltering.markers(e.file.points, passing: passing, area: area)
          let texts = ReferenceFiltering.aggregates(
            e.file.points, passing: passing, area: area, markers: markers, asked: Self.asked, e.reference)
          for (k, m) in markers.enumerated() {
            expected.writeRow([
              String(q), String(m.key.column), String(m.key.row), String(m.count),
              FixedPoint.text(m.latitudeE7), FixedPoint.text(m.longitudeE7),
              m.id.map { String(e.file.ids[Int($0)]) } ?? "",
            ] + texts[(k * 3)..<(k * 3 + 3)])
          }
        }
        for index in allIndexTypes.map({ $0.name }) {
          for strategy in ClusterStrategy.allCases {
            let out = folder.file("c-\(index)-\(strategy).csv")
            #expect(benchMain([
              "query", "--workload", "cluster", "--index", index, "--strategy", strategy.rawValue,
              "--points", e.points, "--queries", e.queries, "--filter", Self.filter,
              "--aggregate", "sum:price,min:price,max:price", "--out", out,
            ]) == 0)
            #expect(text(out) == expected.text, "\(index) \(strategy)")
          }
        }
      }
    }

    /// The viewport lists, and the tap finds, only passing points.
    @Test func viewportAndTapAnswersAreTheReferencesOnThePassingPoints() throws {
      try withTemporaryFolder { folder in
        let e = try exported(in: folder)
        let passing = passing(e)
        let kept = Set(passing)
        var viewport = ["query,count,id_sum"]
        for (q, rects) in try #require(e.steps.rects).enumerated() {
          let ids = e.file.points.indices.filter { i in
            let p = e.file.points[i]
            return kept.contains(i) && rects.contains { $0.minX <= p.x && p.x <= $0.maxX && $0.minY <= p.y && p.y <= $0.maxY }
          }
          let sum = ids.reduce(UInt64(0)) { $0 &+ e.file.ids[$1] }
          viewport.append("\(q),\(ids.count),\(sum)")
        }
        // taps on every 7th point, passing or not, at a zoom where the
        // touch target holds a few others
        var tapsText = "lat,lon,zoom\n"
        for i in stride(from: 0, to: e.file.count, by: 7) {
          tapsText += "\(e.file.points[i].y),\(e.file.points[i].x),\(10 + i % 5)\n"
        }
        let tapsPath = try folder.write("taps.csv", tapsText)
        let taps = try TapsFile(contentsOf: tapsPath)
        var tap = ["query,id"]
        let passingPoints = passing.map { e.file.points[$0] }
        for (q, t) in taps.taps.enumerated() {
          let at = Tap(at: Point(latitude: t.latitude, longitude: t.longitude), zoom: t.zoom)
          let hit = at.nearestByBruteForce(in: passingPoints).map { e.file.ids[passing[Int($0.id)]] }
          tap.append("\(q),\(hit.map(String.init) ?? "")")
        }
        #expect(tap.count { $0.hasSuffix(",") } > 10, "some taps find no passing point")
        #expect(tap.count { !$0.hasSuffix(",") } > 10, "some taps find one")
        #expect(tap.contains { !$0.hasSuffix(",") && $0 != "query,id" }, "some taps find a point")
        for index in allIndexTypes.map({ $0.name }) {
          let out = folder.file("v-\(index).csv")
          #expect(benchMain([
            "query", "--workload", "viewport", "--index", index, "--points", e.points, "--queries", e.queries,
            "--filter", Self.filter, "--out", out,
          ]) == 0)
          #expect(text(out) == viewport.joined(separator: "\n") + "\n", "\(index)")
          for variant in TapWorkload.variants {
            let out = folder.file("t-\(index)-\(variant).csv")
            #expect(benchMain([
              "query", "--workload", "tap", "--index", index, "--strategy", variant, "--points", e.points,
              "--queries", tapsPath, "--filter", Self.filter, "--out", out,
            ]) == 0)
            #expect(text(out) == tap.joined(separator: "\n") + "\n", "\(index) \(variant)")
          }
        }
      }
    }

    static let tinyPoints = """
      id,lat,lon,stars,price,chain
      1,48.8566,2.3522,4,180.50,chain-1
      2,48.8606,2.3376,5,420,chain-2
      3,48.8530,2.3499,3,95.25,chain-1
      4,51.5074,-0.1278,4,,chain-3
      5,51.5007,-0.1246,2,64.9,"chain-1, annex"

      """

    /// The worked example of docs/formats.md ("Filters and aggregates"): a
    /// row's filter replaces `--filter`, a quoted comma is part of a
    /// category value, an empty field keeps `--filter`, a marker without a
    /// price has empty price aggregates, and a query no point passes
    /// writes no row.
    @Test func aWorkedFilterExample() throws {
      try withTemporaryFolder { folder in
        let p = try folder.write("hotels.csv", Self.tinyPoints)
        let q = try folder.write("queries.csv", """
          min_lat,min_lon,max_lat,max_lon,zoom,filter
          40,-10,60,10,2,
          40,-10,60,10,2,"chain in (chain-1, ""chain-1, annex"")"
          40,-10,60,10,2,stars >= 5 and price <= 100

          """)
        let cluster = try runBench(
          ["query", "--workload", "cluster", "--index", "kdtree", "--points", "hotels.csv", "--queries", "queries.csv",
           "--filter", "stars >= 4", "--aggregate", "sum:price,min:price,max:stars"], in: folder.path)
        #expect(cluster.code == 0)
        #expect(cluster.stdout == """
          query,cell_x,cell_y,count,lat,lon,id,sum_price,min_price,max_stars
          0,5,3,1,51.5074000,-0.1278000,4,,,4
          0,5,4,2,48.8586000,2.3449000,,600.50,180.50,5
          1,5,3,1,51.5007000,-0.1246000,5,64.90,64.90,2
          1,5,4,2,48.8548000,2.3510500,,275.75,95.25,4

          """)
        let viewport = try runBench(
          ["query", "--index", "kdtree", "--points", p, "--queries", q, "--filter", "stars >= 4"], in: folder.path)
        #expect(viewport.code == 0)
        #expect(viewport.stdout == "query,count,id_sum\n0,3,7\n1,3,9\n2,0,0\n")
      }
    }

    /// A misspelt name exits 64 before the points load: the points file's
    /// bad row (line 3) is never read. Filters and aggregates on a
    /// workload that takes none exit 64 too.
    @Test func mistakesOnTheCommandLineExit64() throws {
      try withTemporaryFolder { folder in
        let p = try folder.write("p.csv", "id,lat,lon,stars,price\n1,10,10,4,100\n2,north,10,3,90\n")
        let q = try folder.write("q.csv", "min_lat,min_lon,max_lat,max_lon,zoom\n0,0,20,20,3\n")
        let base = ["query", "--workload", "cluster", "--index", "grid", "--points", p, "--queries", q]
        let cases: [([String], String)] = [
          (["--filter", "strs >= 4"], #"bench: --filter: no property called "strs" (did you mean "stars"?"#),
          (["--aggregate", "sum:prize"], #"bench: --aggregate sum:prize: no property called "prize""#),
          (["--filter", "stars > 4"], #"bench: --filter "stars > 4": unknown operator ">" after stars; use >="#),
          (["--aggregate", "avg:price"], #"bench: --aggregate "avg:price": "avg" is not an aggregate function"#),
          (["--aggregate", "sum:price,sum:price"], "bench: --aggregate names sum:price twice"),
        ]
        for (extra, message) in cases {
          let r = try runBench(base + extra, in: folder.path)
          #expect(r.code == 64, "\(extra)")
          #expect(r.stderrLines.first?.hasPrefix(message) == true, "\(r.stderrLines)")
        }
        let nearest = try runBench(
          ["query", "--workload", "nearest", "--index", "grid", "--points", p, "--queries", p, "--filter", "stars >= 4"],
          in: folder.path)
        #expect(nearest.code == 64)
        let viewport = try runBench(
          ["query", "--index", "grid", "--points", p, "--queries", q, "--aggregate", "sum:price"], in: folder.path)
        #expect(viewport.code == 64)
        // a filter column is refused where no filter applies
        let filtered = try folder.write("qf.csv", "min_lat,min_lon,max_lat,max_lon,zoom,filter\n0,0,20,20,3,stars >= 4\n")
        let live = try runBench(
          ["query", "--workload", "live", "--index", "grid", "--points", p, "--queries", filtered], in: folder.path)
        #expect(live.code == 64)
        #expect(live.stderrLines.first == "bench: \(filtered):2: a filter, and the live workload takes none")
        // with the names right, the load reads the bad row: bad data
        let load = try runBench(base + ["--filter", "stars >= 4"], in: folder.path)
        #expect(load.code == 65)
        #expect(load.stderrLines.first?.hasPrefix("bench: \(p):3: lat") == true, "\(load.stderrLines)")
      }
    }

    /// A bad filter in a queries file exits 65 naming the file, the row's
    /// line and the field.
    @Test func aBadRowFilterExits65NamingTheRow() throws {
      try withTemporaryFolder { folder in
        let p = try folder.write("p.csv", Self.tinyPoints)
        let cases: [(String, String)] = [
          (#""stars >= four""#, #":3: Filter a number (-?digits[.digits]) expected after >=, found "four""#),
          ("prices <= 4", #":3: Filter no property called "prices" (did you mean "price"?"#),
          ("chain in (a", #":3: Filter the list after in is not closed"#),
        ]
        for (row, message) in cases {
          let q = try folder.write("q.csv", "min_lat,min_lon,max_lat,max_lon,zoom,Filter\n40,-10,60,10,2,\n40,-10,60,10,2,\(row)\n")
          let r = try runBench(
            ["query", "--workload", "cluster", "--index", "kdtree", "--points", p, "--queries", q], in: folder.path)
          #expect(r.code == 65, "\(row)")
          #expect(r.stderrLines.first?.hasPrefix("bench: \(q)\(message)") == true, "\(r.stderrLines)")
        }
      }
    }
  }
}

extension CLITests.QueryFilterTests {
  /// A taps file's filter column replaces `--filter` for its tap: the same
  /// place tapped three times finds the hotel that passes each row's filter.
  @Test func aTapsFilesFilterColumn() throws {
    try withTemporaryFolder { folder in
      let p = try folder.write("p.csv", Self.tinyPoints)
      // Louvre Inn (1, 4 stars) and Notre Dame (3, 3 stars) lie about 0.4 km apart
      let t = try folder.write("t.csv", """
        lat,lon,zoom,filter
        48.8566,2.3522,14,
        48.8566,2.3522,14,stars <= 3
        48.8566,2.3522,14,"chain in (""chain-1, annex"")"

        """)
      for variant in TapWorkload.variants {
        let r = try runBench(
          ["query", "--workload", "tap", "--strategy", variant, "--index", "kdtree", "--points", p, "--queries", t,
           "--filter", "stars >= 4"], in: folder.path)
        #expect(r.code == 0)
        #expect(r.stdout == "query,id\n0,1\n1,\n2,\n", "\(variant)")
        let wide = try runBench(
          ["query", "--workload", "tap", "--strategy", variant, "--index", "kdtree", "--points", p, "--queries",
           try folder.write("w.csv", "lat,lon,zoom,filter\n48.8566,2.3522,12,stars <= 3\n")], in: folder.path)
        #expect(wide.stdout == "query,id\n0,3\n", "\(variant): at zoom 12 Notre Dame is within the target")
      }
    }
  }
}

extension CLITests.QueryFilterTests {
  /// GeoJSON: the features' property names are walked before the load, so
  /// a name no feature has exits 64 even where the first feature lacks a
  /// name a later one has; a bad coordinate in a later feature shows the
  /// points were never loaded.
  @Test func aGeoJSONFilesNamesAreCheckedBeforeTheLoad() throws {
    try withTemporaryFolder { folder in
      func feature(_ lon: String, _ properties: String) -> String {
        #"{"type": "Feature", "properties": \#(properties), "geometry": {"type": "Point", "coordinates": [\#(lon), 10]}}"#
      }
      func collection(_ features: [String]) -> String {
        #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",\n") + "]}\n"
      }
      let good = try folder.write("good.geojson", collection([
        feature("1", #"{"name": "a"}"#), feature("2", #"{"stars": 4, "chain": "x, y"}"#),
        feature("3", "null"), feature("4", #"{"stars": "5", "chain": "z"}"#),
      ]))
      let bad = try folder.write("bad.geojson", collection([
        feature("1", #"{"name": "a"}"#), feature("2", #"{"stars": 4}"#), feature("200", #"{"stars": 5}"#),
      ]))
      let q = try folder.write("q.csv", "min_lat,min_lon,max_lat,max_lon\n0,0,20,20\n")
      func query(_ points: String, _ filter: String) throws -> BenchResult {
        try runBench(["query", "--index", "kdtree", "--points", points, "--queries", q, "--filter", filter], in: folder.path)
      }
      let found = try query(good, #"stars >= 4 and chain in ("x, y", z)"#)
      #expect(found.code == 0)
      #expect(found.stdout == "query,count,id_sum\n0,2,4\n")
      let misspelt = try query(bad, "strs >= 4")
      #expect(misspelt.code == 64)
      #expect(misspelt.stderrLines.first
        == #"bench: --filter: no property called "strs" (did you mean "stars"? the points have "name", "stars")"#)
      let loaded = try query(bad, "stars >= 4")
      #expect(loaded.code == 65, "the names are right: the load reads the bad longitude")
    }
  }
}
