/// What changed on screen between two clustering steps, as the app computes
/// it on the main thread: the markers kept, added and removed.
///
/// A marker is identified by its ``MarkerKey``: zoom, cell and count. The
/// original used the position alone, so a cluster whose count changed was
/// kept with a stale label; here a count change is one removal plus one
/// addition.
///
/// The diff keeps the previous step's markers. A step with markers in key
/// order (as ``Clusterer`` emits them) is merged in one pass over both lists
/// and, once the buffers have grown, allocates nothing. Markers in another
/// order are sorted into a scratch buffer first (which may allocate).
///
/// ```swift
/// var diff = MarkerDiff()
/// clusterer.cluster(viewport, into: &markers)
/// diff.update(with: markers)
/// print(diff.added.count, diff.removed.count)
/// ```
public struct MarkerDiff: Sendable {
  /// Markers of the latest step that were on screen in the step before (the
  /// latest step's values).
  public private(set) var kept: [ClusterMarker] = []
  /// Markers of the latest step that were not on screen before.
  public private(set) var added: [ClusterMarker] = []
  /// Markers of the step before that the latest step no longer shows.
  public private(set) var removed: [ClusterMarker] = []
  /// The latest step's markers, in key order.
  package private(set) var current: [ClusterMarker] = []

  @usableFromInline var _previous: [ClusterMarker] = []

  /// A diff whose previous step showed nothing.
  public init() {}

  /// Markers added plus markers removed by the latest step.
  @inlinable package var churn: Int { added.count + removed.count }

  /// Compares `markers` with the previous step's, then keeps them as the previous step.
  ///
  /// - Complexity: O(*m* + *p*) for *m* markers in key order and *p* previous
  ///   ones; O(*m* log *m* + *p*) otherwise.
  public mutating func update(with markers: [ClusterMarker]) {
    swap(&current, &_previous)  // `_previous` now holds the step before
    current.removeAll(keepingCapacity: true)
    current.append(contentsOf: markers)
    if !Self.isInKeyOrder(current) { current.sort { $0.key < $1.key } }
    kept.removeAll(keepingCapacity: true)
    added.removeAll(keepingCapacity: true)
    removed.removeAll(keepingCapacity: true)
    let old = _previous, new = current
    var i = 0, j = 0
    while i < old.count && j < new.count {
      let a = old[i].key, b = new[j].key
      if a < b {
        removed.append(old[i])
        i += 1
      } else if b < a {
        added.append(new[j])
        j += 1
      } else {
        kept.append(new[j])
        i += 1
        j += 1
      }
    }
    removed.append(contentsOf: old[i...])
    added.append(contentsOf: new[j...])
  }

  /// Forgets the previous step: the next update adds every marker.
  package mutating func reset() {
    current.removeAll(keepingCapacity: true)
    _previous.removeAll(keepingCapacity: true)
    kept.removeAll(keepingCapacity: true)
    added.removeAll(keepingCapacity: true)
    removed.removeAll(keepingCapacity: true)
  }

  static func isInKeyOrder(_ markers: [ClusterMarker]) -> Bool {
    var i = 1
    while i < markers.count {
      if !(markers[i - 1].key < markers[i].key) { return false }
      i += 1
    }
    return true
  }
}
