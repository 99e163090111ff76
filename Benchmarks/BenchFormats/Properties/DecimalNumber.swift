/// A decimal read exactly: `-?digits[.digits]`, at most 9 fractional
/// digits, held as an integer count of 10^-`digits` units.
///
/// The syntax property values and (later) filter bounds share. No `+`, no
/// exponent, no `.5` or `5.`: a value a spreadsheet or a script writes
/// plainly. Trailing fractional zeros count (`1.50` has 2 digits), since a
/// column's scale is the most fractional digits among its values; by value,
/// `1.5` and `1.50` are equal (``units(atScale:)``).
///
///     DecimalNumber.parse("-12.50")  // .value(DecimalNumber(units: -1250, digits: 2))
///     DecimalNumber.parse("-0.00")   // .value(DecimalNumber(units: 0, digits: 2)): zero has no sign
public struct DecimalNumber: Hashable, Sendable {
  /// The value × 10^`digits`; never `Int64.min`, which columns reserve for
  /// a missing value.
  public var units: Int64
  /// Fractional digits as written, 0...``maxDigits``.
  public var digits: Int

  /// The most fractional digits a value may have.
  public static let maxDigits = 9

  public init(units: Int64, digits: Int) {
    precondition(digits >= 0 && digits <= Self.maxDigits, "0...9 fractional digits")
    precondition(units != .min, "Int64.min is reserved for a missing value")
    self.units = units
    self.digits = digits
  }

  /// What parsing a field gave.
  public enum Parsed: Equatable, Sendable {
    case value(DecimalNumber)
    /// Nothing but spaces and tabs: a missing value.
    case empty
    /// Not `-?digits[.digits]`.
    case notADecimal
    /// More than 9 fractional digits.
    case tooManyDigits
    /// Beyond ±(2^63 − 1) units.
    case tooLarge
  }

  /// Reads `field`, surrounding spaces and tabs ignored.
  ///
  /// - Complexity: O(*n*) in the field length.
  public static func parse(_ field: UnsafeBufferPointer<UInt8>) -> Parsed {
    let p = _trimmed(field)
    let n = p.count
    if n == 0 { return .empty }
    var i = 0
    let negative = p[0] == UInt8(ascii: "-")
    if negative { i = 1 }
    var magnitude: UInt64 = 0
    var overflow = false
    var integerDigits = 0
    var fractionDigits = 0
    @inline(__always) func take(_ d: UInt8) {
      let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(UInt64(d))
      overflow = overflow || o1 || o2
      magnitude = s
    }
    while i < n, case let d = p[i] &- UInt8(ascii: "0"), d < 10 {
      take(d)
      integerDigits += 1
      i += 1
    }
    if integerDigits == 0 { return .notADecimal }
    if i < n && p[i] == UInt8(ascii: ".") {
      i += 1
      while i < n, case let d = p[i] &- UInt8(ascii: "0"), d < 10 {
        take(d)
        fractionDigits += 1
        i += 1
      }
      if fractionDigits == 0 { return .notADecimal }
    }
    if i != n { return .notADecimal }
    if fractionDigits > maxDigits { return .tooManyDigits }
    if overflow || magnitude > UInt64(Int64.max) { return .tooLarge }
    let units = negative ? -Int64(magnitude) : Int64(magnitude)
    return .value(DecimalNumber(units: units, digits: fractionDigits))
  }

  /// Reads `text` (see ``parse(_:)-(UnsafeBufferPointer<UInt8>)``).
  public static func parse(_ text: String) -> Parsed {
    var text = text
    return text.withUTF8 { parse($0) }
  }

  /// The value in units of 10^-`scale` (`scale` >= ``digits``), or `nil`
  /// when it does not fit in 64 bits (or is `Int64.min`).
  public func units(atScale scale: Int) -> Int64? {
    precondition(scale >= digits && scale <= Self.maxDigits, "a scale no finer than 9 digits, no coarser than the value")
    let (v, overflow) = units.multipliedReportingOverflow(by: DecimalColumn.powersOfTen[scale - digits])
    return overflow || v == .min ? nil : v
  }
}
