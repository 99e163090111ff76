/// Which points a tap may land on: every point, or those a filter passes
/// (the bench's filtered tap). The k-nearest search of a tap
/// (``SpatialIndex/nearestByNeighbours(to:points:buffer:counters:candidates:)``)
/// is generic over it, so each use specialises and a tap allocates nothing.
@usableFromInline
package protocol TapCandidates {
  /// Whether point `id` may be the answer.
  func admits(_ id: Int32) -> Bool
  /// Whether every point is admitted. Only then may copies of one place
  /// be taken by their earliest point: a later copy may pass a filter the
  /// earliest fails.
  var admitsEvery: Bool { get }
}

/// Every point may be the answer: an unfiltered tap.
@usableFromInline
package struct EveryPoint: TapCandidates {
  @inlinable package init() {}
  @inlinable package func admits(_ id: Int32) -> Bool { true }
  @inlinable package var admitsEvery: Bool { true }
}
