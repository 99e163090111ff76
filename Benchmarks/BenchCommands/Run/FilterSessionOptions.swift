import BenchFormats
import BenchWorkloads

extension RunOptions {
  /// The filter session's controls when the run includes the `filters`
  /// workload, with the properties they read added to ``properties``.
  ///
  /// On data without controls (a file, a generator without properties, a
  /// saved index), a run that names the workload is refused (exit 64); one
  /// that asked for `all` workloads runs without it, and `note` says why.
  mutating func filterSession(command: String, note: (String) -> Void) throws(UsageError) -> FilterSession? {
    guard workloads.contains(FilterSessionWorkload.name) else { return nil }
    let controls = indexFile == nil ? FilterSession.forDataset(dataset) : nil
    guard let controls else {
      let why = indexFile != nil
        ? "a saved index holds no properties"
        : "\(quotedForMessage(dataset)) has no filter controls; it runs on "
          + FilterSession.datasets.joined(separator: ", ")
      guard workloadsAll else {
        throw UsageError("the \(FilterSessionWorkload.name) workload: \(why)", command: command)
      }
      workloads.removeAll { $0 == FilterSessionWorkload.name }
      note("bench: the \(FilterSessionWorkload.name) workload is left out: \(why)")
      return nil
    }
    properties = controls.requests(merging: properties)
    return controls
  }
}

/// ``FilterSession/compiled(_:steps:seed:)`` over `dataset`, its errors as
/// the command line's (the controls' columns are the run's own request: a
/// failure is the bench's fault).
func compiledSession(
  _ controls: FilterSession, _ dataset: LoadedDataset, steps: Int, seed: UInt64, command: String
) throws -> (controls: FilterSession, filter: StepFilter) {
  do throws(RunFilterError) {
    return (controls, try controls.compiled(dataset.properties, steps: steps, seed: seed))
  } catch {
    switch error {
    case .usage(let message): throw UsageError(message, command: command)
    case .data(let e): throw e
    }
  }
}
