import BenchFormats
import SpatialIndexes

/// `bench query`'s answers: a workload's answer file for every step, from
/// one index, in the format its declaration gives (``Workload/answerColumns``).
public enum Answers {
  /// The CSV text: the header `query,` and the workload's columns, then each
  /// step's rows in step order, ids as in `dataset` (external ids); nil for
  /// an unknown index or workload, or a variant that does not run on the index.
  ///
  /// `indexFile`: a saved index opened instead of built. `filter`: the
  /// filter and aggregates the viewport, cluster and tap steps apply.
  ///
  /// - Throws: `IndexError` for a bad parameter or point; `SavedIndexError`
  ///   for a saved index that does not open.
  public static func csv(
    workload: String, variant: String, index: String, parameters: [ParameterSweep],
    dataset: LoadedDataset, steps: MapSteps, indexFile: String? = nil, filter: StepFilter? = nil
  ) throws -> String? {
    var operation = AnswerIndex(
      workload: workload, variant: variant, parameters: parameters, dataset: dataset, steps: steps,
      indexFile: indexFile, filter: filter)
    return try withIndexType(named: index, &operation) ?? nil
  }

  private struct AnswerIndex: IndexTypeOperation {
    let workload: String
    let variant: String
    let parameters: [ParameterSweep]
    let dataset: LoadedDataset
    let steps: MapSteps
    /// A saved index to open instead of building.
    let indexFile: String?
    let filter: StepFilter?

    func run<I: DescribedIndex>(_ type: I.Type) throws -> String? {
      let sets = try parameterSets(type, parameters)
      let index = try makeIndex(I.self, points: dataset.points, parameters: sets[0], indexFile: indexFile)
      let data = WorkloadData(points: dataset.points, steps: steps, filter: filter)
      var bind = BindWorkload(
        index: index, data: data, variants: [variant], visitor: Writer(ids: dataset.ids, data: data))
      guard try withWorkloadType(named: workload, &bind) != nil, bind.visitor.visited else { return nil }
      return bind.visitor.csv.text
    }
  }

  /// Writes each step's answer.
  struct Writer: WorkloadVisitor {
    let ids: ExternalIDs
    /// What the runners run on, for the header's columns.
    let data: WorkloadData
    var csv = CSVWriter()
    /// Whether a runner came (a variant that does not run on the index gives none).
    var visited = false

    mutating func visit<W: Workload, R: StepRunner>(
      _ workload: W.Type, variant: String, _ runner: inout R
    ) throws where R.Answer == W.Answer {
      visited = true
      csv.writeRow(["query"] + W.answerColumns(data))
      for step in 0..<runner.stepCount {
        W.writeAnswer(runner.answer(step: step), query: step, ids: ids, to: &csv)
      }
    }
  }
}
