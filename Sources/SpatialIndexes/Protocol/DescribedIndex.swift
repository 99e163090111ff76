/// What the bench and the tests read about an index type beyond what an app
/// needs: its name on the command line, a summary, its parameters as text
/// and its memory. `package`: an app never sees it, and an index of an
/// app's own need not supply any of it.
@usableFromInline package protocol DescribedIndex: SpatialIndex where Parameters: TextParameters {
  /// Short lowercase name used on the command line and in reports (`kdtree`).
  static var name: String { get }
  /// One line saying what the index is.
  static var summary: String { get }

  /// The parameters it was built with, as given (a value derived from the
  /// data stays unset; see ``parameterValues``): what a rebuild passes.
  var parameters: Parameters { get }

  /// The parameters in effect, defaults resolved against the data
  /// (for example the grid's cell size), as name and value text for reports.
  var parameterValues: [ParameterValue] { get }

  /// Bytes of storage the index holds (array capacities, not counts).
  var memoryBytes: Int { get }

  /// Bytes the index reads through a memory mapping of the file it was
  /// opened from (``SavedMapping``), not in ``memoryBytes``, and of those
  /// the bytes in this process's memory now (nil where the system cannot
  /// tell); nil for an index in memory alone.
  var mappedMemory: (mapped: Int, resident: Int?)? { get }
}

extension DescribedIndex {
  /// None: the index holds its arrays in memory.
  @usableFromInline package var mappedMemory: (mapped: Int, resident: Int?)? { nil }
}

extension DescribedIndex {
  /// The name and parameters as one word: `quadtree(capacity=16)`.
  package var label: String {
    let params = parameterValues.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
    return params.isEmpty ? Self.name : "\(Self.name)(\(params))"
  }
}
