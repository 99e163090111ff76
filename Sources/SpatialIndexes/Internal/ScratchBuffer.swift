// A query's working buffer on the call stack, for walks that need more than
// a fixed stack's few hundred frames.
//
// A tuple of structs is initialized field by field (a 1,024-frame tuple of
// the cell tree's frames took about 4,000 store instructions a query, and
// the generic subscript of so large a tuple was left unspecialized). Words
// that start as zero are cleared with one `memset`, and the caller sees
// them as a plain buffer of its own element type.

/// 20,480 bytes.
@usableFromInline typealias _Words20K = _Tuple256<(UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)>

/// Calls `body` with a buffer of 20,480 bytes on the call stack, zeroed, as
/// elements of `T` (a trivial type: numbers only), as many as fit.
@inlinable @inline(__always)
func _withStackScratch<T: BitwiseCopyable, R>(
  of: T.Type, _ body: (UnsafeMutableBufferPointer<T>) -> R
) -> R {
  let w = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
  let row = (w, w, w, w, w, w, w, w, w, w, w, w, w, w, w, w)
  var words: _Words20K = (row, row, row, row, row, row, row, row, row, row, row, row, row, row, row, row)
  return withUnsafeMutableBytes(of: &words) { raw in
    body(raw.bindMemory(to: T.self))
  }
}
