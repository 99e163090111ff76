import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// What every index is asked in a run over one dataset: made once, before
/// any timing, from the seed, and identical for every index.
struct WorkloadInputs {
  /// The pan-and-zoom session's viewports, in order (order is part of the workload).
  var viewports: [Viewport]
  /// The rectangles the viewport workload queries per step: the session's
  /// viewports, or the rows of a `--queries` file.
  var viewportRects: [[Rect]]
  /// One tap per session step.
  var taps: [Tap]
  var cellTable = ClusterCellTable.default
  /// The session's steps grouped by zoom band (`0-3`, `4-7`, …), bands
  /// without steps left out. Band rows report the latency of their steps;
  /// their `results_total` and `checksum` are those of the whole pass.
  var zoomBands: [(name: String, steps: Set<Int>)] = []

  init(dataset: LoadedDataset, options: RunOptions, queries: QueriesFile?) {
    let session = ViewportSession(
      points: dataset.points,
      parameters: SessionParameters(
        steps: options.steps, seed: options.seed,
        screenWidth: options.screen.width, screenHeight: options.screen.height))
    viewports = session.viewports
    taps = session.steps.map { Tap(x: $0.tap.x, y: $0.tap.y, in: $0.viewport) }
    if let queries {
      viewportRects = queries.queries.map { $0.rects() }
    } else {
      viewportRects = viewports.map(\.rects)
    }
    let zooms = viewports.map(\.zoom)
    for low in stride(from: 0, through: 28, by: 4) {
      let steps = Set(zooms.indices.filter { (low..<low + 4).contains(zooms[$0]) })
      if !steps.isEmpty { zoomBands.append(("\(low)-\(low + 3)", steps)) }
    }
  }
}
