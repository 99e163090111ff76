/// A category column's codes by point id, each in the narrowest width
/// its table fits: a byte for at most 255 values, two bytes for at most
/// 65,535, else four. The width's greatest value is a missing value, so
/// a table of 256 values takes two bytes, of 65,536 four.
///
/// A filter reads one code a point at random: a byte rather than four
/// keeps four times as many of them in cache, and the column a quarter
/// the memory. A loop over the codes switches on the width once, outside
/// the loop, and runs specialised for it (``withCodes(_:)``).
@usableFromInline
enum _CategoryCodes: Sendable {
  case bytes([UInt8])
  case shorts([UInt16])
  case words([UInt32])

  /// `codes` (`UInt32.max` for a missing value) in the width a table of
  /// `tableCount` values needs: copied when narrower, kept when not.
  init(_ codes: [UInt32], tableCount: Int) {
    if tableCount <= Int(UInt8.max) {
      self = .bytes(Self.narrowed(codes))
    } else if tableCount <= Int(UInt16.max) {
      self = .shorts(Self.narrowed(codes))
    } else {
      self = .words(codes)
    }
  }

  /// Each code in `C`, a missing value as `C.max` (every other code is
  /// below it).
  private static func narrowed<C: FixedWidthInteger & UnsignedInteger>(_ codes: [UInt32]) -> [C] {
    codes.map { $0 == .max ? C.max : C(truncatingIfNeeded: $0) }
  }

  var count: Int {
    switch self {
    case .bytes(let a): a.count
    case .shorts(let a): a.count
    case .words(let a): a.count
    }
  }

  /// Bytes a code.
  var width: Int {
    switch self {
    case .bytes: 1
    case .shorts: 2
    case .words: 4
    }
  }

  /// Bytes held: the codes.
  var bytes: Int { count * width }

  /// The codes' storage: the column's identity for summaries kept
  /// between calls.
  var address: UnsafeRawPointer? {
    switch self {
    case .bytes(let a): _NodeSummaries.address(a)
    case .shorts(let a): _NodeSummaries.address(a)
    case .words(let a): _NodeSummaries.address(a)
    }
  }

  /// The storage, retained by a summary that keeps its address.
  var storage: Any {
    switch self {
    case .bytes(let a): a
    case .shorts(let a): a
    case .words(let a): a
    }
  }

  /// Point `i`'s code, `UInt32.max` for a missing value. One switch a
  /// call: for a loop over many points, ``withCodes(_:)``.
  @inlinable @inline(__always)
  func code(at i: Int) -> UInt32 {
    switch self {
    case .bytes(let a): a[i] == .max ? .max : UInt32(a[i])
    case .shorts(let a): a[i] == .max ? .max : UInt32(a[i])
    case .words(let a): a[i]
    }
  }

  /// Calls `body` with the codes in their own width: the switch is here,
  /// once, and `body`'s loop is specialised for the width.
  @inlinable @inline(__always)
  func withCodes<V: _CodeVisitor>(_ body: V) -> V.Result {
    switch self {
    case .bytes(let a): a.withUnsafeBufferPointer { body.visit($0) }
    case .shorts(let a): a.withUnsafeBufferPointer { body.visit($0) }
    case .words(let a): a.withUnsafeBufferPointer { body.visit($0) }
    }
  }
}

/// A loop over a category's codes in their width (``_CategoryCodes``): a
/// missing value is `C.max`, every other code below it.
@usableFromInline
protocol _CodeVisitor {
  associatedtype Result
  func visit<C: FixedWidthInteger & UnsignedInteger>(_ codes: UnsafeBufferPointer<C>) -> Result
}
