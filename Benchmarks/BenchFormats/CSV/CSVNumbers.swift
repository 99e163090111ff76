/// What a number field holds, read with ``parse(_:)``: the strict decimal
/// syntax every bench format shares (CSV fields, GeoJSON numbers).
public enum NumberField: Equatable, Sendable {
  case value(Double)
  /// Nothing but spaces.
  case empty
  /// Not `[+-]digits[.digits][(e|E)[+-]digits]`: `nan`, `inf`, hex, `1,5`…
  case notANumber
  /// Valid syntax, but beyond the largest double (`1e400`).
  case notFinite
}

extension NumberField {
  /// The number in `field`, surrounding spaces and tabs ignored; see
  /// `_parseNumber` for the syntax and the rounding.
  public static func parse(_ field: UnsafeBufferPointer<UInt8>) -> NumberField {
    _parseNumber(field)
  }
}

/// What reading an id field gave.
enum _IDResult: Equatable, Sendable {
  case value(UInt64)
  case empty
  case negative
  case notAnInteger
  case tooLarge
}

let _space = UInt8(ascii: " ")
let _tab = UInt8(ascii: "\t")

/// The bytes without surrounding spaces and tabs.
func _trimmed(_ p: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
  var lo = 0
  var hi = p.count
  while lo < hi && (p[lo] == _space || p[lo] == _tab) { lo += 1 }
  while hi > lo && (p[hi - 1] == _space || p[hi - 1] == _tab) { hi -= 1 }
  return UnsafeBufferPointer(rebasing: p[lo..<hi])
}

/// Exact powers of ten: every one up to 10^22 is a double without rounding.
let _exactPowersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// Parses a decimal number with a strict syntax and correct rounding.
///
/// Accepted, after trimming surrounding spaces and tabs: an optional sign,
/// digits with an optional fraction (`12`, `12.5`, `12.`, `.5`; at least one
/// digit), and an optional exponent (`e` or `E`, optional sign, digits).
/// Rejected: `nan`, `inf`, hexadecimal floats, a space inside, a comma as the
/// decimal separator, and anything else `strtod` would take but a CSV should
/// not hold.
///
/// Conversion is correctly rounded. Coordinates take Clinger's fast path:
/// when the digits form an integer *m* ≤ 2^53 and the decimal exponent *e*
/// has |*e*| ≤ 22, both *m* and 10^|*e*| are exact doubles, so the one IEEE
/// multiplication or division is correctly rounded (W. D. Clinger, "How to
/// read floating point numbers accurately", PLDI 1990). Other inputs, already
/// validated, go to the standard library's `Double(_:)`, which is correctly
/// rounded and, unlike a bare `strtod`, ignores the C locale's decimal point.
///
/// - Complexity: O(*n*) in the field length.
func _parseNumber(_ field: UnsafeBufferPointer<UInt8>) -> NumberField {
  let p = _trimmed(field)
  let n = p.count
  if n == 0 { return .empty }
  var i = 0
  var negative = false
  if p[0] == UInt8(ascii: "-") || p[0] == UInt8(ascii: "+") {
    negative = p[0] == UInt8(ascii: "-")
    i = 1
  }
  var mantissa: UInt64 = 0
  var significant = 0  // digits accumulated in `mantissa` after leading zeros
  var exponent = 0  // decimal exponent applied to `mantissa`
  var digits = 0  // all mantissa digits seen
  var exact = true  // false once a nonzero digit did not fit in `mantissa`

  @inline(__always) func take(_ d: UInt64, fraction: Bool) {
    digits += 1
    if significant < 19 {
      if mantissa != 0 || d != 0 {
        mantissa = mantissa &* 10 &+ d
        significant += 1
      }
      if fraction { exponent -= 1 }
    } else {
      if d != 0 { exact = false }
      if !fraction { exponent += 1 }
    }
  }

  while i < n, case let d = p[i] &- UInt8(ascii: "0"), d < 10 {
    take(UInt64(d), fraction: false)
    i += 1
  }
  if i < n && p[i] == UInt8(ascii: ".") {
    i += 1
    while i < n, case let d = p[i] &- UInt8(ascii: "0"), d < 10 {
      take(UInt64(d), fraction: true)
      i += 1
    }
  }
  if digits == 0 { return .notANumber }
  if i < n && (p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E")) {
    i += 1
    var expNegative = false
    if i < n && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) {
      expNegative = p[i] == UInt8(ascii: "-")
      i += 1
    }
    var e = 0
    var expDigits = 0
    while i < n, case let d = p[i] &- UInt8(ascii: "0"), d < 10 {
      if e < 1_000_000 { e = e * 10 + Int(d) }  // saturate: the result is 0 or ∞ anyway
      expDigits += 1
      i += 1
    }
    if expDigits == 0 { return .notANumber }
    exponent += expNegative ? -e : e
  }
  if i != n { return .notANumber }

  let value: Double
  if mantissa == 0 && exact {
    value = 0
  } else if exact && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
    let m = Double(mantissa)
    value = exponent >= 0 ? m * _exactPowersOfTen[exponent] : m / _exactPowersOfTen[-exponent]
  } else {
    // The syntax is checked, so the standard library parses the same number.
    guard let v = Double(String(decoding: p, as: UTF8.self)) else { return .notANumber }
    return v.isFinite ? .value(v) : .notFinite
  }
  return .value(negative ? -value : value)
}

/// Parses an id: after trimming spaces and tabs, an optional `+` and decimal
/// digits (leading zeros allowed, as in ZIP code `00501`), at most 2^64 - 1.
///
/// - Complexity: O(*n*) in the field length.
func _parseID(_ field: UnsafeBufferPointer<UInt8>) -> _IDResult {
  let p = _trimmed(field)
  if p.isEmpty { return .empty }
  var i = 0
  var negative = false
  if p[0] == UInt8(ascii: "+") || p[0] == UInt8(ascii: "-") {
    negative = p[0] == UInt8(ascii: "-")
    i = 1
  }
  if i == p.count { return .notAnInteger }
  var value: UInt64 = 0
  var overflow = false
  while i < p.count {
    let d = p[i] &- UInt8(ascii: "0")
    if d >= 10 { return .notAnInteger }
    let (m, o1) = value.multipliedReportingOverflow(by: 10)
    let (s, o2) = m.addingReportingOverflow(UInt64(d))
    overflow = overflow || o1 || o2
    value = s
    i += 1
  }
  if negative { return .negative }
  return overflow ? .tooLarge : .value(value)
}
