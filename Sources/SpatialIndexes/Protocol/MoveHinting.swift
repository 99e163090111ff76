/// Hints a batch of moves gives a dynamic index, so that the batch
/// overlaps its cache misses and leaves a core to a build in the
/// background. `package`: the clusterer's batched moves use them through
/// ``DynamicSpatialIndex/_prefetchMove(id:)`` and its siblings, which find
/// them by a cast, as the clusterer finds its clustering hooks; an index of
/// an app's own moves without them. Every dynamic index of the package
/// conforms (the quadtree with the defaults), so the cast folds away where
/// the clusterer is specialised for one.
@usableFromInline package protocol MoveHinting: DynamicSpatialIndex {
  /// A hint that point `id` is about to move: an index whose storage for
  /// it is known from the id alone starts loading it, so a batch of moves
  /// overlaps its cache misses. The default does nothing.
  func prefetchMove(id: Int32)

  /// The second stage of ``prefetchMove(id:)``, a few moves later: an
  /// index that found in the first stage where the point sits (the grid's
  /// slot of each id) starts loading that. The default does nothing.
  func prefetchMoveTarget(id: Int32)

  /// Whether the index has work running on another thread (a build in the
  /// background): a batch of moves then keeps to one thread rather than
  /// take a core from it. The default is false.
  var isWorkingInBackground: Bool { get }
}

extension MoveHinting {
  @inlinable package func prefetchMove(id: Int32) {}
  @inlinable package func prefetchMoveTarget(id: Int32) {}
  @inlinable package var isWorkingInBackground: Bool { false }
}

extension DynamicSpatialIndex {
  /// ``MoveHinting/prefetchMove(id:)`` of an index that takes hints;
  /// nothing otherwise.
  @inlinable @inline(__always)
  package func _prefetchMove(id: Int32) {
    guard let hinting = Self.self as? any MoveHinting.Type else { return }
    _prefetchMove(as: hinting, id)
  }

  /// ``MoveHinting/prefetchMoveTarget(id:)`` of an index that takes hints;
  /// nothing otherwise.
  @inlinable @inline(__always)
  package func _prefetchMoveTarget(id: Int32) {
    guard let hinting = Self.self as? any MoveHinting.Type else { return }
    _prefetchMoveTarget(as: hinting, id)
  }

  /// ``MoveHinting/isWorkingInBackground`` of an index that takes hints;
  /// false otherwise.
  @inlinable @inline(__always)
  package var _isWorkingInBackground: Bool {
    guard let hinting = Self.self as? any MoveHinting.Type else { return false }
    return _isWorkingInBackground(as: hinting)
  }

  // The cast opened: `H` is `Self`, so `self` is read as an `H` by a bit
  // cast of a value to its own type (see MapClustering's
  // IndexCapabilities.swift for why not `self as? H`).

  @inlinable @inline(__always)
  func _prefetchMove<H: MoveHinting>(as _: H.Type, _ id: Int32) {
    guard Self.self == H.self else { return }
    unsafeBitCast(self, to: H.self).prefetchMove(id: id)
  }

  @inlinable @inline(__always)
  func _prefetchMoveTarget<H: MoveHinting>(as _: H.Type, _ id: Int32) {
    guard Self.self == H.self else { return }
    unsafeBitCast(self, to: H.self).prefetchMoveTarget(id: id)
  }

  @inlinable @inline(__always)
  func _isWorkingInBackground<H: MoveHinting>(as _: H.Type) -> Bool {
    guard Self.self == H.self else { return false }
    return unsafeBitCast(self, to: H.self).isWorkingInBackground
  }
}
