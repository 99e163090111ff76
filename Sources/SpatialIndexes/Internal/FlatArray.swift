/// One of an index's flat arrays, read-only once made: the index's own
/// Swift array after a build, or a view of a saved file's section in a
/// memory mapping after an open (``SavedMapping``), which the view keeps
/// alive. The hot loops take ``withUnsafeBufferPointer(_:)`` once a query,
/// so either kind costs one select a query, not a branch a read.
@frozen @usableFromInline
package struct _FlatArray<Element: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
  /// The elements after a build (empty when mapped).
  @usableFromInline let _owned: [Element]
  /// The elements in the mapping (empty when owned).
  @usableFromInline let _view: UnsafeBufferPointer<Element>
  /// The mapping `_view` points into, nil for an owned array. Unsafe to
  /// share only in name: the mapping is read-only and never changes.
  @usableFromInline let _mapping: SavedMapping?

  /// The elements of `array`.
  @inlinable
  package init(_ array: [Element]) {
    _owned = array
    _view = UnsafeBufferPointer(start: nil, count: 0)
    _mapping = nil
  }

  /// The elements at `view`, which lies inside `mapping`.
  init(mapped view: UnsafeBufferPointer<Element>, in mapping: SavedMapping) {
    precondition(mapping.contains(UnsafeRawBufferPointer(view)), "a view lies inside its mapping")
    _owned = []
    _view = view
    _mapping = mapping
  }

  /// No elements.
  @inlinable
  package init() { self.init([]) }

  @inlinable package var startIndex: Int { 0 }
  @inlinable package var endIndex: Int { _mapping == nil ? _owned.count : _view.count }

  /// The element at `i`, checked against the bounds whichever the storage.
  @inlinable
  package subscript(i: Int) -> Element {
    if _mapping == nil { return _owned[i] }
    precondition(i >= 0 && i < _view.count, "index out of range")
    return _view[i]
  }

  /// Calls `body` with the elements' memory, valid during the call. One
  /// call of `body` whichever the storage (the owned array is empty when
  /// mapped), so a walk inlined into it is not made twice.
  @inlinable @inline(__always)
  package func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    try _owned.withUnsafeBufferPointer { owned in try body(_mapping == nil ? owned : _view) }
  }

  /// Whether the elements are read from a mapped file.
  package var isMapped: Bool { _mapping != nil }

  /// Bytes this array holds on the heap (none when mapped).
  package var heapBytes: Int { _mapping == nil ? _owned.capacity * MemoryLayout<Element>.stride : 0 }

  /// The first element's address: the storage's identity while the array
  /// is held (a cache keyed by it keeps the array, so no other takes it).
  package var baseAddress: UnsafeRawPointer? {
    withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  /// The elements as an owned array (a copy when mapped).
  package var array: [Element] { _mapping == nil ? _owned : Array(_view) }
}
