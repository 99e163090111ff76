import Foundation

/// Walks a command's arguments: flags with values (`--n 1000` or `--n=1000`),
/// switches and positional operands, each checked as it is read.
struct ArgumentReader {
  private var rest: ArraySlice<String>
  let command: String

  init(_ arguments: [String], command: String) {
    rest = arguments[...]
    self.command = command
  }

  var isEmpty: Bool { rest.isEmpty }

  /// The next flag (`--name`) or operand, splitting `--name=value` in two.
  mutating func next() -> String? {
    guard let a = rest.popFirst() else { return nil }
    if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
      rest.insert(String(a[a.index(after: eq)...]), at: rest.startIndex)
      return String(a[..<eq])
    }
    return a
  }

  /// The value after `flag`; a missing value or another flag in its place is an error.
  mutating func value(for flag: String) throws(UsageError) -> String {
    guard let v = rest.first, !(v.hasPrefix("--") && v.count > 2) else {
      throw UsageError("\(flag) needs a value", command: command)
    }
    rest.removeFirst()
    return v
  }

  /// A whole number in `range`, written as digits (`1000000`) or with an
  /// exponent (`1e6`) as long as it is exact.
  mutating func integer(
    for flag: String, in range: ClosedRange<Int>
  ) throws(UsageError) -> Int {
    try Self.integer(try value(for: flag), flag: flag, in: range, command: command)
  }

  /// A comma-separated list of whole numbers, each in `range`.
  mutating func integers(
    for flag: String, in range: ClosedRange<Int>
  ) throws(UsageError) -> [Int] {
    let text = try value(for: flag)
    var result: [Int] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      result.append(try Self.integer(String(part), flag: flag, in: range, command: command))
    }
    return result
  }

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
