import SpatialIndexes
import MapClustering

/// One clustering step as `bench render` draws it: the viewport, the
/// clusterer's markers in its order, the points in view and the step's time.
public struct ClusterView: Sendable {
  public var viewport: Viewport
  public var markers: [ClusterMarker]
  /// Points inside the viewport's rectangles.
  public var pointsInView: Int
  /// The step's latency samples (see ``measure(_:options:clock:progress:)``).
  public var timing: Measurement

  public init(viewport: Viewport, markers: [ClusterMarker], pointsInView: Int, timing: Measurement)
  {
    self.viewport = viewport
    self.markers = markers
    self.pointsInView = pointsInView
    self.timing = timing
  }

  /// Markers standing for one point.
  public var singlePoints: Int { markers.reduce(0) { $0 + ($1.count == 1 ? 1 : 0) } }
}

/// What a map picture says about how it was made.
public struct MapSource: Sendable {
  /// The dataset's name (`places`, `hotels`, a points file's path as given).
  public var dataset: String
  /// Points in the dataset.
  public var points: Int
  public var index: String
  public var strategy: ClusterStrategy
  /// The clustering cell side at the zoom, in points.
  public var cellSize: Double
  /// Draw the cell grid.
  public var grid: Bool

  public init(
    dataset: String, points: Int, index: String, strategy: ClusterStrategy, cellSize: Double,
    grid: Bool
  ) {
    self.dataset = dataset
    self.points = points
    self.index = index
    self.strategy = strategy
    self.cellSize = cellSize
    self.grid = grid
  }
}

extension MapPicture {
  /// One viewport and its markers, with a caption giving the zoom, the points
  /// in view, the markers and the cluster time; over `coastlines` when given.
  public static func cluster(
    _ view: ClusterView, source: MapSource, coastlines: Coastlines? = nil
  ) -> MapPicture {
    let v = view.viewport
    var caption = [
      "\(grouped(view.pointsInView)) of \(grouped(source.points)) points in view · "
        + "\(grouped(view.markers.count)) markers (\(grouped(view.singlePoints)) single points)",
      "cluster: \(duration(view.timing)) (\(source.strategy), \(source.index), "
        + "\(RunMetadata.buildConfiguration) build)",
      "z\(v.zoom), Web Mercator · cells \(shortNumber(source.cellSize)) pt, world-aligned · "
        + "\(shortNumber(v.width))×\(shortNumber(v.height)) pt",
    ]
    caption += notes(v)
    var legend = [
      LegendEntry(.cluster(.shown), "cluster, labelled with its count"),
      LegendEntry(.point(.shown), "single point"),
    ]
    if source.grid {
      legend.append(LegendEntry(.cellGrid, "cell, \(shortNumber(source.cellSize)) pt"))
    }
    legend += coastEntry(coastlines)
    return MapPicture(
      title: "\(source.dataset) · z\(v.zoom) · \(centre(v))",
      panels: [Panel(viewport: v, markers: view.markers.map { PlacedMarker($0) })],
      cellSize: source.grid ? source.cellSize : nil, caption: caption, legend: legend,
      coastlines: coastlines)
  }

  /// Before and after a pan of (`dx`, `dy`) screens, side by side: markers
  /// kept, added and removed (by ``MarkerDiff``, whose latest update must be
  /// `after` against `before`) in three colours, so re-clustering flicker
  /// shows. The after panel outlines the screen before the pan.
  public static func pan(
    before: ClusterView, after: ClusterView, diff: MarkerDiff, dx: Double, dy: Double,
    source: MapSource, coastlines: Coastlines? = nil
  ) -> MapPicture {
    let kept = Set(diff.kept.map(\.key))
    let v0 = before.viewport
    let v1 = after.viewport
    let left = Panel(
      heading: "before", viewport: v0,
      markers: before.markers.map {
        PlacedMarker($0, role: kept.contains($0.key) ? .kept : .removed)
      })
    let right = Panel(
      heading: "after: pan \(shortNumber(dx)), \(shortNumber(dy)) screens",
      viewport: v1,
      markers: after.markers.map { PlacedMarker($0, role: kept.contains($0.key) ? .kept : .added) },
      outline: ScreenPosition(x: -dx * v0.width, y: -dy * v0.height))
    func line(_ name: String, _ view: ClusterView) -> String {
      "\(name): \(grouped(view.pointsInView)) points in view · "
        + "\(grouped(view.markers.count)) markers · "
        + "cluster \(duration(view.timing))"
    }
    var caption = [
      line("before", before), line("after", after),
      "kept \(diff.kept.count) · added \(diff.added.count) · removed \(diff.removed.count) · "
        + "churn \(diff.churn) (a marker whose count changed is removed and added)",
      "\(grouped(source.points)) points · \(source.strategy), \(source.index), "
        + "\(RunMetadata.buildConfiguration) build",
      "z\(v0.zoom), Web Mercator · cells \(shortNumber(source.cellSize)) pt, world-aligned · "
        + "screens \(shortNumber(v0.width))×\(shortNumber(v0.height)) pt",
    ]
    caption += Array(Set(notes(v0) + notes(v1))).sorted()
    var legend = [
      LegendEntry(.cluster(.kept), "kept \(diff.kept.count)"),
      LegendEntry(.cluster(.added), "added \(diff.added.count)"),
      LegendEntry(.cluster(.removed), "removed \(diff.removed.count)"),
      LegendEntry(.point(.kept), "dot: one point"),
      LegendEntry(.outline, "screen before the pan"),
    ]
    if source.grid {
      legend.append(LegendEntry(.cellGrid, "cell, \(shortNumber(source.cellSize)) pt"))
    }
    legend += coastEntry(coastlines)
    return MapPicture(
      title: "\(source.dataset) · z\(v0.zoom) · from \(centre(v0))",
      panels: [left, right], cellSize: source.grid ? source.cellSize : nil, caption: caption,
      legend: legend, coastlines: coastlines)
  }

  /// The coastline's legend entry, naming its source; none without coastlines.
  static func coastEntry(_ coastlines: Coastlines?) -> [LegendEntry] {
    coastlines.map { [LegendEntry(.coastline, "coast, \($0.credit)")] } ?? []
  }

  /// What a reader might otherwise misread: a split query, a repeated world.
  static func notes(_ v: Viewport) -> [String] {
    var notes: [String] = []
    let world = WebMercator.worldSize(zoom: v.zoom)
    if world < v.width {
      notes.append("world \(shortNumber(world)) pt wide: each marker once, on the centre copy")
    } else if v.rects.count == 2 {
      notes.append("crosses the antimeridian (dashed): two query rectangles")
    }
    return notes
  }

  /// `1.23 ms, median of 5` (`… of 5 batches of 8` when calls were batched).
  static func duration(_ timing: Measurement) -> String {
    let median = timing.samples.isEmpty ? 0 : timing.statistics.median
    let batches = timing.batch > 1 ? " batches of \(timing.batch)" : ""
    return "\(formatValue(median, .nanoseconds)), median of \(timing.samples.count)\(batches)"
  }

  static func grouped(_ n: Int) -> String { ReportPlots.grouping(n) }

  /// `48.8566°N 2.3522°E`.
  static func centre(_ v: Viewport) -> String {
    "\(latitudeLabel(v.center.y, 4)) \(longitudeLabel(v.center.x, 4))"
  }
}
