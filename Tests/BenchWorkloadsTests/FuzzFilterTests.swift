import BenchFormats
import MapClustering
import SpatialIndexes
import Testing

@testable import BenchWorkloads

/// The fuzzer's filters and aggregates: cases carry hostile properties
/// and draw their own filters, every index passes on them, and a wrong
/// aggregate is caught.
@Suite struct FuzzFilterTests {
  /// Over a few hundred cases every hostile feature of the properties the
  /// fuzzer promises turns up.
  @Test func theCasesCarryHostileProperties() throws {
    let cases = (0..<400).map { FuzzCaseGenerator.fuzzCase(seed: 1, number: $0) }
    let filtered = cases.filter(\.filters)
    #expect(filtered.count > 150 && filtered.count < 350, "two cases in three have properties")
    let numbers = filtered.flatMap { c in c.properties.columns.compactMap { col -> DecimalColumn? in
      if case .decimal(let d) = col { return d }
      return nil
    } }
    let units = numbers.flatMap(\.units)
    #expect(units.contains(DecimalColumn.missing), "missing values")
    #expect(units.contains(.max) && units.contains(.min + 1), "the extremes a column holds")
    #expect(units.contains { $0 < 0 } && units.contains(0))
    #expect(Set(numbers.map(\.scale)) == [0, 2, 9])
    #expect(filtered.contains { c in
      c.properties.columns.contains { col in col.kind == .category && (0..<col.count).contains { col.text(at: $0) == "a,b" } }
    }, "a category value that needs quoting")
    // copies of one place with different values
    #expect(filtered.contains { c in
      guard case .decimal(let d) = c.properties.columns[0] else { return false }
      return Dictionary(grouping: c.points.indices) { c.points[$0] }.values.contains { ids in
        Set(ids.map { d.units[$0] }).count > 1
      }
    })
    let texts = filtered.flatMap { c in [c.filterText] + c.steps.compactMap(\.filter) }
    for op in [" >= ", " <= ", " = ", " in ("] { #expect(texts.contains { $0.contains(op) }, "\(op)") }
    #expect(texts.contains { $0.contains("-0.00") || $0.contains("= -0") })
    #expect(texts.contains { $0.contains("99999999999999999999") }, "a bound beyond every value")
    #expect(filtered.contains { $0.filter.isEmpty } && filtered.contains { $0.filter.count == 3 })
    #expect(filtered.contains { $0.aggregates.isEmpty } && filtered.contains { $0.aggregates.count >= 3 })
    #expect(filtered.contains { c in c.steps.contains { $0.filter == nil } && c.steps.contains { $0.filter != nil } })
    // filters that keep nothing, and sums beyond 64 bits, in the rule's answers
    var keepsNothing = false, wide = false
    for c in filtered where !c.points.isEmpty {
      let data = try c.workloadData()
      let answers = ClusterRule.answers(data, variant: "")
      let unfiltered = ClusterRule.answers(WorkloadData(points: c.points, steps: c.mapSteps), variant: "")
      for (a, u) in zip(answers, unfiltered) where a.markers.isEmpty && !u.markers.isEmpty { keepsNothing = true }
      if answers.flatMap(\.aggregates).contains(where: Self.beyond64Bits) { wide = true }
    }
    #expect(keepsNothing, "a filter that keeps nothing in view")
    #expect(wide, "a sum beyond 64 bits")
  }

  /// Whether `a`'s units lie beyond ±(2^63 − 1).
  static func beyond64Bits(_ a: AggregateValue) -> Bool {
    let digits = String(a.description.filter(\.isNumber).drop { $0 == "0" })
    return digits.count > 19 || digits.count == 19 && digits > String(Int64.max)
  }

  /// Every index and strategy agrees with the linear scan, and it with the
  /// rules, on the filtered cases of a fixed seed.
  @Test func everyIndexPassesTheFilteredCases() {
    var check = FuzzCheck()
    var ran = 0
    for number in 0..<40 {
      let c = FuzzCaseGenerator.fuzzCase(seed: 11, number: number)
      guard c.filters, c.points.count <= 300 else { continue }
      ran += 1
      let failures = check.failures(of: c)
      #expect(failures.isEmpty, "case \(number): \(failures)")
    }
    #expect(ran >= 10)
  }

  /// An index whose filtered walk doubles each sum is found within a few
  /// cases, on the cluster and filter session workloads' `aggregate`
  /// strategy, and shrinks to a small case that fails for that reason.
  @Test func aPlantedWrongSumIsCaught() throws {
    var check = FuzzCheck(extraIndexes: [SumDoublingTree.self])
    check.indexes = [SumDoublingTree.name]
    let run = try #require(check.firstFailureShrunk(seed: 5), "the fuzzer missed an index that doubles sums")
    let failure = run.found.1, (small, smallFailure) = run.small
    #expect(failure.signature.kind == .index && failure.signature.index == SumDoublingTree.name, "\(failure)")
    #expect([ClusterWorkload.name, FilterSessionWorkload.name].contains(failure.signature.workload))
    #expect(failure.signature.variant == ClusterStrategy.aggregate.rawValue)
    #expect(failure.detail.contains("the markers agree; aggregate"), "\(failure.detail)")
    #expect(smallFailure.signature == failure.signature)
    #expect(small.points.count <= 3, "\(small.points)")
    #expect(small.steps.count == 1)
    #expect(small.aggregates.allSatisfy { if case .sum = $0 { true } else { false } } && !small.aggregates.isEmpty)
    // the printed test carries the properties and the query
    let test = RegressionTest(fuzzCase: small, failure: smallFailure, extraIndexes: [SumDoublingTree.self])
    #expect(test.swift.contains("try properties.addNumber("))
    #expect(test.swift.contains("query: query, into: &markers, aggregates: &aggregates"))
    #expect(test.benchQuery == nil)
  }

  /// The rules hold a marker's aggregates to the last unit: one unit more,
  /// a sum cut to 64 bits, an empty value for a zero, each is a difference.
  @Test func theRuleCatchesAMutatedAggregate() throws {
    let points = [Point(x: 10, y: 10), Point(x: 10, y: 10), Point(x: 10, y: 10)]
    let units: [Int64] = [.max, .max, DecimalColumn.missing]
    let c = FuzzCase(
      points: points,
      steps: [FuzzCase.Step(
        box: GeoQuery(minLat: 0, minLon: 0, maxLat: 20, maxLon: 20, zoom: 2), tap: Point(x: 10, y: 10), tapZoom: 2,
        position: Point(x: 10, y: 10), filter: "n0 >= -0.00")],
      properties: PropertyTable(columns: [.decimal(DecimalColumn(name: "n0", scale: 2, units: units))]),
      filter: ["n0 <= 99999999999999999999"], aggregates: [.sum("n0"), .min("n0"), .max("n0")])
    let data = try c.workloadData()
    let expected = try #require(ClusterRule.answers(data, variant: "").first)
    #expect(expected.markers.map(\.count) == [2])
    #expect(expected.aggregates.map(\.description) == ["184467440737095516.14", "92233720368547758.07", "92233720368547758.07"])
    func mutated(_ k: Int, _ value: AggregateValue) -> ClusterAnswer {
      var a = expected
      a.aggregates[k] = value
      return a
    }
    let low: UInt64 = 18_446_744_073_709_551_614  // 2 · (2^63 − 1)
    #expect(expected.aggregates[0] == AggregateValue(high: 0, low: low, scale: 2, isEmpty: false))
    for wrong in [
      mutated(0, AggregateValue(high: 0, low: low + 1, scale: 2, isEmpty: false)),
      mutated(0, AggregateValue(high: -1, low: low, scale: 2, isEmpty: false)),  // cut to 64 bits
      mutated(1, AggregateValue(high: 0, low: 0, scale: 2, isEmpty: true)),
      mutated(2, AggregateValue(high: 0, low: 0, scale: 2, isEmpty: false)),
    ] {
      #expect(!ClusterRule.allows(wrong, expected: expected, step: 0, data: data, variant: ""))
      #expect(!FilterSessionRule.allows(wrong, expected: expected, step: 0, data: data, variant: ""))
    }
    #expect(ClusterRule.allows(expected, expected: expected, step: 0, data: data, variant: ""))
    // and the whole check agrees with it on every index
    var check = FuzzCheck()
    #expect(check.failures(of: c).isEmpty)
  }
}
