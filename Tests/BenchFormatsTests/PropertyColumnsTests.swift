import Testing
import BenchFormats

/// The decimal syntax and the fixed-point columns properties are held in.
@Suite struct DecimalNumberTests {
  @Test(arguments: [
    ("12", 12, 0), ("-12.50", -1250, 2), ("0.000000001", 1, 9), ("007", 7, 0),
    (" 3.5\t", 35, 1), ("9223372036854775807", Int64.max, 0), ("-9223372036854775807", -Int64.max, 0),
  ] as [(String, Int64, Int)])
  func reads(_ text: String, _ units: Int64, _ digits: Int) {
    #expect(DecimalNumber.parse(text) == .value(DecimalNumber(units: units, digits: digits)))
  }

  @Test func negativeZeroIsZeroWithoutSign() {
    #expect(DecimalNumber.parse("-0.00") == .value(DecimalNumber(units: 0, digits: 2)))
    #expect(DecimalColumn.text(0, scale: 2) == "0.00")
  }

  @Test(arguments: ["+1", "1e3", "1E3", ".5", "5.", "1,5", "- 1", "--1", "0x10", "nan", "inf", "1.2.3", "１"])
  func refusesWhatIsNotPlainDecimal(_ text: String) {
    #expect(DecimalNumber.parse(text) == .notADecimal, "\(text)")
  }

  @Test func atMostNineFractionalDigits() {
    #expect(DecimalNumber.parse("0.1234567891") == .tooManyDigits)
    #expect(DecimalNumber.parse("1.000000000") == .value(DecimalNumber(units: 1_000_000_000, digits: 9)))
  }

  @Test func beyondSixtyFourBitsIsAnError() {
    #expect(DecimalNumber.parse("9223372036854775808") == .tooLarge)
    #expect(DecimalNumber.parse("-9223372036854775808") == .tooLarge, "Int64.min is the missing value")
    #expect(DecimalNumber.parse("99999999999999999999999") == .tooLarge)
    #expect(DecimalNumber.parse("922337203685477580.8") == .tooLarge)
  }

  @Test func emptyIsMissing() {
    #expect(DecimalNumber.parse("") == .empty)
    #expect(DecimalNumber.parse("  ") == .empty)
  }

  @Test func equalByValueAtACommonScale() {
    let a = DecimalNumber(units: 15, digits: 1), b = DecimalNumber(units: 150, digits: 2)
    #expect(a.units(atScale: 2) == b.units(atScale: 2))
    #expect(DecimalNumber(units: Int64.max, digits: 0).units(atScale: 1) == nil)
  }

  @Test func textHasTheScalesDigits() {
    #expect(DecimalColumn.text(12345, scale: 2) == "123.45")
    #expect(DecimalColumn.text(-5, scale: 3) == "-0.005")
    #expect(DecimalColumn.text(7, scale: 0) == "7")
    #expect(DecimalColumn.text(-Int64.max, scale: 9) == "-9223372036.854775807")
  }
}

@Suite struct PropertyColumnTests {
  @Test func categoriesAreCodedByFirstAppearance() {
    let c = CategoryColumn(name: "cc", values: ["FR", "DE", nil, "FR", "IT", "DE"])
    #expect(c.values == ["FR", "DE", "IT"])
    #expect(c.codes == [0, 1, CategoryColumn.missing, 0, 2, 1])
    #expect(c.value(at: 2) == nil)
    #expect(c.code(of: "IT") == 2)
    #expect(c.code(of: "ES") == nil)
  }

  @Test func anEmptyCategoryIsMissing() {
    let c = CategoryColumn(name: "cc", values: ["", "a"])
    #expect(c.codes == [CategoryColumn.missing, 0])
  }

  @Test func theScaleIsTheMostFractionalDigitsAndEarlierValuesFollow() throws {
    var c = DecimalColumn(name: "price")
    try c.append(DecimalNumber(units: 15, digits: 1))  // 1.5
    c.appendMissing()
    try c.append(DecimalNumber(units: 2, digits: 0))  // 2
    try c.append(DecimalNumber(units: 150, digits: 2))  // 1.50
    #expect(c.scale == 2)
    #expect(c.units == [150, DecimalColumn.missing, 200, 150])
    #expect(c.value(at: 0) == c.value(at: 3), "1.5 == 1.50")
    #expect(c.text(at: 0) == "1.50")
    #expect(c.text(at: 1) == nil)
  }

  @Test func aFinerScaleThatOverflowsAnEarlierValueIsAnError() throws {
    var c = DecimalColumn(name: "big")
    try c.append(DecimalNumber(units: 1, digits: 0))
    try c.append(DecimalNumber(units: 922_337_203_685_477_580, digits: 0))
    #expect(throws: DecimalColumn.Overflow(scale: 2, row: 1, units: 922_337_203_685_477_580, digits: 0)) {
      try c.append(DecimalNumber(units: 1, digits: 2))
    }
    #expect(c.units == [1, 922_337_203_685_477_580], "nothing changed")
    try c.append(DecimalNumber(units: 5, digits: 1))  // one digit more still fits
    #expect(c.units == [10, 9_223_372_036_854_775_800, 5])
  }

  @Test func aValueTooLargeAtTheColumnsScaleIsAnError() throws {
    var c = DecimalColumn(name: "x")
    try c.append(DecimalNumber(units: 1, digits: 3))
    #expect(throws: DecimalColumn.Overflow.self) {
      try c.append(DecimalNumber(units: 9_223_372_036_854_776, digits: 0))
    }
    #expect(c.count == 1)
  }

  @Test func aSampleRecodesCategoriesAndKeepsTheScale() {
    let t = PropertyTable(columns: [
      .category(CategoryColumn(name: "cc", values: ["FR", "DE", "IT", "DE"])),
      .decimal(DecimalColumn(name: "p", scale: 2, units: [100, 250, DecimalColumn.missing, 5])),
    ])
    let s = t.gathering([2, 3])
    #expect(s.category("cc")?.values == ["IT", "DE"])
    #expect(s.category("cc")?.codes == [0, 1])
    #expect(s.decimal("p")?.units == [DecimalColumn.missing, 5])
    #expect(s.decimal("p")?.scale == 2)
    #expect(s.names == ["cc", "p"])
    #expect(s.decimal("cc") == nil && s.category("p") == nil)
  }
}
