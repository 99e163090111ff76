import BenchFormats
import MapClustering
import SpatialIndexes

/// One case of the fuzzer: points, steps that ask every workload something,
/// the nearest workload's `k`s, each index's parameters, and the points'
/// properties with the filters and aggregates asked of them. Plain values,
/// so the shrinker can take it apart and the printer can write it out.
public struct FuzzCase: Sendable, Equatable {
  /// The points; a point's id is its position here.
  public var points: [Point]
  public var steps: [Step]
  /// The nearest workload's `k`s, each a variant `k=K` (0 and n + 1 included).
  public var ks: [Int]
  /// Each index's parameters by index name (one value a key); an index not
  /// named is built with its defaults.
  public var parameters: [String: [ParameterSweep]]
  /// The points' properties, one value a point in every column; none for
  /// a case without.
  public var properties: PropertyTable
  /// The clauses of the filter the viewport, cluster and tap workloads
  /// apply (joined by `and`; none: every point passes).
  public var filter: [String]
  /// The aggregates each marker of the cluster and filter session reports.
  public var aggregates: [ClusterAggregate]

  /// What one step asks each workload.
  public struct Step: Sendable, Equatable {
    /// The viewport's box, with its zoom: the viewport, cluster and live
    /// workloads' step.
    public var box: GeoQuery
    /// Where the finger lands, and the map's zoom then.
    public var tap: Point
    public var tapZoom: Int
    /// Where the nearest workload searches, and the farthest a neighbour
    /// may be (metres; infinity for no limit).
    public var position: Point
    public var reach: Double
    /// The live frame's moves, applied before the frame's view.
    public var moves: [PointMove]
    /// The filter session's filter at this step; `nil`: every point.
    public var filter: String?

    public init(
      box: GeoQuery, tap: Point, tapZoom: Int, position: Point, reach: Double = .infinity,
      moves: [PointMove] = [], filter: String? = nil
    ) {
      self.box = box
      self.tap = tap
      self.tapZoom = tapZoom
      self.position = position
      self.reach = reach
      self.moves = moves
      self.filter = filter
    }
  }

  public init(
    points: [Point], steps: [Step], ks: [Int] = [1], parameters: [String: [ParameterSweep]] = [:],
    properties: PropertyTable = .none, filter: [String] = [], aggregates: [ClusterAggregate] = []
  ) {
    self.points = points
    self.steps = steps
    self.ks = ks
    self.parameters = parameters
    self.properties = properties
    self.filter = filter
    self.aggregates = aggregates
  }

  /// The run's filter as `--filter` takes it.
  public var filterText: String { filter.joined(separator: " and ") }

  /// Whether the workloads filter or aggregate: the case has properties.
  public var filters: Bool { !properties.isEmpty }

  /// The steps as the workloads read them.
  public var mapSteps: MapSteps {
    let reaches = steps.map(\.reach)
    return MapSteps(
      source: "the fuzz case", boxes: steps.map(\.box),
      taps: steps.map { Tap(at: $0.tap, zoom: $0.tapZoom) }, positions: steps.map(\.position),
      reaches: reaches.allSatisfy { $0 == .infinity } ? nil : reaches, moves: steps.map(\.moves))
  }

  /// What the workloads run on: with properties, the run's filter and
  /// aggregates compiled for the viewport, cluster and tap workloads, and
  /// each step's filter for the filter session.
  ///
  /// - Throws: ``RunFilterError`` when a filter does not parse or fit the
  ///   properties (a fuzzer's mistake: its filters are drawn to fit).
  public func workloadData() throws(RunFilterError) -> WorkloadData {
    var data = WorkloadData(points: points, steps: mapSteps)
    guard filters else { return data }
    data.properties = properties
    let run: RunFilter, session: RunFilter
    do throws(ClusteringError) {
      run = RunFilter(filter: try PointFilter(parsing: filterText), aggregates: aggregates)
    } catch {
      throw .usage(error.description)
    }
    do throws(DataError) {
      let rows = steps.enumerated().map { k, s in s.filter.map { RowFilter(text: $0, line: k + 1, field: "step") } }
      session = try RunFilter(filter: .passesAll, aggregates: aggregates, rows: rows, source: "the fuzz case")
    } catch {
      throw .data(error)
    }
    data.filter = try run.compiled(properties, steps: steps.count)
    data.sessionFilter = try session.compiled(properties, steps: steps.count)
    return data
  }

  /// The case without its properties, filters and aggregates.
  public var unfiltered: FuzzCase {
    var c = self
    c.properties = .none
    c.filter = []
    c.aggregates = []
    for s in c.steps.indices { c.steps[s].filter = nil }
    return c
  }

  /// The variants the fuzzer runs of `workload`: its own, or for nearest
  /// one per `k` of the case.
  package func variants(of workload: any Workload.Type) -> [String] {
    workload.name == NearestWorkload.name ? ks.map { "k=\($0)" } : workload.variants
  }

  /// `parameters` of index `name`.
  public func parameters(of name: String) -> [ParameterSweep] { parameters[name] ?? [] }
}
