/// One aggregate of one marker (``ClusterAggregate``): exact, in the
/// units of its column, empty when none of the marker's points has a
/// value.
///
/// A sum is kept in 128 bits: at most 2^31 points (ids are `Int32`) of at
/// most 2^63 units each sum to less than 2^94, so no sum can overflow and
/// none is ever rounded.
public struct AggregateValue: Hashable, Sendable, CustomStringConvertible {
  /// The value in units of 10^-``scale``, two's complement in 128 bits.
  let high: Int64
  let low: UInt64
  /// The column's scale: fractional digits printed.
  let scale: Int
  let isEmpty: Bool

  /// The value `high` · 2^64 + `low` units (two's complement), or empty;
  /// a reference that works out an aggregate on its own makes one so.
  package init(high: Int64, low: UInt64, scale: Int, isEmpty: Bool) {
    self.high = high
    self.low = low
    self.scale = scale
    self.isEmpty = isEmpty
  }

  /// `units` × 10^-`scale`.
  init(units: Int64, scale: Int) {
    self.init(high: units < 0 ? -1 : 0, low: UInt64(bitPattern: units), scale: scale, isEmpty: false)
  }

  /// The value with exactly the column's number of fractional digits
  /// (`1234.50` at scale 2, `-0.07`, `0.00`: zero has no sign); the empty
  /// string when empty.
  public var description: String {
    isEmpty ? "" : Self.text(high: high, low: low, scale: scale)
  }

  /// The double nearest the value (within a rounding or two); nil when
  /// empty.
  public var value: Double? {
    guard !isEmpty else { return nil }
    var power = 1.0
    for _ in 0..<scale { power *= 10 }
    return (Double(high) * 0x1p64 + Double(low)) / power
  }

  /// A 128-bit two's complement value in units of 10^-`scale`, written out.
  static func text(high: Int64, low: UInt64, scale: Int) -> String {
    let negative = high < 0
    var (h, l) = (UInt64(bitPattern: high), low)
    if negative {
      l = ~l &+ 1
      h = ~h &+ (l == 0 ? 1 : 0)
    }
    // the magnitude's decimal digits, 18 at a time from the right
    let chunk: UInt64 = 1_000_000_000_000_000_000
    var chunks: [UInt64] = []
    repeat {
      let (qh, rh) = h.quotientAndRemainder(dividingBy: chunk)
      let (ql, r) = chunk.dividingFullWidth((rh, l))
      chunks.append(r)
      (h, l) = (qh, ql)
    } while h != 0 || l != 0
    var digits = String(chunks.removeLast())
    for c in chunks.reversed() {
      let s = String(c)
      digits += String(repeating: "0", count: 18 - s.count) + s
    }
    if digits.count <= scale { digits = String(repeating: "0", count: scale + 1 - digits.count) + digits }
    let sign = negative ? "-" : ""  // zero has no sign: only a nonzero magnitude is negative
    guard scale > 0 else { return sign + digits }
    return sign + digits.dropLast(scale) + "." + digits.suffix(scale)
  }
}

/// What a cell keeps of one aggregated column: the sum of its values in
/// 128 bits, the least and the greatest. `greatest == Int64.min` while no
/// value was added (no value is `Int64.min`, which stands for missing).
@usableFromInline
struct _FieldTotals: Sendable {
  @usableFromInline var sumHigh: Int64 = 0
  @usableFromInline var sumLow: UInt64 = 0
  @usableFromInline var least: Int64 = .max
  @usableFromInline var greatest: Int64 = .min

  @inlinable init() {}

  var isEmpty: Bool { greatest == .min }

  /// The least or the greatest, kept alone (``_EntryAggregates``, a
  /// number's summary by node): `Int64.min` when there is no value, for
  /// either, since no value is `Int64.min` (the missing unit) while one
  /// may be `Int64.max`. A test of a node reads its greatest first, so an
  /// empty node's least of `Int64.min` fails every clause as before.
  func lone(_ field: KeyPath<_FieldTotals, Int64>) -> Int64 { isEmpty ? .min : self[keyPath: field] }

  /// Adds a value (never `Int64.min`).
  @inline(__always)
  mutating func add(_ u: Int64) {
    let (l, carry) = sumLow.addingReportingOverflow(UInt64(bitPattern: u))
    sumLow = l
    sumHigh = sumHigh &+ (u < 0 ? -1 : 0) &+ (carry ? 1 : 0)
    least = Swift.min(least, u)
    greatest = Swift.max(greatest, u)
  }

  /// Adds another's values: exact, as adding them one by one (an empty
  /// one adds nothing).
  @inlinable @inline(__always)
  mutating func merge(_ other: _FieldTotals) {
    let (l, carry) = sumLow.addingReportingOverflow(other.sumLow)
    sumLow = l
    sumHigh = sumHigh &+ other.sumHigh &+ (carry ? 1 : 0)
    least = Swift.min(least, other.least)
    greatest = Swift.max(greatest, other.greatest)
  }

  /// The aggregate `function` of these totals, at `scale`.
  func value(_ function: _AggregateFunction, scale: Int) -> AggregateValue {
    guard !isEmpty else { return AggregateValue(high: 0, low: 0, scale: scale, isEmpty: true) }
    switch function {
    case .sum: return AggregateValue(high: sumHigh, low: sumLow, scale: scale, isEmpty: false)
    case .min: return AggregateValue(units: least, scale: scale)
    case .max: return AggregateValue(units: greatest, scale: scale)
    }
  }
}

/// Which figure of a cell's ``_FieldTotals`` an aggregate reports.
enum _AggregateFunction: Sendable {
  case sum, min, max
}
