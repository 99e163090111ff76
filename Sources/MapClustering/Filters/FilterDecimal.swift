/// A number in a filter, `-?digits[.digits]` (no exponent, no limit on
/// the digits), held as its digits so that it compares exactly with a
/// column of any scale.
///
/// A column holds `units` = value × 10^scale. A bound with more fractional
/// digits than the column is not rounded to the column's scale: `u ≥ x`
/// holds exactly when `u ≥ ⌈x · 10^scale⌉`, and `u ≤ x` when
/// `u ≤ ⌊x · 10^scale⌋`, and `u = x` only when `x · 10^scale` is whole.
/// So `price >= 10.001` on a column of cents keeps 10.01 and up, and
/// `price = 10.001` keeps nothing.
struct _FilterDecimal: Equatable {
  var negative: Bool
  /// The whole part's digits, leading zeros dropped.
  var whole: [UInt8]
  /// The fractional digits, trailing zeros dropped (`1.50` is `1.5`).
  var fraction: [UInt8]

  /// `text` read as `-?digits[.digits]`; nil when it is not one.
  init?(_ text: String) {
    var bytes = Array(text.utf8)[...]
    negative = bytes.first == UInt8(ascii: "-")
    if negative { bytes = bytes.dropFirst() }
    let dot = bytes.firstIndex(of: UInt8(ascii: "."))
    let wholeBytes = bytes[..<(dot ?? bytes.endIndex)]
    let fractionBytes = dot.map { bytes[($0 + 1)...] } ?? []
    func isDigits(_ s: ArraySlice<UInt8>) -> Bool {
      !s.isEmpty && s.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
    }
    guard isDigits(wholeBytes), dot == nil || isDigits(fractionBytes) else { return nil }
    whole = Array(wholeBytes.drop { $0 == UInt8(ascii: "0") }).map { $0 - UInt8(ascii: "0") }
    var f = Array(fractionBytes).map { $0 - UInt8(ascii: "0") }
    while f.last == 0 { f.removeLast() }
    fraction = f
    if whole.isEmpty && fraction.isEmpty { negative = false }  // -0.00 is 0
  }

  /// `value · 10^scale` against the `Int64` units a column holds: within
  /// ±(2^63 − 1) units, or beyond every value (`Int64.min` is no value's).
  enum Scaled: Equatable {
    case below
    case units(Int64)
    case above
  }

  /// `⌊value · 10^scale⌋`, `⌈value · 10^scale⌉`, and whether they are equal
  /// (the value is a whole number of units).
  func scaled(_ scale: Int) -> (floor: Scaled, ceiling: Scaled, exact: Bool) {
    // the magnitude's units, truncated, and whether digits were cut
    var m: UInt64? = 0
    for k in 0..<(whole.count + scale) {
      let d = k < whole.count ? whole[k] : (k - whole.count < fraction.count ? fraction[k - whole.count] : 0)
      if let v = m {
        let (t, o1) = v.multipliedReportingOverflow(by: 10)
        let (s, o2) = t.addingReportingOverflow(UInt64(d))
        m = o1 || o2 ? nil : s
      }
    }
    let cut = fraction.count > scale
    let up = m.flatMap { v in v == .max ? nil : v + 1 }
    func signed(_ magnitude: UInt64?) -> Scaled {
      guard let magnitude, magnitude <= UInt64(Int64.max) else { return negative ? .below : .above }
      return .units(negative ? -Int64(magnitude) : Int64(magnitude))
    }
    // truncation moves a positive value down and a negative one up
    let truncated = signed(m), away = signed(cut ? up : m)
    return negative ? (away, truncated, !cut) : (truncated, away, !cut)
  }
}
