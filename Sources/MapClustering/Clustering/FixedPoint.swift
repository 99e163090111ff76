import SpatialIndexes

/// Coordinates in units of 1e-7 degree (about 1 cm), the fixed point that
/// marker sums and means are computed in.
///
/// Integer sums do not depend on the order in which points are added, so
/// every index and strategy gives the same markers, bit for bit; a mean is
/// the sum divided by the count, rounded to the nearest unit (halves away
/// from zero), in integer arithmetic, so any language reproduces it.
///
/// ```swift
/// FixedPoint.units(48.856_613_4)            // 488566134
/// FixedPoint.mean(-5, count: 2)             // -3 (−2.5 rounds away from zero)
/// FixedPoint.text(488_566_134)              // "48.8566134"
/// ```
@usableFromInline package enum FixedPoint {
  /// Units per degree.
  @usableFromInline package static let scale = 1e7

  /// `degrees` in units, rounded to the nearest (halves away from zero),
  /// clamped to ±180° (a point beyond is never in a viewport).
  @inlinable
  package static func units(_ degrees: Double) -> Int32 { MapCells.units(degrees) }

  /// `sum / count` rounded to the nearest unit, halves away from zero.
  ///
  /// With 32-bit ids at most 2^31 points are summed and |sum| ≤ 2^31 · 1.8e9,
  /// so `2 · |sum| + count` cannot overflow 64 bits.
  ///
  /// - Precondition: `count > 0`.
  @inlinable
  package static func mean(_ sum: Int64, count: Int) -> Int32 {
    let c = Int64(count)
    let q = (2 * sum.magnitude + UInt64(c)) / (2 * UInt64(c))
    return Int32(truncatingIfNeeded: sum < 0 ? -Int64(q) : Int64(q))
  }

  /// The degrees a value of units stands for: the double nearest to it.
  @inlinable
  package static func degrees(_ units: Int32) -> Double { Double(units) / scale }

  /// `units` as decimal degrees with exactly 7 decimals (`-0.0000001`,
  /// `180.0000000`): the exact value, no rounding.
  package static func text(_ units: Int32) -> String {
    let negative = units < 0
    let m = units.magnitude
    let whole = m / 10_000_000, fraction = String(m % 10_000_000)
    let padded = String(repeating: "0", count: 7 - fraction.count) + fraction
    return (negative ? "-" : "") + "\(whole).\(padded)"
  }
}
