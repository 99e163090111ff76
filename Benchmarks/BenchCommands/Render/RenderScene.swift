import BenchHarness
import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// Clusters the viewport (and the panned one) as the cluster workload does
/// and turns the result into a ``MapPicture``.
enum RenderScene {
  /// Timed repetitions of each clustering step (after two untimed ones); the
  /// caption gives their median.
  static let samples = 5

  /// The picture for `options` over `dataset`, clustered through the index
  /// `options.index` with its default parameters, over `coastlines`.
  static func picture(
    _ options: RenderOptions, dataset: LoadedDataset, coastlines: Coastlines? = MapCoastlines.bundled
  ) throws -> MapPicture {
    var operation = Picture(options: options, dataset: dataset, coastlines: coastlines)
    guard let picture = try withIndexType(named: options.index, &operation) else {
      throw UsageError.unknown(
        "index", options.index, valid: allIndexTypes.map { $0.name }, command: RenderOptions.command
      )
    }
    return picture
  }

  /// ``picture(_:_:_:)`` for one concrete index type (so the timed clustering specialises).
  private struct Picture: IndexTypeOperation {
    let options: RenderOptions
    let dataset: LoadedDataset
    let coastlines: Coastlines?

    func run<I: DescribedIndex>(_ type: I.Type) throws -> MapPicture {
      try RenderScene.picture(type, options, dataset, coastlines)
    }
  }

  private static func picture<I: DescribedIndex>(
    _ type: I.Type, _ options: RenderOptions, _ dataset: LoadedDataset, _ coastlines: Coastlines?
  ) throws -> MapPicture {
    var clusterer = try Clusterer<I>(points: dataset.points)
    let measureOptions = MeasureOptions(
      repeats: samples, warmup: 2, budget: 0, clockOverhead: Stopwatch.measureOverhead())
    func view(_ viewport: Viewport) -> ClusterView {
      let markers = clusterer.markers(for: viewport, strategy: options.strategy)
      var step = ClusterOnce(clusterer: clusterer, viewport: viewport, strategy: options.strategy)
      let timing = measure(&step, options: measureOptions)
      let inView = viewport.rects.reduce(0) { $0 + clusterer.index.count(in: $1) }
      return ClusterView(viewport: viewport, markers: markers, pointsInView: inView, timing: timing)
    }
    let viewport = options.viewport
    let source = MapSource(
      dataset: dataset.name, points: dataset.count, index: I.name, strategy: options.strategy,
      cellSize: clusterer.cellTable.cellSize(zoom: viewport.zoom), grid: options.grid)
    let before = view(viewport)
    guard let (dx, dy) = options.pan else {
      return .cluster(before, source: source, coastlines: coastlines)
    }
    let after = view(panned(viewport, dx: dx, dy: dy))
    var diff = MarkerDiff()
    diff.update(with: before.markers)
    diff.update(with: after.markers)
    return .pan(
      before: before, after: after, diff: diff, dx: dx, dy: dy, source: source, coastlines: coastlines)
  }

  /// One clustering of one viewport, as the engine times it.
  private struct ClusterOnce<I: DescribedIndex>: TimedSteps {
    var clusterer: Clusterer<I>
    let viewport: Viewport
    let strategy: ClusterStrategy
    var markers: [ClusterMarker] = []

    var stepCount: Int { 1 }

    mutating func runStep(_ step: Int) -> StepOutcome {
      clusterer.cluster(viewport, strategy: strategy, into: &markers)
      return StepOutcome(digest: UInt64(markers.count), count: markers.count)
    }
  }

  /// `viewport` with its centre moved by `dx` screens east and `dy` screens
  /// south: the coordinate under that screen position, which wraps the
  /// longitude and keeps the latitude on the map, as a session's pan does.
  static func panned(_ viewport: Viewport, dx: Double, dy: Double) -> Viewport {
    var v = viewport
    v.center = viewport.coordinate(
      at: ScreenPosition(x: viewport.width * (0.5 + dx), y: viewport.height * (0.5 + dy)))
    return v
  }
}
