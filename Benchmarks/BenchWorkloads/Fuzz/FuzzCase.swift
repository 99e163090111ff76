import BenchFormats
import MapClustering
import SpatialIndexes

/// One case of the fuzzer: points, steps that ask every workload something,
/// the nearest workload's `k`s, and each index's parameters. Plain values,
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

    public init(
      box: GeoQuery, tap: Point, tapZoom: Int, position: Point, reach: Double = .infinity,
      moves: [PointMove] = []
    ) {
      self.box = box
      self.tap = tap
      self.tapZoom = tapZoom
      self.position = position
      self.reach = reach
      self.moves = moves
    }
  }

  public init(
    points: [Point], steps: [Step], ks: [Int] = [1], parameters: [String: [ParameterSweep]] = [:]
  ) {
    self.points = points
    self.steps = steps
    self.ks = ks
    self.parameters = parameters
  }

  /// The steps as the workloads read them.
  public var mapSteps: MapSteps {
    let reaches = steps.map(\.reach)
    return MapSteps(
      source: "the fuzz case", boxes: steps.map(\.box),
      taps: steps.map { Tap(at: $0.tap, zoom: $0.tapZoom) }, positions: steps.map(\.position),
      reaches: reaches.allSatisfy { $0 == .infinity } ? nil : reaches, moves: steps.map(\.moves))
  }

  public var data: WorkloadData { WorkloadData(points: points, steps: mapSteps) }

  /// The variants the fuzzer runs of `workload`: its own, or for nearest
  /// one per `k` of the case.
  package func variants(of workload: any Workload.Type) -> [String] {
    workload.name == NearestWorkload.name ? ks.map { "k=\($0)" } : workload.variants
  }

  /// `parameters` of index `name`.
  public func parameters(of name: String) -> [ParameterSweep] { parameters[name] ?? [] }
}
