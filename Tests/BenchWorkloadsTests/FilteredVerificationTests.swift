import BenchFormats
import MapClustering
import SpatialIndexes
import Testing
import _SpatialTestSupport

@testable import BenchWorkloads

/// `bench verify` with filters: every index and strategy against the linear
/// scan with the same filter, the linear scan's filtered answers against the
/// reference's (``ReferenceFiltering``), and the default checks of each
/// dataset naming properties it has.
@Suite struct FilteredVerificationTests {
  static let n = 1_500

  static func hotels() throws -> LoadedDataset {
    try Datasets.load(
      "hotels", counts: [n], seed: 5, properties: [.number("stars"), .number("price"), .category("chain")])[0]
  }

  static func reference(_ d: LoadedDataset) throws -> ReferenceProperties {
    var r = ReferenceProperties()
    for name in ["stars", "price"] {
      let c = try #require(d.properties.decimal(name))
      r.numbers.append((name, c.units, c.scale))
    }
    let chain = try #require(d.properties.category("chain"))
    r.categories.append(("chain", (0..<chain.count).map { chain.value(at: $0) }))
    return r
  }

  /// Every index, strategy and tap way agrees with the filtered linear
  /// scan, whose markers and aggregates are the reference's on the passing
  /// points, and whose viewport lists only them.
  @Test func everyIndexAgreesWithTheFilteredLinearScan() throws {
    let d = try Self.hotels()
    let steps = MapSteps(session: ViewportSession(points: d.points, parameters: SessionParameters(steps: 30, seed: 8)))
    let check = try FilterCheck("chain in (chain-1, chain-3) and price <= 200", aggregates: ["sum:price", "min:stars"])
    let filter = try check.filter.compiled(d.properties, steps: steps.count)
    let types: [any Workload.Type] = [ViewportWorkload.self, ClusterWorkload.self, TapWorkload.self]
    let workloads = types.map { WorkloadChoice($0) }
    let results = try Verification.run(
      dataset: d, steps: steps, indexes: allIndexTypes.map { $0.name }, sweeps: [], workloads: workloads,
      filter: filter)
    #expect(results.count > allIndexTypes.count * 4)
    for r in results { #expect(r.agrees && r.steps == 30, "\(r)") }

    // the reference those results agree with is the filtered one
    let reference = try Verification.referenceAnswers(
      WorkloadData(points: d.points, steps: steps, filter: filter), workloads: workloads)
    let clusters = try #require(reference["cluster"] as? [ClusterAnswer])
    let viewports = try #require(reference["viewport"] as? [[Int32]])
    let p = try Self.reference(d)
    let clauses: [ReferenceClause] = [.oneOf("chain", ["chain-1", "chain-3"]), .atMost("price", "200")]
    let passing = d.points.indices.filter { ReferenceFiltering.passes($0, clauses, p) }
    #expect(passing.count > 100 && passing.count < d.count / 2)
    let kept = Set(passing)
    var markers = 0
    for (k, area) in try #require(steps.areas).enumerated() {
      let expected = try ReferenceFiltering.markers(d.points, passing: passing, area: area)
      #expect(clusters[k].markers == expected, "step \(k)")
      let texts = ReferenceFiltering.aggregates(
        d.points, passing: passing, area: area, markers: expected, asked: [.sum("price"), .min("stars")], p)
      #expect(clusters[k].aggregates.map { $0.description } == texts, "step \(k)")
      #expect(viewports[k].allSatisfy { kept.contains(Int($0)) })
      markers += expected.count
    }
    #expect(markers > 30)
  }

  /// A filter that changes the answers is seen: the unfiltered reference
  /// differs from the filtered linear scan's.
  @Test func aFilteredAnswerDiffersFromTheUnfilteredOne() throws {
    let d = try Self.hotels()
    let steps = MapSteps(session: ViewportSession(points: d.points, parameters: SessionParameters(steps: 10, seed: 8)))
    let filter = try FilterCheck("stars >= 5").filter.compiled(d.properties, steps: steps.count)
    let unfiltered = try Verification.referenceAnswers(
      WorkloadData(points: d.points, steps: steps), workloads: [WorkloadChoice(ViewportWorkload.self)])
    var checker = Verification.Checker(index: "linear", reference: unfiltered)
    let index = try LinearScanIndex(points: d.points)
    var bind = BindWorkload(
      index: index, data: WorkloadData(points: d.points, steps: steps, filter: filter), variants: [""],
      visitor: checker)
    _ = try withWorkloadType(named: "viewport", &bind)
    checker = bind.visitor
    #expect(checker.results.count == 1 && checker.results[0].differingSteps > 0)
  }

  /// Each dataset's default checks parse and name properties it has.
  @Test(arguments: BundledDataset.allCases.map(\.rawValue) + ["hotels"])
  func theDefaultChecksNameTheDatasetsProperties(name: String) throws {
    let checks = try FilterCheck.defaults(for: name)
    #expect(!checks.isEmpty)
    let names = if let bundled = BundledDataset(rawValue: name) {
      try #require(try PointFileFormat.propertyNames(inFile: bundled.path))
    } else {
      HotelProperties.names
    }
    for c in checks { #expect(c.filter.unknownName(among: names) == nil, "\(name): \(c.text)") }
    #expect(FilterCheck.requests(checks).allSatisfy { names.contains($0.name) })
    #expect(try FilterCheck.defaults(for: "uniform").isEmpty)
  }
}
