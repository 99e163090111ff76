import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// Receives each query workload of a run bound to one index, generically, so
/// `run` can time it and `verify` can compare its answers.
protocol RunnerVisitor {
  mutating func visit<R: StepRunner>(workload: String, strategy: String, _ runner: inout R) throws
}

/// Binds every chosen query workload (viewport, cluster per strategy, tap)
/// to `index` and hands it to `visitor`, in report order.
func visitRunners<I: SpatialIndex, V: RunnerVisitor>(
  _ index: I, _ dataset: LoadedDataset, _ inputs: WorkloadInputs, _ options: RunOptions,
  _ visitor: inout V
) throws {
  if options.workloads.contains("viewport") {
    var runner = ViewportRunner(index: index, steps: inputs.viewportRects)
    try visitor.visit(workload: "viewport", strategy: "", &runner)
  }
  if options.workloads.contains("cluster") {
    for strategy in options.strategies {
      var runner = ClusterRunner(
        index: index, points: dataset.points, viewports: inputs.viewports, strategy: strategy,
        table: inputs.cellTable)
      try visitor.visit(workload: "cluster", strategy: strategy, &runner)
    }
  }
  if options.workloads.contains("tap") {
    var runner = TapRunner(index: index, points: dataset.points, taps: inputs.taps)
    try visitor.visit(workload: "tap", strategy: "", &runner)
  }
}
