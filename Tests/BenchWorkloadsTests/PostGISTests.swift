import BenchFormats
import BenchHarness
import Foundation
import MapClustering
import SpatialIndexes
import Testing
import _SpatialTestSupport

@testable import BenchWorkloads

/// The points every PostGIS check runs on: clusters, cell edges with
/// duplicates on them, a pile of identical points, the antimeridian and
/// the poles (beyond the map, where clusters never show them).
private let peerPoints = Fixtures.clustered(1500, seed: 31) + Fixtures.cellEdges() + Fixtures.identical(40)
  + [Point(x: 180, y: 0), Point(x: -180, y: 0), Point(x: 180, y: 10), Point(x: -180, y: 10),
     Point(x: 0, y: 85.06), Point(x: 0, y: 90), Point(x: 10, y: -90), Point(x: 179.99, y: -17),
     Point(x: 0, y: WebMercator.maxLatitude), Point(x: 0, y: -WebMercator.maxLatitude),
     Point(x: 180, y: 5), Point(x: 180, y: 5), Point(x: 180.0.nextDown, y: 5.01)]

/// Whether this machine has PostgreSQL with PostGIS, for the tests that need them.
let postGISInstalled = (try? PostgresTools.find(needsServer: true))?.hasPostGIS() ?? false

/// The session over those points, views centred on the antimeridian (two
/// boxes, +180 in column 0 with −180) at zooms 2 to 19, and boxes ending at
/// +180 or starting at −180.
private func peerSteps(_ count: Int = 60) -> MapSteps {
  var steps = MapSteps(session: ViewportSession(points: peerPoints, parameters: SessionParameters(steps: count, seed: 32)))
  for zoom in 2...19 {
    let view = Viewport(center: Point(x: zoom % 2 == 0 ? 180 : -179.9999, y: 5), zoom: zoom, width: 390, height: 844)
    steps.rects!.append(view.rects)
    steps.areas!.append(view.visibleArea)
    steps.taps!.append(Tap(x: 195, y: 422, in: view))
    steps.count += 1
  }
  // boxes whose east edge is +180 (their points there in column 0) or whose west edge is −180
  for zoom in [0, 4, 9, 12, 15, 19] {
    let w = 3 * ClusterCellTable.default.cellSize(zoom: zoom) / WebMercator.worldSize(zoom: zoom) * 360
    for rect in [Rect(minX: 180 - w, minY: 4.9, maxX: 180, maxY: 5.1), Rect(minX: -180, minY: 4.9, maxX: -180 + w, maxY: 5.1)] {
      steps.rects!.append([rect])
      steps.areas!.append(VisibleArea(zoom: zoom, rect: rect))
      steps.taps!.append(Tap(at: Point(x: rect.maxX, y: 5), zoom: zoom))
      steps.count += 1
    }
  }
  return steps
}

/// What the engine checks, without a database: the server's answer rows,
/// made here by brute force as the SQL makes them, agree with the linear
/// scan; changed rows do not.
@Suite struct PeerCheckerTests {
  /// A step's cell totals as the cluster query groups them: the points in
  /// each box, by their ``MapCells`` cell, summed in 1e-7° units, a point at
  /// map x 256 (+180°) in column 0 at −180°.
  static func clusterRows(_ area: VisibleArea, _ points: [Point]) -> PeerRows {
    let zoom = min(WebMercator.zoomRange.upperBound, max(0, area.zoom))
    let s = WebMercator.scale(zoom: zoom), c = ClusterCellTable.default.cellSize(zoom: zoom)
    var totals: [SIMD2<Int>: (count: Int64, lon: Int64, lat: Int64, id: Int64)] = [:]
    let boxes = area.count == 2 && area.first != area.second ? [area.first, area.second] : [area.first]
    for box in boxes where box.isValid {
      for (i, p) in points.enumerated() where box.contains(x: p.x, y: p.y) {
        let x = WebMercator.x(longitude: p.x), east = x == 256
        let key = SIMD2(
          MapCells.index(east ? 0 : x, scale: s, cellSize: c, inverse: 1 / c),
          MapCells.index(WebMercator.y(latitude: p.y), scale: s, cellSize: c, inverse: 1 / c))
        var t = totals[key, default: (0, 0, 0, Int64(i))]
        t.count += 1
        t.lon += east ? -1_800_000_000 : Int64(MapCells.units(p.x))
        t.lat += Int64(MapCells.units(p.y))
        t.id = min(t.id, Int64(i))
        totals[key] = t
      }
    }
    return totals.map { key, t in [Int64(key.x), Int64(key.y), t.count, t.lon, t.lat, t.id] }
  }

  @Test func clusterTotalsMakeTheLinearScansMarkersAndAChangedTotalDoesNot() throws {
    let steps = peerSteps()
    let reference = try Verification.referenceAnswers(
      WorkloadData(points: peerPoints, steps: steps), workloads: [WorkloadChoice(ClusterWorkload.self)])
    let checker = PeerChecker(
      query: .cluster, steps: steps, reference: reference,
      clusterer: try Clusterer(index: LinearScanIndex(points: peerPoints), points: peerPoints), points: peerPoints)
    var changed = 0
    for step in 0..<steps.count {
      var rows = Self.clusterRows(steps.areas![step], peerPoints)
      #expect(checker.difference(step: step, rows: rows) == nil, "step \(step)")
      guard !rows.isEmpty else { continue }
      rows[0][2]! += 1  // one point more in a cell
      #expect(checker.difference(step: step, rows: rows) != nil, "step \(step)")
      changed += 1
    }
    #expect(changed > steps.count / 3)
    // the session crosses the antimeridian, where +180 is in column 0 with −180
    #expect(steps.areas!.contains { $0.count == 2 })
  }

  /// PostGIS may order two equally far points (+180° and −180° on one
  /// parallel) the other way: the checker takes a tie swapped, and nothing
  /// else.
  /// A cluster row's aggregates (units after the six totals) are checked
  /// against the linear scan's as the answer file prints them: the same
  /// units agree, one unit more or a missing value does not.
  @Test func aggregatesAreCheckedAsPrinted() throws {
    let steps = peerSteps(3)
    let n = peerPoints.count
    let properties = PropertyTable(columns: [
      .decimal(DecimalColumn(name: "price", scale: 2, units: (0..<n).map { Int64($0 % 500) - 250 })),
    ])
    let run = RunFilter(filter: try PointFilter(parsing: "price >= 0"), aggregates: [try ClusterAggregate(parsing: "sum:price")])
    let compiled = try run.compiled(properties, steps: steps.count)
    let reference = try Verification.referenceAnswers(
      WorkloadData(points: peerPoints, steps: steps, filter: compiled), workloads: [WorkloadChoice(ClusterWorkload.self)])
    let expected = try #require((reference[ClusterWorkload.name] as? [ClusterAnswer])?.first)
    let checker = PeerChecker(
      query: .cluster, steps: steps, reference: reference, clusterer: nil, points: peerPoints, aggregateScales: [2])
    let units = expected.aggregates.map { Int64($0.description.replacingOccurrences(of: ".", with: ""))! }
    func rows(_ change: (inout [Int64?]) -> Void) -> PeerRows {
      var values: [Int64?] = units
      change(&values)
      return expected.markers.enumerated().map { k, m in
        [Int64(m.key.column), Int64(m.key.row), 0, 0, 0, 0, values[k]]
      }
    }
    #expect(expected.markers.count > 1)
    #expect(checker.aggregateDifference(rows { _ in }, expected.markers, expected) == nil)
    #expect(checker.aggregateDifference(rows { $0[1]! += 1 }, expected.markers, expected) != nil)
    #expect(checker.aggregateDifference(rows { $0[0] = nil }, expected.markers, expected) != nil)
  }

  @Test func nearestTiesMaySwapButNothingElse() throws {
    let points = [Point(x: 180, y: 10), Point(x: -180, y: 10), Point(x: 172, y: 10), Point(x: 0, y: 0)]
    let steps = MapSteps(positions: [Point(x: 175, y: 10)], source: "q")
    let reference = try Verification.referenceAnswers(
      WorkloadData(points: points, steps: steps), workloads: [WorkloadChoice(name: NearestWorkload.name, variants: ["k=3"])])
    let checker = PeerChecker(query: .nearest(k: 3), steps: steps, reference: reference, clusterer: nil, points: points)
    func rows(_ ids: [Int64]) -> PeerRows { ids.map { [$0, nil, nil, nil, nil, nil] } }
    #expect(checker.difference(step: 0, rows: rows([2, 0, 1])) == nil)
    #expect(checker.difference(step: 0, rows: rows([2, 1, 0])) == nil)  // the tie at ±180°, swapped
    #expect(checker.difference(step: 0, rows: rows([0, 2, 1])) != nil)  // 172° is nearer, not tied
    #expect(checker.difference(step: 0, rows: rows([2, 0, 0])) != nil)  // one point twice
    #expect(checker.difference(step: 0, rows: rows([2, 0, 3])) != nil)  // a farther point
    #expect(checker.difference(step: 0, rows: rows([2, 0])) != nil)
  }

  @Test func viewportDigestsSeeAMissingOrExtraPoint() throws {
    let steps = peerSteps()
    let reference = try Verification.referenceAnswers(
      WorkloadData(points: peerPoints, steps: steps), workloads: [WorkloadChoice(ViewportWorkload.self)])
    let ids = try #require(reference[ViewportWorkload.name] as? [[Int32]])
    let checker = PeerChecker(
      query: .viewport(exact: true), steps: steps, reference: reference, clusterer: nil, points: peerPoints)
    for step in 0..<steps.count where !ids[step].isEmpty {
      let digest = PeerChecker.digest(ids[step])
      #expect(checker.difference(step: step, rows: [digest.map { Optional($0) }]) == nil)
      // the same count and sum: another point swapped in keeps both, not the mix
      var swapped = ids[step]
      guard let last = swapped.last, Int(last) + 1 < peerPoints.count, swapped.count >= 2,
            !swapped.contains(last + 1), !swapped.contains(swapped[0] - 1), swapped[0] > 0
      else { continue }
      swapped[swapped.count - 1] += 1
      swapped[0] -= 1
      #expect(checker.difference(step: step, rows: [PeerChecker.digest(swapped).map { Optional($0) }]) != nil)
      #expect(checker.difference(step: step, rows: [PeerChecker.digest(Array(ids[step].dropLast())).map { Optional($0) }]) != nil)
    }
  }
}

/// The engine on a real PostGIS: a server of its own, every workload, every
/// answer checked. Runs where PostgreSQL and PostGIS are installed (CI
/// installs them); elsewhere it is skipped, and says why.
@Suite(.enabled(if: postGISInstalled, "needs PostgreSQL and PostGIS: apt-get install postgresql postgresql-15-postgis-3"))
struct PostGISTests {
  @Test func everyQueryAgreesWithTheLinearScanOnEdgeCases() throws {
    let server = try PostgresServer.start()
    let folder = server.workFolder
    defer { server.stop() }
    let steps = peerSteps()
    let dataset = LoadedDataset(name: "edges", points: peerPoints, ids: peerPoints.indices.map { UInt64($0) })
    var engine = PostGISEngine(
      server: server, measure: MeasureOptions(repeats: 1, warmup: 1, budget: 0, clockOverhead: 0),
      metadata: RunMetadata.current(seed: 32, gitDirectory: nil), observer: SilentObserver())
    let types: [any Workload.Type] = [ViewportWorkload.self, ClusterWorkload.self, TapWorkload.self, NearestWorkload.self]
    let workloads = types.map { WorkloadChoice($0) }
    let result = try engine.run(dataset, steps: steps, workloads: workloads)

    // viewport bbox and exact, cluster, tap by range and by KNN, nearest k = 1, 10, 100
    #expect(result.checks.count == 8)
    #expect(result.checks.contains { $0.label == "postgis-gist tap/nearest" })
    for c in result.checks {
      #expect(c.steps == steps.count, "\(c.label)")
      if c.exact { #expect(c.differingSteps == 0, "\(c.label): \(c.problems)") }
    }
    let whole = result.rows.filter { $0.key.zooms == "all" }
    #expect(whole.count == 1 + 2 * 8)
    #expect(whole[0].key.workload == "build" && whole[0].buildMilliseconds > 0 && whole[0].indexBytes > 0)
    for r in whole.dropFirst() {
      #expect(r.key.index == "postgis-gist")
      #expect(r.key.params == "clock=server" || r.key.params == "clock=client")
      #expect(r.timing.samples == steps.count, "\(r.key)")
      #expect(r.wrongAnswers != nil)
    }
    // both clocks got the same answers
    let serverRows = whole.filter { $0.key.params == "clock=server" }
    let clientRows = whole.filter { $0.key.params == "clock=client" && $0.key.workload != "build" }
    #expect(serverRows.count == clientRows.count)
    for (a, b) in zip(serverRows, clientRows) {
      #expect(a.checksum == b.checksum && a.resultsTotal == b.resultsTotal, "\(a.key)")
    }
    // zoom bands cut the same samples
    #expect(result.rows.contains { $0.key.zooms == "0-3" })
    server.stop()
    #expect(!FileManager.default.fileExists(atPath: folder), "the server's folder is removed")
  }

  /// The same work filtered and summed: the properties loaded as columns,
  /// a `WHERE` on the viewport, the cluster (with `SUM`, `MIN` and `MAX` of
  /// each cell) and both taps, every answer against the filtered linear
  /// scan, on the edge points with properties that hold duplicates of
  /// different values, missing values, ties, `-0.00`, a bound finer than
  /// the column and a quoted category holding a comma and a quote.
  @Test func filteredWorkAgreesWithTheFilteredLinearScan() throws {
    let server = try PostgresServer.start()
    defer { server.stop() }
    let steps = peerSteps(30)
    let n = peerPoints.count
    let brands = ["Inn, The", "say \"hi\"", "plain", "O'Hara"]
    let brand: [String?] = (0..<n).map { $0 % 7 == 6 ? nil : brands[$0 % brands.count] }
    // missing every 11th; from -200.00 to 199.99, ties and -0.00 (0) among them
    let price: [Int64] = (0..<n).map { i in i % 11 == 10 ? DecimalColumn.missing : Int64((i * 7919) % 40_000) - 20_000 }
    let properties = PropertyTable(columns: [
      .category(CategoryColumn(name: "brand", values: brand)),
      .decimal(DecimalColumn(name: "price", scale: 2, units: price)),
    ])
    let dataset = LoadedDataset(
      name: "edges", points: peerPoints, ids: peerPoints.indices.map { UInt64($0) }, properties: properties)
    var engine = PostGISEngine(
      server: server, measure: MeasureOptions(repeats: 1, warmup: 1, budget: 0, clockOverhead: 0),
      metadata: RunMetadata.current(seed: 32, gitDirectory: nil), observer: SilentObserver())
    let types: [any Workload.Type] = [ViewportWorkload.self, ClusterWorkload.self, TapWorkload.self]
    let workloads = types.map { WorkloadChoice($0) }
    let cases: [(String, [String])] = [
      ("brand in (\"Inn, The\", \"say \"\"hi\"\"\", O'Hara) and price >= -0.00", ["sum:price", "min:price", "max:price"]),
      ("price <= 50.005", ["max:price"]),
      ("price in (-41.62, -41.620, 108.66, 0.001, 25.425) and brand = plain", ["sum:price"]),
    ]
    for (text, aggregates) in cases {
      let run = RunFilter(
        filter: try PointFilter(parsing: text), aggregates: try aggregates.map { try ClusterAggregate(parsing: $0) })
      let compiled = try run.compiled(properties, steps: steps.count)
      let result = try engine.run(
        dataset, steps: steps, workloads: workloads, filter: (text: text, run: run, compiled: compiled))
      // viewport bbox and exact, cluster, tap by range and by KNN
      #expect(result.checks.count == 5)
      for c in result.checks where c.exact { #expect(c.differingSteps == 0, "\(text): \(c.label): \(c.problems)") }
      let cluster = result.rows.filter { $0.key.workload == "cluster" && $0.key.zooms == "all" }
      #expect(cluster.allSatisfy { $0.key.filter == "\(text) aggregate \(aggregates.joined(separator: ","))" })
      #expect(result.rows.filter { $0.key.workload == "viewport" }.allSatisfy { $0.key.filter == text })
      #expect(cluster.allSatisfy { $0.resultsTotal > 0 }, "\(text): the filter keeps some points in view")
    }
  }

  /// The translation to SQL, exact: a bound rounded to the units that
  /// pass, a value of `in` no unit equals dropped, quotes doubled.
  @Test func filtersBecomeExactSQL() throws {
    let properties = PropertyTable(columns: [
      .category(CategoryColumn(name: "c", values: ["O'Hara"])),
      .decimal(DecimalColumn(name: "x", scale: 2, units: [150])),
    ])
    func sql(_ text: String) throws -> String {
      PostGISFilter(filter: try PointFilter(parsing: text), aggregates: [], properties: properties).condition
    }
    #expect(try sql("c = O'Hara") == "(p0 IN ('O''Hara'))")
    #expect(try sql("x >= 1.501") == "(p1 >= 151)")
    #expect(try sql("x <= 1.509") == "(p1 <= 150)")
    #expect(try sql("x >= -1.501") == "(p1 >= -150)")
    #expect(try sql("x <= -1.501") == "(p1 <= -151)")
    #expect(try sql("x in (1.5, 1.505, -0.00)") == "(p1 IN (150, 0))")
    #expect(try sql("x in (1.505)") == "(FALSE)")
    #expect(try sql("x >= 99999999999999999999") == "(FALSE)")
    #expect(try sql("x <= 99999999999999999999") == "(p1 IS NOT NULL)")
    #expect(try sql("") == "TRUE")
  }

  /// On a server of the user's (`--connection`): no PostGIS there is
  /// refused; with it, the run answers right, works in one schema of its
  /// own and drops it, and leaves the user's tables as they were.
  @Test func aServerOfTheUsersKeepsItsTablesAndLosesOnlyBenchsSchema() throws {
    let own = try PostgresServer.start()
    defer { own.stop() }
    let user = try PostgresServer.connect("host=\(own.workFolder)/d user=bench dbname=postgres")
    #expect(throws: PeerError.self) { try PostGISEngine.requirePostGIS(on: user) }
    _ = try own.psql("CREATE EXTENSION postgis;\nCREATE TABLE mine (v int4);\nINSERT INTO mine VALUES (7);\n", name: "user")
    try PostGISEngine.requirePostGIS(on: user)

    let points = Fixtures.clustered(300, seed: 5)
    let dataset = LoadedDataset(name: "mine", points: points, ids: points.indices.map { UInt64($0) })
    var engine = PostGISEngine(
      server: user, measure: MeasureOptions(repeats: 1, warmup: 1, budget: 0, clockOverhead: 0),
      metadata: RunMetadata.current(seed: 5, gitDirectory: nil), observer: SilentObserver())
    let steps = MapSteps(session: ViewportSession(points: points, parameters: SessionParameters(steps: 10, seed: 5)))
    let result = try engine.run(dataset, steps: steps, workloads: [WorkloadChoice(ClusterWorkload.self)])
    #expect(result.checks.allSatisfy { $0.differingSteps == 0 }, "\(result.checks)")
    #expect(engine.schemaName.hasPrefix("spatialbench_"))
    let after = try own.psql(
      "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'spatialbench%';\nSELECT v FROM mine;\n", name: "after")
    #expect(after == ["0", "7"])
    let folder = user.workFolder
    user.stop()
    #expect(!FileManager.default.fileExists(atPath: folder), "its scratch folder is removed")
  }

  /// The SQL of each formula gives Swift's bits on values where rounding
  /// decides: cell edges, the map's edges, halves of 1e-7°.
  @Test func sqlFormulasGiveSwiftsBits() throws {
    let server = try PostgresServer.start()
    defer { server.stop() }
    let schema = PostGISSchema()
    var latitudes = Fixtures.cellEdges().map(\.y) + [0, 85.06, -85.06, 90, -90, 45, 1e-300, -0.0]
    latitudes += [WebMercator.maxLatitude, -WebMercator.maxLatitude, WebMercator.maxLatitude.nextDown]
    let longitudes = Fixtures.cellEdges().map(\.x) + [180, -180, 0.00000005, -0.00000005, 0.00000015, 1.23456785, -179.99999995]
    let values = (latitudes + longitudes).enumerated().map { "\($0.offset), \(PostGISQuery.float($0.element))" }
      .joined(separator: "),(")
    let lines = try server.psql(
      "CREATE SCHEMA \(schema.name);\n" + schema.functions
        + "SELECT \(schema.name).map_y(v), \(schema.name).units(v), \(schema.name).cell((v + 180) / 360 * 256, 2^z, c)"
        + " FROM (VALUES (\(values))) AS t(i, v), (VALUES (0, 88), (3, 88), (14, 64), (19, 16)) AS g(z, c)"
        + " ORDER BY t.i, g.z;\n",
      name: "formulas")
    let grids: [(Int, Double)] = [(0, 88), (3, 88), (14, 64), (19, 16)]
    var k = 0
    for v in latitudes + longitudes {
      for (z, c) in grids {
        let f = lines[k].split(separator: ",")
        k += 1
        #expect(Double(f[0])?.bitPattern == WebMercator.y(latitude: v).bitPattern, "map_y(\(v))")
        #expect(Int(f[1]) == Int(MapCells.units(v)), "units(\(v))")
        let s = WebMercator.scale(zoom: z)
        #expect(Int(f[2]) == MapCells.index(WebMercator.x(longitude: v), scale: s, cellSize: c, inverse: 1 / c), "cell(\(v), z\(z))")
      }
    }
    #expect(k == lines.count && k > 1000)
  }
}
