/// What the clustering library refuses, rather than trapping on it.
public enum ClusteringError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The index was not built from these points (ids are positions in them).
  case indexDoesNotMatchPoints(indexCount: Int, pointCount: Int)
  /// A cell side that is not a whole number of points in
  /// `1...ClusterCellTable.maximumCellSize`.
  case invalidCellSize(Double)
  /// A band of zooms outside `0...ClusterCellTable.maximumBandZoom`.
  case invalidBandZooms(ClosedRange<Int>)
  /// A filter that does not parse, or a filter or aggregate that does not
  /// fit the properties (a field none has, `>=` on a category, a number
  /// expected). `position` is the 1-based character of the filter's text
  /// where the fault lies, when the filter was parsed from text.
  case invalidFilter(String, position: Int?)
  /// Property columns that cannot be used together: a repeated name,
  /// columns of different lengths, a code outside its table, a scale
  /// outside 0...9, or properties of another number of points than the
  /// clusterer's.
  case invalidProperties(String)

  /// The error as a sentence that names the value at fault.
  public var description: String {
    switch self {
    case .indexDoesNotMatchPoints(let i, let p):
      "the index holds \(i) points but \(p) were given: build it from the same points"
    case .invalidCellSize(let s):
      "cell size \(s) is not a whole number of points in 1...\(Int(ClusterCellTable.maximumCellSize))"
    case .invalidBandZooms(let z):
      "band zooms \(z) do not lie in 0...\(ClusterCellTable.maximumBandZoom)"
    case .invalidFilter(let message, let position?):
      "\(message) (at character \(position))"
    case .invalidFilter(let message, nil), .invalidProperties(let message):
      message
    }
  }
}
