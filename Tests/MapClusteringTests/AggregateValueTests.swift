import Testing
@testable import MapClustering

/// Aggregates per marker (issue 43, item 3): `sum`, `min` and `max` of a
/// number column, exact (sums in 128 bits), written with the column's
/// scale, zero without a sign, empty when no point has a value.
@Suite struct AggregateValueTests {
  /// The aggregates of the points `ids` all in one cell.
  private func aggregates(
    _ units: [Int64], scale: Int, _ asked: [ClusterAggregate], ids: [Int32]? = nil
  ) throws -> [AggregateValue] {
    var p = PointProperties()
    try p.addNumber("x", units: units, scale: scale)
    let query = try PropertyQuery(aggregates: asked, properties: p)
    let ids = ids ?? (0..<Int32(units.count)).map { $0 }
    var totals = [_FieldTotals](repeating: _FieldTotals(), count: query._sourceCount)
    let slots = [Int32](repeating: 0, count: ids.count)
    ids.withUnsafeBufferPointer { i in
      slots.withUnsafeBufferPointer { s in
        totals.withUnsafeMutableBufferPointer { query._add(i, slots: s, into: $0) }
      }
    }
    var values: [AggregateValue] = []
    totals.withUnsafeBufferPointer { query._appendValues($0, slot: 0, into: &values) }
    return values
  }

  private func texts(_ units: [Int64], scale: Int, ids: [Int32]? = nil) throws -> [String] {
    try aggregates(units, scale: scale, [.sum("x"), .min("x"), .max("x")], ids: ids).map(\.description)
  }

  @Test func writtenWithTheColumnsScale() throws {
    #expect(try texts([12345, 5], scale: 2) == ["123.50", "0.05", "123.45"])
    #expect(try texts([-7], scale: 2) == ["-0.07", "-0.07", "-0.07"])
    #expect(try texts([3, 4], scale: 0) == ["7", "3", "4"])
    #expect(try texts([1, -1], scale: 9) == ["0.000000000", "-0.000000001", "0.000000001"])
  }

  /// Zero has no sign, however it was reached.
  @Test func zeroHasNoSign() throws {
    #expect(try texts([0], scale: 2) == ["0.00", "0.00", "0.00"])
    #expect(try texts([-5, 5], scale: 1) == ["0.0", "-0.5", "0.5"])
    #expect(try texts([.max, -.max], scale: 0) == ["0", "-9223372036854775807", "9223372036854775807"])
  }

  /// A marker none of whose points has a value has empty aggregates.
  @Test func emptyWithoutValues() throws {
    let values = try aggregates([.min, .min, 4], scale: 1, [.sum("x"), .min("x")], ids: [0, 1])
    #expect(values.map(\.description) == ["", ""])
    #expect(values.map(\.value) == [nil, nil])
    // missing values are skipped, not counted as zero
    #expect(try texts([.min, -3, .min], scale: 1) == ["-0.3", "-0.3", "-0.3"])
  }

  /// Sums beyond 64 bits are exact: 128 bits hold any sum of 2^31 values.
  @Test func sumsBeyondSixtyFourBitsAreExact() throws {
    #expect(try texts([.max, .max], scale: 0)[0] == "18446744073709551614")
    #expect(try texts([.max, .max, 2], scale: 2)[0] == "184467440737095516.16")
    #expect(try texts(Array(repeating: .max, count: 1000), scale: 0)[0] == "9223372036854775807000")
    #expect(try texts(Array(repeating: -.max, count: 3), scale: 0)[0] == "-27670116110564327421")
    #expect(try texts(Array(repeating: -.max, count: 4096), scale: 9)[0] == "-37778931862957.161705472")
    // past 2^64 and back, through a carry either way
    #expect(try texts([.max, .max, .max, -.max, -.max, -.max, 1], scale: 0)[0] == "1")
  }

  @Test func valueIsTheNearestDouble() throws {
    let v = try aggregates([12345, 5], scale: 2, [.sum("x"), .min("x")])
    #expect(v.map(\.value) == [123.5, 0.05])
    let big = try aggregates([.max, .max], scale: 0, [.sum("x")])
    #expect(big[0].value == 18446744073709551614.0)
    let negative = try aggregates([-.max, -.max, -.max], scale: 0, [.sum("x")])
    #expect(negative[0].value == -27670116110564327421.0)
  }

  /// Several aggregates of one column read it once; each keeps its order.
  @Test func aggregatesComeInTheOrderAsked() throws {
    var p = PointProperties()
    try p.addNumber("a", units: [1, 2], scale: 0)
    try p.addNumber("b", units: [10, 30], scale: 1)
    let query = try PropertyQuery(aggregates: [.max("b"), .sum("a"), .min("b"), .sum("b")], properties: p)
    #expect(query._sourceCount == 2)
    #expect(query.outputs.map(\.source) == [0, 1, 0, 0])
  }

  @Test func anAggregateNeedsANumberColumn() throws {
    var p = PointProperties()
    try p.addCategory("chain", values: ["a"])
    try p.addNumber("price", units: [1], scale: 0)
    #expect(throws: ClusteringError.invalidFilter(#"sum:chain: "chain" is a category: sum needs a number"#, position: nil)) {
      try PropertyQuery(aggregates: [.sum("chain")], properties: p)
    }
    #expect(throws: ClusteringError.invalidFilter(
      #"max:prise: no property called "prise" (the points have "chain", "price")"#, position: nil)) {
      try PropertyQuery(aggregates: [.max("prise")], properties: p)
    }
  }
}
