import Foundation

/// How a flag's number is read (``FlagValue/integer(in:)``); the flags
/// themselves are read by ``FlagTable``.
enum ArgumentReader {
  /// A whole number in `range`, written as digits (`1000000`) or with an
  /// exponent (`1e6`) as long as it is exact; `_` may group digits.
  static func integer(
    _ text: String, flag: String, in range: ClosedRange<Int>, command: String
  ) throws(UsageError) -> Int {
    let trimmed = text.replacingOccurrences(of: "_", with: "")
    let value: Int
    // Decimal digits and an exponent only: `Double(_:)` alone also takes hex (`0x10`).
    if let v = Int(trimmed) {
      value = v
    } else if trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }),
              let d = Double(trimmed), d.isFinite, d == d.rounded()
    {
      guard abs(d) <= Double(range.upperBound) * 2 + 1 else {
        throw UsageError("\(flag) \(text) is too large (at most \(range.upperBound))", command: command)
      }
      value = Int(d)
    } else {
      throw UsageError("\(flag) \"\(text)\" is not a whole number", command: command)
    }
    guard range.contains(value) else {
      let why = value < range.lowerBound
        ? "must be at least \(range.lowerBound)" : "is too large (at most \(range.upperBound))"
      throw UsageError("\(flag) \(text) \(why)", command: command)
    }
    return value
  }
}
