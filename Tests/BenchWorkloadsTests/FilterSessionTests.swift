import BenchFormats
import MapClustering
import SpatialIndexes
import Testing

@testable import BenchWorkloads

/// The filter session (the `filters` workload): its steps come from the
/// seed, each step's filter is applied, and every index agrees with the
/// linear scan step by step.
@Suite struct FilterSessionTests {
  static func hotels(n: Int = 2_000) throws -> (FilterSession, LoadedDataset) {
    let controls = try #require(FilterSession.forDataset("hotels"))
    let d = try Datasets.load("hotels", counts: [n], seed: 5, properties: controls.requests)[0]
    return (controls, d)
  }

  /// The same seed draws the same filters; another seed others. The first
  /// step shows every point, later ones toggle chips of both fields and
  /// move the slider.
  @Test func theSameSeedDrawsTheSameSteps() throws {
    let (controls, d) = try Self.hotels()
    let a = controls.steps(200, properties: d.properties, seed: 11)
    #expect(a == controls.steps(200, properties: d.properties, seed: 11))
    #expect(a != controls.steps(200, properties: d.properties, seed: 12))
    #expect(a.count == 200 && a[0] == nil)
    let texts = a.compactMap { $0 }
    #expect(texts.contains { $0.contains("chain in (") })
    #expect(texts.contains { $0.contains("stars in (") })
    #expect(texts.contains { $0.contains("price <= ") })
    // the filter changes on some steps and stays on others
    let changes = zip(a, a.dropFirst()).count { $0 != $1 }
    #expect(changes > 40 && changes < 180)
  }

  /// A chip's value is quoted as a filter needs: a category holding a
  /// comma, a quote or a space is read back as one value.
  @Test func chipsWithCommasAndQuotesAreReadBack() throws {
    let odd = ["Inn, The", "say \"hi\"", "and", "plain"]
    let column = CategoryColumn(name: "brand", values: (0..<400).map { odd[$0 % odd.count] as String? })
    let properties = PropertyTable(columns: [.category(column)])
    let controls = FilterSession(chips: ["brand"], slider: nil, aggregates: [])
    let steps = controls.steps(100, properties: properties, seed: 3)
    for text in steps.compactMap({ $0 }) {
      let filter = try PointFilter(parsing: text)
      let query = try PropertyQuery(filter: filter, aggregates: [], properties: properties.pointProperties())
      // each point passes exactly when its value is among the chips on
      let listed = odd.filter { text.contains(FilterSession.quoted($0)) }
      for i in 0..<8 { #expect(query.matches(Int32(i)) == listed.contains(odd[i % odd.count]), "\(text)") }
    }
    #expect(FilterSession.quoted("Inn, The") == "\"Inn, The\"")
    #expect(FilterSession.quoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
  }

  /// Every index and strategy answers each step as the linear scan does,
  /// and the linear scan's answer to a step is the cluster workload's with
  /// that step's filter given as `--filter`.
  @Test func everyIndexAgreesWithTheLinearScanOnEveryStep() throws {
    let (controls, d) = try Self.hotels()
    let steps = MapSteps(session: ViewportSession(points: d.points, parameters: SessionParameters(steps: 40, seed: 9)))
    let filter = try controls.compiled(d.properties, steps: steps.count, seed: 9)
    let results = try Verification.run(
      dataset: d, steps: steps, indexes: allIndexTypes.map { $0.name }, sweeps: [],
      workloads: [WorkloadChoice(FilterSessionWorkload.self)], sessionFilter: filter)
    #expect(results.count >= allIndexTypes.count * 3 - 1)
    for r in results { #expect(r.agrees && r.steps == 40, "\(r)") }

    let session = try #require(
      Verification.referenceAnswers(
        WorkloadData(points: d.points, steps: steps, sessionFilter: filter),
        workloads: [WorkloadChoice(FilterSessionWorkload.self)])[FilterSessionWorkload.name] as? [ClusterAnswer])
    let texts = controls.steps(steps.count, properties: d.properties, seed: 9)
    var filteredSteps = 0
    for (k, text) in texts.enumerated() where k % 4 == 0 {
      let one = try RunFilter(filter: PointFilter(parsing: text ?? ""), aggregates: controls.aggregates)
        .compiled(d.properties, steps: steps.count)
      let cluster = try #require(
        Verification.referenceAnswers(
          WorkloadData(points: d.points, steps: steps, filter: one),
          workloads: [WorkloadChoice(ClusterWorkload.self)])[ClusterWorkload.name] as? [ClusterAnswer])
      #expect(session[k] == cluster[k], "step \(k): \(text ?? "")")
      if text != nil { filteredSteps += 1 }
    }
    #expect(filteredSteps >= 5)
    // aggregates are reported: min:price on every marker
    #expect(session.allSatisfy { $0.aggregates.count == $0.markers.count })
  }

  /// Each bundled dataset's controls name columns it has; other data have none.
  @Test func theControlsNameTheDatasetsColumns() throws {
    for name in ["places", "airports", "zipcodes"] {
      let controls = try #require(FilterSession.forDataset(name))
      let bundled = try #require(BundledDataset(rawValue: name))
      let header = try #require(try PointFileFormat.propertyNames(inFile: bundled.path))
      for r in controls.requests { #expect(header.contains(r.name), "\(name): \(r.name)") }
    }
    #expect(Set(HotelProperties.names).isSuperset(of: try #require(FilterSession.forDataset("hotels")).requests.map(\.name)))
    #expect(FilterSession.forDataset("uniform") == nil)
    #expect(FilterSession.forDataset("points.csv") == nil)
  }
}
