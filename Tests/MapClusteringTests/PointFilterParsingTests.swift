import Testing
@testable import MapClustering

/// The filter's text form (issue 43, item 2): clauses joined by `and`,
/// `F in (…)`, `F = v`, `F >= x`, `F <= x`, bare or quoted values.
@Suite struct PointFilterParsingTests {
  private func parse(_ text: String) throws -> PointFilter { try PointFilter(parsing: text) }

  /// The fault's message and position, or nil when the text parses.
  private func fault(_ text: String) -> (message: String, position: Int?)? {
    do {
      _ = try PointFilter(parsing: text)
      return nil
    } catch {
      guard case .invalidFilter(let message, let position) = error else { return ("\(error)", nil) }
      return (message, position)
    }
  }

  @Test func eachOperatorAndItsTypedForm() throws {
    #expect(try parse("chain in (chain-7, chain-9)") == .field("chain", in: ["chain-7", "chain-9"]))
    #expect(try parse("chain = chain-7") == .field("chain", in: ["chain-7"]))
    #expect(try parse("stars >= 4") == .field("stars", atLeast: "4"))
    #expect(try parse("price <= 99.50") == .field("price", atMost: "99.50"))
    #expect(try parse("stars >= 4 and price <= 150 and chain in (a)")
            == PointFilter.field("stars", atLeast: "4").and(.field("price", atMost: "150")).and(.field("chain", in: ["a"])))
  }

  @Test func spacesAroundTokensAreOptional() throws {
    let spaced = try parse("  stars >= 4   and  chain in ( a , b )  ")
    #expect(try parse("stars>=4 and chain in(a,b)") == spaced)
    #expect(try parse("chain in (a,b)and stars>=4") == PointFilter.field("chain", in: ["a", "b"]).and(.field("stars", atLeast: "4")))
    #expect(try parse("\tstars\n>=\r4") == .field("stars", atLeast: "4"))
    #expect(try parse(#"chain="a"and"stars">=4"#) == PointFilter.field("chain", in: ["a"]).and(.field("stars", atLeast: "4")))
  }

  @Test func anEmptyFilterKeepsEveryPoint() throws {
    #expect(try parse("").isEmpty)
    #expect(try parse("   \t ").isEmpty)
    #expect(try !parse("a = b").isEmpty)
  }

  /// Quotes are read before anything else: a quoted value may hold a
  /// comma, a parenthesis, spaces, the word `and`, and `""` for a quote.
  @Test func quotedValues() throws {
    #expect(try parse(#"chain in ("Inn, The", "a and b", "say ""hi""", "(x)")"#)
            == .field("chain", in: ["Inn, The", "a and b", #"say "hi""#, "(x)"]))
    #expect(try parse(#"name = "a"" and b = c""#) == .field("name", in: [#"a" and b = c"#]))
    #expect(try parse(#"name = """#) == .field("name", in: [""]))
    #expect(try parse(#""hotel name" = Ritz"#) == .field("hotel name", in: ["Ritz"]))
    #expect(try parse(#"name = "東京 ホテル" and x = ü"#) == PointFilter.field("name", in: ["東京 ホテル"]).and(.field("x", in: ["ü"])))
    // a bare value runs to a space, comma, parenthesis or quote; `=` is part of it
    #expect(try parse("f = a=b") == .field("f", in: ["a=b"]))
  }

  @Test func aWordThatStartsWithAndIsNotTheKeyword() throws {
    #expect(try parse("os = android") == .field("os", in: ["android"]))
    #expect(fault("os = android andx = 1")?.message == #"expected "and" or the end of the filter, found "andx""#)
  }

  @Test func numbersAreDecimalsWithoutExponent() throws {
    for good in ["4", "-4", "0", "-0.00", "1.50", "007", "12345678901234567890.123456789012345"] {
      #expect(throws: Never.self, "\(good)") { try parse("x >= \(good)") }
    }
    for bad in ["1e3", "+4", ".5", "5.", "abc", "1.2.3", "--1", "0x10", "∞"] {
      let f = fault("x >= \(bad)")
      #expect(f != nil, "\(bad)")
      #expect(f?.position == 6, "\(bad)")
    }
  }

  /// A field compared with `>=` or `<=` is numeric everywhere in the
  /// filter: its `=` and `in` values must be numbers too.
  @Test func aNumericFieldsValuesAreNumbers() throws {
    #expect(try parse("stars in (4, 5.0) and stars >= 3") == PointFilter.field("stars", in: ["4", "5.0"]).and(.field("stars", atLeast: "3")))
    let f = fault("stars in (4, five) and stars >= 3")
    #expect(f?.message == #""five" is not a number (-?digits[.digits]): stars is numeric, as it is compared with >="#)
    #expect(f?.position == 14)
    // a field compared only with = and in is a category: any text
    #expect(try parse("stars in (4, five)") == .field("stars", in: ["4", "five"]))
  }

  @Test(arguments: [
    ("stars > 4", 7, #"unknown operator ">" after stars; use >="#),
    ("stars => 4", 7, #"unknown operator "=>" after stars; use >="#),
    ("stars < 4", 7, #"unknown operator "<" after stars; use <="#),
    ("stars == 4", 7, #"unknown operator "==" after stars; use ="#),
    ("stars != 4", 7, #"unknown operator "!=" after stars; use =, >=, <= or in"#),
    ("chain IN (a)", 7, #"expected an operator (=, >=, <= or in) after "chain", found "IN" (keywords are lowercase)"#),
    ("a = 1 AND b = 2", 7, #"expected "and" or the end of the filter, found "AND" (keywords are lowercase)"#),
    ("a = 1, 2", 6, #"expected "and" or the end of the filter, found "," (several values go in a list: F in (a, b))"#),
    ("a = 1 and", 10, #"a field name expected, found the end"#),
    ("and a = 1", 5, #"expected an operator (=, >=, <= or in) after "and", found "a""#),
    ("a = 1 and and b = 2", 15, #"expected an operator (=, >=, <= or in) after "and", found "b""#),
    ("= 4", 1, #"a field name expected, found "=""#),
    ("a =", 4, #"a value expected after =, found the end"#),
    ("a >= ", 6, #"a value expected after >=, found the end"#),
    ("a in a, b", 6, #"expected "(" after in, found "a""#),
    ("a in ()", 7, #"a value expected after (, found ")""#),
    ("a in (x,)", 9, #"a value expected after ,, found ")""#),
    ("a in (x y)", 9, #"expected "," or ")" in the list, found "y""#),
    ("a in (x, y", 11, #"the list after in is not closed: expected ")""#),
    (#"a = "open"#, 5, #"a quoted value is not closed: a double quote is missing (write "" for a quote inside)"#),
    (#""" = x"#, 1, #"a field name is empty"#),
    ("stars 4", 7, #"expected an operator (=, >=, <= or in) after "stars", found "4""#),
    ("(a = 1)", 1, #"a field name expected, found "(""#),
    ("a = b c = d", 7, #"expected "and" or the end of the filter, found "c""#),
    ("é = 1 and ü >= x", 16, #"a number (-?digits[.digits]) expected after >=, found "x""#),
  ])
  func badFiltersNameThePositionAndTheFault(text: String, position: Int, message: String) {
    let f = fault(text)
    #expect(f?.message == message, "\(text)")
    #expect(f?.position == position, "\(text)")
  }

  @Test func theMessageCarriesThePosition() {
    #expect("\(ClusteringError.invalidFilter("a value expected", position: 4))" == "a value expected (at character 4)")
    #expect("\(ClusteringError.invalidFilter("no property \"x\"", position: nil))" == "no property \"x\"")
  }

  @Test func fieldsAreNumericWhenComparedOrAggregated() throws {
    let filter = try parse("chain in (a) and stars >= 4 and cc = FR and stars <= 5")
    let fields = filter.fields(aggregating: [.sum("price"), .max("cc")])
    #expect(fields.map(\.name) == ["chain", "stars", "cc", "price"])
    #expect(fields.map(\.numeric) == [false, true, true, true])
  }

  @Test func aggregatesText() throws {
    #expect(try ClusterAggregate(parsing: "sum:price") == .sum("price"))
    #expect(try ClusterAggregate(parsing: "min:a:b") == .min("a:b"))
    #expect(try ClusterAggregate(parsing: "max:hotel name").text == "max:hotel name")
    for bad in ["sum", "avg:price", "SUM:price", "sum:", ":price"] {
      #expect(throws: ClusteringError.self, "\(bad)") { try ClusterAggregate(parsing: bad) }
    }
  }

  /// Equal filters test the same, whatever their spacing.
  @Test func equalityIgnoresPositions() throws {
    #expect(try parse("a=1") == parse("  a  =  1 "))
    #expect(try parse("a=1").hashValue == parse("  a  =  1 ").hashValue)
    #expect(try parse("a=1") != parse("a=2"))
    #expect(try parse("a=1 and b=2") != parse("b=2 and a=1"))
  }
}
