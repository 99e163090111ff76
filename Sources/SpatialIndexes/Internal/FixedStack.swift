// Fixed-size stacks for traversals that must not allocate.
//
// A query walks its tree with an explicit stack whose depth is bounded (see
// each index), kept on the call stack: a heap allocation a query showed up
// in `perf`, and `withUnsafeTemporaryAllocation` goes to the heap above 1 KB
// on this toolchain. `InlineArray` would do, but it needs Swift 6.2 and, on
// Apple platforms, macOS 26 / iOS 26 at run time: too new for the apps the
// library is for. So a stack is a tuple of its elements, read and written
// through its bytes (a homogeneous tuple is laid out like a C array).

/// Up to `capacity` trivial elements (plain numbers, no references: they
/// are loaded and stored as bytes) in `Storage`, a tuple of `Element`s.
/// Indices are checked, as `InlineArray`'s are.
@frozen @usableFromInline
struct _FixedStack<Storage, Element> {
  @usableFromInline var storage: Storage

  @inlinable @inline(__always)
  init(storage: Storage) { self.storage = storage }

  /// The tuple's length: its size over an element's stride, rounded up
  /// (the last element needs no padding after it).
  @inlinable @inline(__always)
  static var capacity: Int {
    let stride = MemoryLayout<Element>.stride
    return (MemoryLayout<Storage>.size + stride - 1) / stride
  }

  /// The capacity, as `InlineArray.count` is.
  @inlinable @inline(__always)
  var count: Int { Self.capacity }

  @inlinable
  subscript(i: Int) -> Element {
    @inline(__always) mutating get {
      precondition(i >= 0 && i < Self.capacity, "stack index out of range")
      return withUnsafeMutableBytes(of: &storage) {
        $0.load(fromByteOffset: i &* MemoryLayout<Element>.stride, as: Element.self)
      }
    }
    @inline(__always) set {
      precondition(i >= 0 && i < Self.capacity, "stack index out of range")
      withUnsafeMutableBytes(of: &storage) {
        $0.storeBytes(of: newValue, toByteOffset: i &* MemoryLayout<Element>.stride, as: Element.self)
      }
    }
  }
}

@usableFromInline typealias _Tuple16<T> = (T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T)
@usableFromInline typealias _Stack16<T> = _FixedStack<_Tuple16<T>, T>

extension _FixedStack where Storage == _Tuple16<Element> {
  @inlinable @inline(__always)
  init(repeating e: Element) { self.init(storage: (e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e)) }
}

@usableFromInline typealias _Tuple40<T> = (T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T)
@usableFromInline typealias _Stack40<T> = _FixedStack<_Tuple40<T>, T>

extension _FixedStack where Storage == _Tuple40<Element> {
  @inlinable @inline(__always)
  init(repeating e: Element) { self.init(storage: (e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e)) }
}

@usableFromInline typealias _Tuple96<T> = (T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T)
@usableFromInline typealias _Stack96<T> = _FixedStack<_Tuple96<T>, T>

extension _FixedStack where Storage == _Tuple96<Element> {
  @inlinable @inline(__always)
  init(repeating e: Element) { self.init(storage: (e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e)) }
}

@usableFromInline typealias _Tuple256<T> = _Tuple16<_Tuple16<T>>
@usableFromInline typealias _Stack256<T> = _FixedStack<_Tuple256<T>, T>

extension _FixedStack where Storage == _Tuple256<Element> {
  /// Sixteen rows of sixteen: a nested tuple has the flat one's layout (an
  /// inner tuple's stride is sixteen of its elements').
  @inlinable @inline(__always)
  init(repeating e: Element) {
    let row: _Tuple16<Element> = (e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e)
    self.init(storage: (row, row, row, row, row, row, row, row, row, row, row, row, row, row, row, row))
  }
}
