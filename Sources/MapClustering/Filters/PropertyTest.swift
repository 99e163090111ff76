/// One compiled clause: a test of one column, in integers.
///
/// Names are resolved to columns, category values to codes and numbers to
/// the column's units when the filter is compiled, so a test reads one
/// code (in its width, ``_CategoryCodes``) or `Int64` a point and
/// compares: no string, no allocation. Missing values fail every test:
/// `Int64.min` lies below every range's `lo` (at least `Int64.min + 1`)
/// and in no list, and a missing code is no table's code.
@usableFromInline
enum _PropertyTest: Sendable {
  /// `lo <= units[id] <= hi` (`lo > Int64.min`): `>=` and `<=` on one
  /// column merged, and `=` on a number.
  case range(units: [Int64], lo: Int64, hi: Int64)
  /// `units[id]` is one of `values`, sorted: `in` on a number.
  case anyOf(units: [Int64], values: [Int64])
  /// `codes[id] == code`: the clauses on a category leave one code.
  case code(codes: _CategoryCodes, code: UInt32)
  /// Bit `codes[id]` of `bits` is set: they leave several.
  case codes(codes: _CategoryCodes, bits: [UInt64])

  /// Whether point `i` (a valid id) passes.
  @usableFromInline
  func passes(_ i: Int) -> Bool {
    switch self {
    case .range(let units, let lo, let hi): lo <= units[i] && units[i] <= hi
    case .anyOf(let units, let values): Self.contains(values, units[i])
    case .code(let codes, let code): codes.code(at: i) == code
    case .codes(let codes, let bits): Self.isSet(bits, codes.code(at: i))
    }
  }

  /// Whether a value of a number column passes (`range` and `anyOf`; a
  /// category's tests pass none).
  @usableFromInline
  func passes(value v: Int64) -> Bool {
    switch self {
    case .range(_, let lo, let hi): lo <= v && v <= hi
    case .anyOf(_, let values): Self.contains(values, v)
    case .code, .codes: false
    }
  }

  /// Keeps the ids of `ids` that pass, in order (all valid ids).
  ///
  /// - Complexity: O(*k*), one column read an id, no branch on the outcome.
  func retain(_ ids: inout [Int32]) {
    let kept = ids.withUnsafeMutableBufferPointer { b -> Int in
      switch self {
      case .range(let units, let lo, let hi):
        // one unsigned compare: below `lo` wraps round past the span
        let span = UInt64(bitPattern: hi &- lo)
        return units.withUnsafeBufferPointer { u in
          Self.compact(b) { UInt64(bitPattern: u[Int($0)] &- lo) <= span }
        }
      case .anyOf(let units, let values):
        return units.withUnsafeBufferPointer { u in Self.compact(b) { Self.contains(values, u[Int($0)]) } }
      case .code(let codes, let code):
        return codes.withCodes(_RetainCode(ids: b, code: code))
      case .codes(let codes, let bits):
        return bits.withUnsafeBufferPointer { codes.withCodes(_RetainCodes(ids: b, bits: $0)) }
      }
    }
    ids.removeLast(ids.count - kept)
  }

  /// Moves the ids that `keep` accepts to the front; returns how many.
  @inline(__always)
  static func compact(_ b: UnsafeMutableBufferPointer<Int32>, _ keep: (Int32) -> Bool) -> Int {
    var m = 0
    for k in 0..<b.count {
      let id = b[k]
      b[m] = id
      m &+= keep(id) ? 1 : 0
    }
    return m
  }

  @inline(__always)
  static func isSet<W: RandomAccessCollection<UInt64>>(_ bits: W, _ code: UInt32) -> Bool
  where W.Index == Int {
    let word = Int(code &>> 6)
    return word < bits.count && bits[word] & (1 &<< UInt64(code & 63)) != 0
  }

  /// Binary search in sorted `values`.
  @inline(__always)
  private static func contains(_ values: [Int64], _ v: Int64) -> Bool {
    var lo = 0, hi = values.count
    while lo < hi {
      let mid = (lo &+ hi) &>> 1
      if values[mid] < v { lo = mid &+ 1 } else { hi = mid }
    }
    return lo < values.count && values[lo] == v
  }
}

/// Keeps the ids whose code is `code` (a code of the table: below the
/// width's missing value), in the codes' width.
private struct _RetainCode: _CodeVisitor {
  let ids: UnsafeMutableBufferPointer<Int32>
  let code: UInt32

  func visit<C: FixedWidthInteger & UnsignedInteger>(_ codes: UnsafeBufferPointer<C>) -> Int {
    let code = C(truncatingIfNeeded: code)
    return _PropertyTest.compact(ids) { codes[Int($0)] == code }
  }
}

/// Keeps the ids whose code's bit of `bits` is set (a missing code's
/// never is: no table holds it), in the codes' width.
private struct _RetainCodes: _CodeVisitor {
  let ids: UnsafeMutableBufferPointer<Int32>
  let bits: UnsafeBufferPointer<UInt64>

  func visit<C: FixedWidthInteger & UnsignedInteger>(_ codes: UnsafeBufferPointer<C>) -> Int {
    _PropertyTest.compact(ids) { _PropertyTest.isSet(bits, UInt32(codes[Int($0)])) }
  }
}
