/// A property a run names, and how it reads it.
///
/// The run decides the kind, not the file: a field is numeric when the run
/// compares it with `>=` or `<=` or aggregates it, a category otherwise, so
/// `stars` may be either.
public struct PropertyRequest: Hashable, Sendable {
  /// The column's header (trimmed, exact case) or the GeoJSON property's name.
  public var name: String
  public var kind: PropertyKind

  public init(_ name: String, _ kind: PropertyKind) {
    self.name = name
    self.kind = kind
  }

  /// A category property called `name`.
  public static func category(_ name: String) -> PropertyRequest { PropertyRequest(name, .category) }
  /// A numeric property called `name`.
  public static func number(_ name: String) -> PropertyRequest { PropertyRequest(name, .number) }
}

/// How a property's values are held.
public enum PropertyKind: String, Hashable, Sendable {
  /// Strings, coded as small integers (``CategoryColumn``).
  case category
  /// Decimals held exactly in fixed point (``DecimalColumn``).
  case number
}

/// A category property: one code a point, and the table of values.
///
/// Codes are 0, 1, 2… in the order the values first appear among the
/// points (file order), so the same file always gives the same codes. A
/// point without a value (an empty field, a JSON `null` or an absent
/// member) has the reserved code ``missing``. Values are kept exactly as
/// written (quoting undone, nothing trimmed): ` IR` is not `IR`.
public struct CategoryColumn: Hashable, Sendable {
  /// The code of a missing value.
  public static let missing = UInt32.max

  public let name: String
  /// `values[code]` is the text of `code`.
  public private(set) var values: [String]
  /// `codes[i]` is point `i`'s code, or ``missing``.
  public private(set) var codes: [UInt32]
  private var lookup: [String: UInt32]

  public init(name: String) {
    self.name = name
    values = []
    codes = []
    lookup = [:]
  }

  /// A column of `values` in point order, `nil` for a missing value.
  public init<S: Sequence<String?>>(name: String, values: S) {
    self.init(name: name)
    for v in values {
      if let v { append(v) } else { appendMissing() }
    }
  }

  public var count: Int { codes.count }

  /// Point `i`'s value, `nil` when it has none.
  public func value(at i: Int) -> String? {
    let c = codes[i]
    return c == Self.missing ? nil : values[Int(c)]
  }

  /// The code of `value`, `nil` if no point has it.
  public func code(of value: String) -> UInt32? { lookup[value] }

  /// Appends a point whose value is `value` (never empty: that is missing).
  public mutating func append(_ value: String) {
    if value.isEmpty { return appendMissing() }
    if let c = lookup[value] {
      codes.append(c)
      return
    }
    // at most UInt32.max - 1 values: more points than memory holds
    let c = UInt32(values.count)
    values.append(value)
    lookup[value] = c
    codes.append(c)
  }

  public mutating func appendMissing() { codes.append(Self.missing) }

  mutating func reserveCapacity(_ n: Int) { codes.reserveCapacity(n) }

  /// The points at `rows`, in that order, coded afresh by first appearance
  /// among them.
  public func gathering(_ rows: [Int]) -> CategoryColumn {
    CategoryColumn(name: name, values: rows.lazy.map { value(at: $0) })
  }

  public static func == (a: CategoryColumn, b: CategoryColumn) -> Bool {
    a.name == b.name && a.values == b.values && a.codes == b.codes
  }

  public func hash(into h: inout Hasher) {
    h.combine(name)
    h.combine(values)
    h.combine(codes)
  }
}

/// A numeric property, exact: each value an `Int64` count of
/// 10^-``scale`` units, ``scale`` the most fractional digits among the
/// values (0...9; trailing zeros count, so `1.50` makes it at least 2).
///
/// A point without a value has the reserved ``missing`` units (`Int64.min`,
/// which no value takes: values lie in ±(2^63 − 1) units). A value that
/// does not fit at the column's scale is a bad value, never rounded.
public struct DecimalColumn: Hashable, Sendable {
  /// The units of a missing value.
  public static let missing = Int64.min

  /// 10^0 … 10^18.
  static let powersOfTen: [Int64] = (0...18).map { k in (0..<k).reduce(1) { p, _ in p * 10 } }

  public let name: String
  /// `units[i]` is point `i`'s value × 10^``scale``, or ``missing``.
  public private(set) var units: [Int64]
  public private(set) var scale: Int
  /// The largest magnitude held and where it came from, the first value a
  /// finer scale would overflow.
  private var largest: UInt64 = 0
  private(set) var largestRow = 0

  public init(name: String, scale: Int = 0) {
    precondition(scale >= 0 && scale <= DecimalNumber.maxDigits, "a scale of 0...9 digits")
    self.name = name
    self.scale = scale
    units = []
  }

  /// A column of `units` at `scale`, ``missing`` where a point has no value.
  public init(name: String, scale: Int, units: [Int64]) {
    self.init(name: name, scale: scale)
    self.units = units
    for (k, u) in units.enumerated() where u != Self.missing && u.magnitude > largest {
      largest = u.magnitude
      largestRow = k
    }
  }

  public var count: Int { units.count }

  /// Point `i`'s value, `nil` when it has none.
  public func value(at i: Int) -> DecimalNumber? {
    let u = units[i]
    return u == Self.missing ? nil : DecimalNumber(units: u, digits: scale)
  }

  /// Point `i`'s value written with exactly ``scale`` fractional digits,
  /// `nil` when it has none.
  public func text(at i: Int) -> String? {
    let u = units[i]
    return u == Self.missing ? nil : Self.text(u, scale: scale)
  }

  /// `units` × 10^-`scale` with exactly `scale` fractional digits; zero has
  /// no sign.
  public static func text(_ units: Int64, scale: Int) -> String {
    let digits = String(units.magnitude)
    let sign = units < 0 ? "-" : ""
    guard scale > 0 else { return sign + digits }
    let padded = digits.count > scale ? digits : String(repeating: "0", count: scale + 1 - digits.count) + digits
    return sign + padded.dropLast(scale) + "." + padded.suffix(scale)
  }

  /// Why a value could not be appended: it, or the largest value already
  /// held, does not fit at the scale the column needs (`row` is that
  /// value's 0-based position).
  public struct Overflow: Error, Equatable, Sendable {
    public var scale: Int
    public var row: Int
    public var units: Int64
    public var digits: Int

    public init(scale: Int, row: Int, units: Int64, digits: Int) {
      self.scale = scale
      self.row = row
      self.units = units
      self.digits = digits
    }
  }

  /// Appends `value`, refining the column's scale if it has more digits.
  ///
  /// - Complexity: amortised O(1); a finer scale rescales the values held
  ///   (at most 9 times in all).
  public mutating func append(_ value: DecimalNumber) throws(Overflow) {
    if value.digits > scale {
      let factor = Self.powersOfTen[value.digits - scale]
      let (big, o) = largest.multipliedReportingOverflow(by: UInt64(factor))
      if o || big > UInt64(Int64.max) {
        throw Overflow(scale: value.digits, row: largestRow, units: units[largestRow], digits: scale)
      }
      for i in units.indices where units[i] != Self.missing { units[i] *= factor }
      largest *= UInt64(factor)
      scale = value.digits
    }
    guard let u = value.units(atScale: scale) else {
      throw Overflow(scale: scale, row: units.count, units: value.units, digits: value.digits)
    }
    if u.magnitude > largest {
      largest = u.magnitude
      largestRow = units.count
    }
    units.append(u)
  }

  public mutating func appendMissing() { units.append(Self.missing) }

  mutating func reserveCapacity(_ n: Int) { units.reserveCapacity(n) }

  /// The points at `rows`, in that order, at this column's scale.
  public func gathering(_ rows: [Int]) -> DecimalColumn {
    DecimalColumn(name: name, scale: scale, units: rows.map { units[$0] })
  }

  public static func == (a: DecimalColumn, b: DecimalColumn) -> Bool {
    a.name == b.name && a.scale == b.scale && a.units == b.units
  }

  public func hash(into h: inout Hasher) {
    h.combine(name)
    h.combine(scale)
    h.combine(units)
  }
}
