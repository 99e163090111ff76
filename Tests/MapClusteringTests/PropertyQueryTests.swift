import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport
@testable import MapClustering

/// A filter compiled against the points' properties (issue 43, item 2):
/// categories compare exact strings, numbers compare by value and exactly,
/// a missing value never matches.
@Suite struct PropertyQueryTests {
  /// Eight hotels: `chain` and `label` categories, `price` in cents
  /// (scale 2), `stars` whole (scale 0); nil is a missing value.
  static func hotels() throws(ClusteringError) -> PointProperties {
    var p = PointProperties()
    try p.addCategory("chain", values: ["Inn, The", "Ritz", nil, "Ritz", "", #"say "hi""#, "a and b", "Ritz"])
    try p.addCategory("label", values: ["1.5", "1.50", "-0", "0", nil, "x", "x", "y"])
    try p.addNumber("price", units: [999, 1000, 1001, -1, 0, .min, 150, 1_000_000], scale: 2)
    try p.addNumber("stars", units: [1, 2, 3, 4, 5, 4, .min, 0], scale: 0)
    return p
  }

  /// The ids of `hotels()` that `filter` keeps.
  private func kept(_ filter: String) throws -> [Int32] {
    let query = try PropertyQuery(filter: PointFilter(parsing: filter), properties: Self.hotels())
    let ids = (0..<8).map(Int32.init).filter(query.matches)
    // the clusterer's way, one column at a time, keeps the same
    var batch = (0..<8).map(Int32.init)
    query._retain(&batch)
    #expect(batch == ids, "\(filter)")
    return ids
  }

  @Test func categoriesCompareExactStrings() throws {
    #expect(try kept("chain = Ritz") == [1, 3, 7])
    #expect(try kept(#"chain in ("Inn, The", "say ""hi""", "a and b")"#) == [0, 5, 6])
    #expect(try kept("chain = ritz") == [])
    #expect(try kept(#"chain = " Ritz""#) == [])
    // clauses on one category: a point passes each
    #expect(try kept(#"chain in (Ritz, "Inn, The") and chain in (Ritz, "a and b")"#) == [1, 3, 7])
    #expect(try kept(#"chain = Ritz and chain = "Inn, The""#) == [])
    // a category holding numbers is still strings
    #expect(try kept("label = 1.5") == [0])
    #expect(try kept("label in (1.50, 0)") == [1, 3])
    #expect(try kept("label = -0") == [2])
  }

  @Test func numbersCompareByValue() throws {
    #expect(try kept("price = 10") == [1])
    #expect(try kept("price = 10.000") == [1])
    #expect(try kept("price in (9.99, 10.0, 1.50)") == [0, 1, 6])
    #expect(try kept("stars in (4, 4.0, 5.00)") == [3, 4, 5])
    #expect(try kept("stars >= 4") == [3, 4, 5])
    #expect(try kept("stars >= 2 and stars <= 4") == [1, 2, 3, 5])
    #expect(try kept("stars >= 4 and stars <= 2") == [])
  }

  /// `-0.00` is zero: it equals 0, and bounds at it keep 0.
  @Test func negativeZeroIsZero() throws {
    #expect(try kept("price = -0.00") == [4])
    #expect(try kept("price >= -0.00") == [0, 1, 2, 4, 6, 7])
    #expect(try kept("price <= -0") == [3, 4])
    #expect(try kept("stars = -0") == [7])
  }

  /// A bound with more fractional digits than the column is not rounded:
  /// `u ≥ ⌈x·10^scale⌉`, `u ≤ ⌊x·10^scale⌋`, and `=` needs a whole number
  /// of units.
  @Test func boundsFinerThanTheColumnCompareExactly() throws {
    #expect(try kept("price >= 10.001") == [2, 7])      // 10.01 and up
    #expect(try kept("price >= 9.9999999999999") == [1, 2, 7])
    #expect(try kept("price <= 10.009") == [0, 1, 3, 4, 6])
    #expect(try kept("price <= 9.99000000000000000000001") == [0, 3, 4, 6])
    #expect(try kept("price = 10.001") == [])
    #expect(try kept("price = 10.0100000000000000000000") == [2])
    #expect(try kept("price >= -0.001") == [0, 1, 2, 4, 6, 7])   // -0.001 ≤ 0: keeps 0, not -0.01
    #expect(try kept("price <= -0.001") == [3])
    #expect(try kept("price <= -0.011") == [])
    #expect(try kept("stars >= 3.5") == [3, 4, 5])
    #expect(try kept("stars <= 3.5") == [0, 1, 2, 7])
  }

  /// Bounds beyond what 64-bit units hold: above every value, or below.
  @Test func boundsBeyondSixtyFourBits() throws {
    let huge = "123456789012345678901234567890.5"
    #expect(try kept("price >= \(huge)") == [])
    #expect(try kept("price <= \(huge)") == [0, 1, 2, 3, 4, 6, 7])
    #expect(try kept("price >= -\(huge)") == [0, 1, 2, 3, 4, 6, 7])
    #expect(try kept("price <= -\(huge)") == [])
    #expect(try kept("price = \(huge)") == [])
    // the extremes of a column at scale 9: exact at the edge of Int64
    var p = PointProperties()
    try p.addNumber("x", units: [.max, .max - 1, -.max, .min], scale: 9)
    func keptX(_ f: String) throws -> [Int32] {
      let q = try PropertyQuery(filter: PointFilter(parsing: f), properties: p)
      return (0..<4).map(Int32.init).filter(q.matches)
    }
    #expect(try keptX("x >= 9223372036.854775807") == [0])
    #expect(try keptX("x >= 9223372036.8547758065") == [0])
    #expect(try keptX("x >= 9223372036.854775808") == [])
    #expect(try keptX("x <= -9223372036.854775807") == [2])
    #expect(try keptX("x <= -9223372036.854775808") == [])
    #expect(try keptX("x >= -9223372036.854775808") == [0, 1, 2])
    #expect(try keptX("x = -9223372036.854775808") == [])
  }

  /// A missing value (an empty field, no value) never matches a clause on
  /// its field, not even `= ""`.
  @Test func missingValuesNeverMatch() throws {
    #expect(try kept(#"chain = """#) == [])
    #expect(try kept(#"chain in ("", Ritz)"#) == [1, 3, 7])
    #expect(try kept("price <= 100000000") == [0, 1, 2, 3, 4, 6, 7])
    #expect(try kept("stars >= -100") == [0, 1, 2, 3, 4, 5, 7])
    // an empty value in a table the caller gives is missing too
    var p = PointProperties()
    try p.addCategory("c", codes: [0, 1, .max], values: ["", "a"])
    let q = try PropertyQuery(filter: PointFilter(parsing: #"c in ("", a)"#), properties: p)
    #expect([0, 1, 2].map { q.matches($0) } == [false, true, false])
  }

  @Test func anEmptyFilterKeepsEveryPointAndNoOther() throws {
    #expect(try kept("") == Array(0..<8))
    let query = try PropertyQuery(properties: Self.hotels())
    #expect(!query.matches(-1) && !query.matches(8) && query.matches(7))
    #expect(try PropertyQuery(properties: PointProperties()).matches(12_345))
  }

  /// A value the table holds twice matches at both codes.
  @Test func aValueTwiceInTheTable() throws {
    var p = PointProperties()
    try p.addCategory("c", codes: [0, 1, 2, 1], values: ["a", "b", "a"])
    let q = try PropertyQuery(filter: .field("c", in: ["a"]), properties: p)
    #expect([0, 1, 2, 3].map { q.matches($0) } == [true, false, true, false])
  }

  private func compileFault(_ filter: PointFilter) -> ClusteringError? {
    do throws(ClusteringError) {
      _ = try PropertyQuery(filter: filter, properties: Self.hotels())
      return nil
    } catch {
      return error
    }
  }

  @Test func faultsNameTheFieldAndWhereItIs() throws {
    #expect(compileFault(try PointFilter(parsing: "stars >= 4 and prise <= 100")) == .invalidFilter(
      #"no property called "prise" (the points have "chain", "label", "price", "stars")"#, position: 16))
    #expect(compileFault(try PointFilter(parsing: "chain >= 4")) == .invalidFilter(
      #""chain" is a category: >= compares numbers"#, position: 1))
    #expect(compileFault(try PointFilter(parsing: "price in (10, ten)")) == .invalidFilter(
      #""ten" is not a number (-?digits[.digits]): "price" is numeric"#, position: 15))
    // built in code: no position
    #expect(compileFault(.field("price", atMost: "cheap")) == .invalidFilter(
      #""cheap" is not a number (-?digits[.digits]): "price" is numeric"#, position: nil))
    #expect(compileFault(PointFilter.field("x", in: []).and(.field("stars", atLeast: "1"))) == .invalidFilter(
      #"no property called "x" (the points have "chain", "label", "price", "stars")"#, position: nil))
  }

  @Test func propertiesThatDoNotFitTogether() throws {
    var p = PointProperties()
    try p.addNumber("a", units: [1, 2], scale: 0)
    #expect(throws: ClusteringError.invalidProperties(#"property "a" is added twice"#)) {
      try p.addCategory("a", values: ["x", "y"])
    }
    #expect(throws: ClusteringError.invalidProperties(#"property "b" has 3 values, but "a" has 2"#)) {
      try p.addNumber("b", units: [1, 2, 3], scale: 0)
    }
    #expect(throws: ClusteringError.invalidProperties(#"property "c": point 1 has code 2, but the table holds 2 values"#)) {
      try p.addCategory("c", codes: [0, 2], values: ["x", "y"])
    }
    #expect(throws: ClusteringError.invalidProperties(#"property "d": scale 10 is not in 0...9"#)) {
      try p.addNumber("d", units: [1, 2], scale: 10)
    }
    #expect(p.names == ["a"])
  }

  /// A number's units are the caller's array, not a copy, and so are a
  /// category's codes whose table needs four bytes a code; a smaller
  /// table's codes are narrowed to one or two bytes, a missing value to
  /// the width's greatest.
  @Test func columnsShareTheCallersArraysOrNarrowTheCodes() throws {
    let units: [Int64] = [1, 2, 3], codes: [UInt32] = [0, .max, 0], wide: [UInt32] = [65_535, .max, 3]
    var p = PointProperties()
    try p.addNumber("n", units: units, scale: 1)
    try p.addCategory("c", codes: codes, values: ["v"])
    try p.addCategory("w", codes: wide, values: (0...65_535).map { "v\($0)" })
    guard case .number(_, let heldUnits, _) = p.columns[0], case .category(_, .bytes(let narrow), _) = p.columns[1],
      case .category(_, .words(let heldWide), _) = p.columns[2]
    else {
      Issue.record("columns of the wrong kind or width")
      return
    }
    #expect(heldUnits.withUnsafeBufferPointer { $0.baseAddress } == units.withUnsafeBufferPointer { $0.baseAddress })
    #expect(narrow == [0, .max, 0])
    #expect(heldWide.withUnsafeBufferPointer { $0.baseAddress } == wide.withUnsafeBufferPointer { $0.baseAddress })
  }

  /// A category's codes take a byte for a table of at most 255 values,
  /// two for at most 65,535, else four (the width's greatest is missing);
  /// each reads back as given, and the properties count those bytes.
  @Test(arguments: [(255, 1), (256, 2), (65_535, 2), (65_536, 4)])
  func aCategorysCodesTakeTheNarrowestWidth(values: Int, width: Int) throws {
    // every code, the last and a missing value
    let codes = (0..<UInt32(values)).map { $0 } + [.max, UInt32(values - 1), .max]
    var p = PointProperties()
    let table = (0..<values).map { "v\($0)" }
    try p.addCategory("c", codes: codes, values: table)
    guard case .category(_, let held, _) = p.columns[0] else {
      Issue.record("not a category")
      return
    }
    #expect(held.width == width)
    #expect((0..<codes.count).map { held.code(at: $0) } == codes)
    let tableBytes = table.reduce(0) { $0 + $1.utf8.count + 16 }
    #expect(p.bytes == codes.count * width + tableBytes)
    // coded from the values, the same width
    var q = PointProperties()
    try q.addCategory("c", values: codes.map { $0 == .max ? nil : table[Int($0)] })
    guard case .category(_, let coded, _) = q.columns[0] else { return }
    #expect(coded.width == width && (0..<codes.count).map { coded.code(at: $0) } == codes)
  }

  /// A filter on a category of each width keeps the points the rule
  /// keeps: the last code of the table, several codes, and never a
  /// missing value (the width's greatest).
  @Test(arguments: [254, 255, 256, 65_535, 65_536])
  func aFilterOnEachWidthKeepsThePointsTheRuleKeeps(values: Int) throws {
    var g = SplitMix64(seed: UInt64(values))
    let n = 3_000
    let drawn: [Int?] = (0..<n).map { k in
      k % 7 == 0 ? nil : k % 5 == 0 ? values - 1 : g.nextInt(below: values)
    }
    var p = PointProperties()
    try p.addCategory("c", values: drawn.map { $0.map { "v\($0)" } })
    let points = Fixtures.clustered(n, seed: UInt64(values))
    var clusterer = try Clusterer<CellTree>(points: points)
    for asked in [[values - 1], [0, values - 1, values / 2]] {
      let text = "c in (" + asked.map { "v\($0)" }.joined(separator: ", ") + ")"
      let query = try PropertyQuery(filter: PointFilter(parsing: text), properties: p)
      let expected = (0..<n).filter { drawn[$0].map(asked.contains) ?? false }.map(Int32.init)
      #expect((0..<n).filter { query.matches(Int32($0)) }.map(Int32.init) == expected, "\(text)")
      var ids = (0..<Int32(n)).reversed().map { $0 }
      query.retainMatching(&ids)
      #expect(ids == expected.reversed(), "\(text)")
      // the cell tree's walk, from its summaries by node or by value
      var markers: [ClusterMarker] = [], values: [AggregateValue] = []
      clusterer._walkMixedLimit = 0
      for zoom in [1, 4] {
        let area = VisibleArea(zoom: zoom, rect: .world)
        try clusterer.cluster(area, strategy: .aggregate, query: query, into: &markers, aggregates: &values)
        #expect(markers == (try ReferenceFiltering.markers(points, passing: expected.map(Int.init), area: area)),
                "\(text) zoom \(zoom)")
      }
    }
  }
}
