/// What the clustering library refuses, rather than trapping on it.
public enum ClusteringError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The index was not built from these points (ids are positions in them).
  case indexDoesNotMatchPoints(indexCount: Int, pointCount: Int)
  /// A cell side that is not a whole number of points in
  /// `1...ClusterCellTable.maximumCellSize`.
  case invalidCellSize(Double)
  /// A band of zooms outside `0...ClusterCellTable.maximumBandZoom`.
  case invalidBandZooms(ClosedRange<Int>)

  /// The error as a sentence that names the value at fault.
  public var description: String {
    switch self {
    case .indexDoesNotMatchPoints(let i, let p):
      "the index holds \(i) points but \(p) were given: build it from the same points"
    case .invalidCellSize(let s):
      "cell size \(s) is not a whole number of points in 1...\(Int(ClusterCellTable.maximumCellSize))"
    case .invalidBandZooms(let z):
      "band zooms \(z) do not lie in 0...\(ClusterCellTable.maximumBandZoom)"
    }
  }
}
