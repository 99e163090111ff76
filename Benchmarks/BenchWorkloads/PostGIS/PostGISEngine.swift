import BenchFormats
import BenchHarness
import Foundation
import MapClustering
import SpatialIndexes

/// What one query's answers were against the linear scan's.
public struct PeerCheck: Sendable, Equatable {
  /// `postgis-gist viewport/bbox (server)`.
  public var label: String
  public var steps: Int
  public var differingSteps: Int
  /// Whether its answers should agree (`bbox` is known not to).
  public var exact: Bool
  /// The first few differences.
  public var problems: [String]

  /// A difference in a query that should be exact.
  public var fails: Bool { exact && differingSteps > 0 }
}

/// The rows and checks of one run on a database engine.
public struct PeerResult: Sendable {
  public var rows: [ReportRow]
  public var checks: [PeerCheck]
}

/// Runs the workloads on PostGIS, beside the indexes: loads the dataset
/// (the build row), then for each query (``PostGISQuery``) sends every step
/// as its own statement and times it twice, inside the server (PL/pgSQL
/// reading `clock_timestamp()` around the step's query) and from the client
/// (`psql`'s `\timing`: the round trip over the socket included), and checks
/// every answer against the linear scan's. Rows: `index` `postgis-gist` (or `-spgist`, `-brin`), `params` `clock=server`
/// or `clock=client`, `wrong_answers` the steps that differ.
public struct PostGISEngine {
  /// The index method of the `geom` and `geog` columns: GiST by default;
  /// SP-GiST and BRIN as further rows.
  public enum Method: String, CaseIterable, Sendable {
    case gist, spgist, brin

    /// The report's `index`: `postgis-gist`.
    public var indexName: String { "postgis-\(rawValue)" }

    /// Whether its index orders by distance on `geography` (KNN): GiST
    /// only. With SP-GiST (PostGIS 3.3) or BRIN a query reading in KNN order
    /// sorts the whole table (565-650 ms a step at 1M hotels on SP-GiST).
    public var ordersByDistance: Bool { self == .gist }
  }

  public let server: PostgresServer
  public let method: Method
  public let measure: MeasureOptions
  public let metadata: RunMetadata
  public var observer: any RunObserver

  public init(
    server: PostgresServer, method: Method = .gist, measure: MeasureOptions, metadata: RunMetadata,
    observer: any RunObserver
  ) {
    self.server = server
    self.method = method
    self.measure = measure
    self.metadata = metadata
    self.observer = observer
  }

  /// The one schema a run creates on the server, and drops: on a server
  /// of the user's, the command names it, so that one a Ctrl-C left behind
  /// can be found and dropped.
  public var schemaName: String { schema.name }
  let schema = PostGISSchema()

  /// Throws, one line and exit 69, when the database of a user's server
  /// (`--connection`) has no PostGIS: bench creates no extension there.
  public static func requirePostGIS(on server: PostgresServer) throws {
    guard !server.isOwn else { return }
    let has = try server.psql(PostGISSchema.hasPostGIS, name: "check")
    guard has.first == "1" else {
      throw PeerError(
        .unavailable,
        "the database of --connection has no PostGIS extension (CREATE EXTENSION postgis there;"
          + " bench changes nothing it did not create)")
    }
  }

  /// Whether a run of `workloads` reads in KNN order (nearest, tap
  /// through KNN).
  public static func readsKNNOrder(_ workloads: [WorkloadChoice]) -> Bool {
    PostGISQuery.all(for: workloads).contains(where: \.readsKNNOrder)
  }

  /// The units a ``RunObserver`` hears of: the load, then one per query.
  public static func units(_ workloads: [WorkloadChoice]) -> Int { 1 + PostGISQuery.all(for: workloads).count }

  /// Loads `dataset`, runs `workloads` over `steps` and drops what it made.
  ///
  /// With `filter` (the run's `--filter` and `--aggregate`: their text for
  /// the rows' `filter` column, the filter, and it compiled for the linear
  /// scan), the dataset's properties are loaded as columns, the viewport,
  /// cluster and tap read only the points that pass (`WHERE`), each cluster
  /// cell reports `sum`, `min` and `max` of their units, and the answers
  /// are checked against the filtered linear scan's.
  public mutating func run(
    _ dataset: LoadedDataset, steps: MapSteps, workloads: [WorkloadChoice],
    filter: (text: String, run: RunFilter, compiled: StepFilter)? = nil
  ) throws -> PeerResult {
    try Self.requirePostGIS(on: server)
    defer { _ = try? server.psql(schema.drop, name: "drop") }
    let data = WorkloadData(points: dataset.points, steps: steps, filter: filter?.compiled)
    let sql = filter.map {
      PostGISFilter(filter: $0.run.filter, aggregates: $0.run.aggregates, properties: dataset.properties)
    }
    observer.status("\(method.indexName): the linear scan's answers, for the checks")
    let reference = try Verification.referenceAnswers(data, workloads: workloads)
    let clusterer = workloads.contains { $0.name == ClusterWorkload.name }
      ? try Clusterer(index: LinearScanIndex(points: dataset.points), points: dataset.points) : nil

    observer.start("\(method.indexName) build")
    let csv = server.workFolder + "/points.csv"
    try Self.writePoints(dataset.points, to: csv, properties: sql)
    let t0 = Stopwatch.now()
    let loaded = try server.psql(
      schema.load(csvFile: csv, method: method.rawValue, createExtension: server.isOwn, filter: sql), name: "load")
    let buildMs = Double(Stopwatch.now() &- t0) / 1e6
    try? FileManager.default.removeItem(atPath: csv)
    let bytes = loaded.last.flatMap { Int($0) } ?? 0
    var maker = PeerRowMaker(
      index: method.indexName, dataset: dataset, buildMs: buildMs, bytes: bytes, bands: steps.zoomBands,
      steps: steps.count, metadata: metadata)
    if let filter {
      for w in RunFilter.filteredWorkloads {
        maker.filterLabels[w] = StepFilter.label(workload: w, filterText: filter.text, aggregates: filter.run.aggregates)
      }
    }
    var rows = [maker.row(
      "build", "", clock: "client",
      BenchHarness.Measurement(samples: [buildMs * 1e6], batch: 1, passes: 1, checksum: UInt64(dataset.count), resultsTotal: 0),
      wrong: nil)]
    var checks: [PeerCheck] = []

    for query in PostGISQuery.all(for: workloads) {
      guard let stepRows = query.stepRows(steps, cells: .default) else { continue }
      let checker = PeerChecker(
        query: query, steps: steps, reference: reference, clusterer: clusterer, points: dataset.points,
        aggregateScales: sql?.aggregates.map(\.scale) ?? [])
      let table = server.workFolder + "/steps_\(query.sqlName).csv"
      try Self.write(stepRows, to: table)
      _ = try server.psql(
        query.functions(schema: schema.name, filter: sql)
          + "\\copy \(schema.name).steps_\(query.sqlName) FROM '\(table)' WITH (FORMAT csv)\n",
        name: "setup_\(query.sqlName)")
      observer.start("\(method.indexName) \(query.workload) \(query.strategy)")
      let timed = try passes(query, schema: schema, steps: steps.count, aggregates: sql?.aggregates.count ?? 0)
      let check = Self.check(timed.answers, checker, label: "\(method.indexName) \(query.workload)/\(query.strategy)")
      checks.append(check)
      for (clock, samples) in [("server", timed.server), ("client", timed.client)] {
        let m = BenchHarness.Measurement(
          samples: samples, batch: 1, passes: timed.passes, checksum: Self.checksum(timed.answers),
          resultsTotal: UInt64(timed.answers.reduce(0) { $0 + checker.results($1) }))
        rows += maker.rows(query.workload, query.strategy, clock: clock, m, wrong: UInt64(check.differingSteps))
      }
    }
    return PeerResult(rows: rows, checks: checks)
  }

  // MARK: - Timing

  /// The first pass's answers, and each timed pass's step times by both clocks.
  struct Timed {
    var answers: [PeerRows]
    var server: [Double] = []
    var client: [Double] = []
    var passes = 0
  }

  /// Each step as its own statement from `psql`, one pass after another:
  /// the one-step function times its query inside the server
  /// (`clock_timestamp()` around it, its time row), and `psql`'s `\timing`
  /// the whole statement, from sending it to the whole result received.
  /// Both clocks time the same calls. `warmup` passes first (at least one,
  /// whose answers are checked), then up to `repeats` timed ones, no
  /// further one starting once the budget has passed (after the first).
  func passes(_ query: PostGISQuery, schema: PostGISSchema, steps: Int, aggregates: Int = 0) throws -> Timed {
    let call = "SELECT * FROM \(schema.name).step_\(query.sqlName)"
    let pass = "\\timing on\n" + (0..<steps).map { "\(call)(\($0));\n" }.joined()
    let warm = max(1, measure.warmup)
    var timed = Timed(answers: [])
    let started = Stopwatch.now()
    for p in 0..<(warm + measure.repeats) {
      if p > warm && measure.budget > 0 && Double(Stopwatch.now() &- started) > measure.budget { break }
      let lines = try server.psql(pass, name: "steps_\(query.sqlName)")
      var step = 0, current: PeerRows = []
      var server: [Double] = [], client: [Double] = []
      for line in lines {
        if line.hasPrefix("Time: ") {
          // `Time: 0.412 ms`, or `Time: 1234.567 ms (00:01.235)`
          client.append((Double(line.dropFirst(6).prefix { $0 != " " }) ?? 0) * 1e6)
          if p == 0 { timed.answers.append(current) }
          current = []
          step += 1
          continue
        }
        let f = Self.fields(line)
        guard f.count == 9 + aggregates else { continue }
        if let ns = f[2] { server.append(Double(ns)) } else { current.append(Array(f[3...])) }
      }
      guard step == steps, server.count == steps else {
        throw PeerError(.failed, "psql answered \(step) of \(steps) steps of \(query.sqlName)")
      }
      if p >= warm {
        timed.server += server
        timed.client += client
        timed.passes += 1
      }
    }
    return timed
  }

  // MARK: - Checks and files

  static func check(_ answers: [PeerRows], _ checker: PeerChecker, label: String) -> PeerCheck {
    var check = PeerCheck(label: label, steps: answers.count, differingSteps: 0, exact: checker.query.isExact, problems: [])
    for (step, rows) in answers.enumerated() {
      guard let why = checker.difference(step: step, rows: rows) else { continue }
      check.differingSteps += 1
      if check.problems.count < 3 { check.problems.append("step \(step): \(why)") }
    }
    return check
  }

  /// A digest of every answer row, in step order.
  static func checksum(_ answers: [PeerRows]) -> UInt64 {
    var h: UInt64 = 0
    for rows in answers {
      for r in rows {
        for v in r { h = mix64(h ^ UInt64(bitPattern: v ?? Int64.min)) }
      }
      h = mix64(h &+ 1)
    }
    return h
  }

  /// The integer fields of a CSV line (`psql --csv`: no quoting for
  /// numbers), `nil` for an empty one (SQL `NULL`).
  static func fields(_ line: Substring) -> [Int64?] {
    line.split(separator: ",", omittingEmptySubsequences: false).map { Int64($0) }
  }

  /// `id,lon,lat` for each point, `id` its place in `points`, then its
  /// `properties` fields; written in blocks, so 10M points never make one
  /// 400 MB string.
  static func writePoints(_ points: [Point], to path: String, properties: PostGISFilter? = nil) throws {
    var rows: [[String]] = []
    rows.reserveCapacity(min(points.count, 1 << 16))
    guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path)
    else { throw PeerError(.failed, "cannot create \(path)") }
    defer { try? file.close() }
    var text = ""
    for (i, p) in points.enumerated() {
      text += "\(i),\(PostGISQuery.float(p.x)),\(PostGISQuery.float(p.y))\(properties?.csvFields(i) ?? "")\n"
      if text.utf8.count > 1 << 20 || i == points.count - 1 {
        try file.write(contentsOf: Data(text.utf8))
        text = ""
      }
    }
  }

  static func write(_ rows: [[String]], to path: String) throws {
    let text = rows.map { $0.joined(separator: ",") + "\n" }.joined()
    do {
      try text.write(toFile: path, atomically: false, encoding: .utf8)
    } catch {
      throw PeerError(.failed, "cannot write \(path): \(error.localizedDescription)")
    }
  }
}

/// Report rows of the engine: one per clock, and its zoom bands.
struct PeerRowMaker {
  let index: String
  let dataset: LoadedDataset
  let buildMs: Double
  let bytes: Int
  let bands: [ZoomBand]
  let steps: Int
  let metadata: RunMetadata
  /// The `filter` column of each filtered workload's rows.
  var filterLabels: [String: String] = [:]

  func rows(_ workload: String, _ strategy: String, clock: String, _ m: BenchHarness.Measurement, wrong: UInt64?) -> [ReportRow] {
    [row(workload, strategy, clock: clock, m, wrong: wrong)]
      + bands.map { band in
        var r = row(workload, strategy, clock: clock, m.cut(to: band, steps: steps), wrong: wrong)
        r.key.zooms = band.name
        return r
      }
  }

  func row(_ workload: String, _ strategy: String, clock: String, _ m: BenchHarness.Measurement, wrong: UInt64?) -> ReportRow {
    ReportRow(
      key: ReportKey(
        index: index, params: "clock=\(clock)", dataset: dataset.name, n: dataset.count,
        workload: workload, strategy: strategy, filter: filterLabels[workload] ?? ""),
      timing: TimingSummary(m), buildMilliseconds: buildMs, indexBytes: bytes,
      peakRSSBytes: MachineInfo.peakResidentBytes(), resultsTotal: m.resultsTotal, checksum: m.checksum,
      wrongAnswers: wrong, run: metadata, datasetOrigin: dataset.origin)
  }
}
