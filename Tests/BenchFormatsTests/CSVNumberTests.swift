import Testing
@testable import BenchFormats
import BenchWorkloads
import _SeededRandom

@Suite struct CSVNumberTests {
  func parse(_ s: String) -> NumberField {
    Array(s.utf8).withUnsafeBufferPointer { _parseNumber($0) }
  }

  func id(_ s: String) -> _IDResult {
    Array(s.utf8).withUnsafeBufferPointer { _parseID($0) }
  }

  @Test(arguments: [
    ("0", 0.0), ("12", 12), ("12.5", 12.5), ("12.", 12), (".5", 0.5), ("+1", 1), ("-2.25", -2.25),
    ("1e5", 1e5), ("1E-5", 1e-5), ("-1.5e+2", -150), ("  7  ", 7), ("\t7", 7), ("007.500", 7.5),
    ("0.1", 0.1), ("32.05908", 32.05908), ("-131.6478", -131.6478),
    ("9007199254740993", 9007199254740992),  // 2^53 + 1 is a tie: to even
    ("1e23", 1e23), ("4.9e-324", .leastNonzeroMagnitude),
    ("1.7976931348623157e308", 1.7976931348623157e308), ("1e-400", 0),
    ("123456789012345678901234567890", 123456789012345677877719597056),
    ("0.1000000000000000055511151231257827021181583404541015625", 0.1),
    ("2.2250738585072011e-308", Double(bitPattern: 0x000F_FFFF_FFFF_FFFF)),
  ])
  func accepts(text: String, value: Double) {
    #expect(parse(text) == .value(value))
  }

  @Test func negativeZeroKeepsItsSign() {
    guard case .value(let v) = parse("-0") else {
      Issue.record("-0 rejected")
      return
    }
    #expect(v == 0 && v.sign == .minus)
  }

  @Test(arguments: [
    "nan", "NaN", "inf", "-inf", "Infinity", "0x1p3", "0x10", "1e", "e5", ".", "+", "-", "1.2.3",
    "1,5", "1 2", "--1", "1e+", "1e5.5", "١", "1_000", "1d", "1f", "+-1", "0.5e", ". 5",
  ])
  func rejects(text: String) {
    #expect(parse(text) == .notANumber)
  }

  @Test func emptyAndSpacesAreEmpty() {
    #expect(parse("") == .empty)
    #expect(parse("  \t ") == .empty)
  }

  @Test func overflowIsNotFinite() {
    #expect(parse("1e309") == .notFinite)
    #expect(parse("-1.8e308") == .notFinite)
    #expect(parse("1e999999999999") == .notFinite)
  }

  /// The fast path must round exactly as the standard library does.
  @Test func agreesWithStandardLibraryOnRandomDecimals() {
    var g = SplitMix64(seed: 99)
    for _ in 0..<20_000 {
      let intDigits = g.nextInt(below: 4), fracDigits = g.nextInt(below: 18)
      var s = g.nextInt(below: 2) == 0 ? "-" : ""
      s += intDigits == 0 ? "0" : String(g.nextInt(below: Int(pow10(intDigits))))
      if fracDigits > 0 {
        s += "."
        for _ in 0..<fracDigits { s += String(g.nextInt(below: 10)) }
      }
      if g.nextInt(below: 4) == 0 { s += "e" + String(g.nextInt(below: 60) - 30) }
      let expected = Double(s)!
      guard case .value(let v) = parse(s) else {
        Issue.record("rejected \(s)")
        continue
      }
      #expect(v.bitPattern == expected.bitPattern, "\(s)")
    }
  }

  private func pow10(_ n: Int) -> Int { (0..<n).reduce(1) { r, _ in r * 10 } }

  @Test func ids() {
    #expect(id("00501") == .value(501))
    #expect(id(" 42 ") == .value(42))
    #expect(id("+3") == .value(3))
    #expect(id("18446744073709551615") == .value(.max))
    #expect(id("18446744073709551616") == .tooLarge)
    #expect(id("-1") == .negative)
    #expect(id("-0") == .negative)
    #expect(id("") == .empty)
    #expect(id("1.0") == .notAnInteger)
    #expect(id("1 2") == .notAnInteger)
    #expect(id("+") == .notAnInteger)
    #expect(id("0x10") == .notAnInteger)
  }
}
