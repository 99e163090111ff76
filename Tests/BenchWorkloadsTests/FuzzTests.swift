import BenchFormats
import MapClustering
import SpatialIndexes
import Testing

@testable import BenchWorkloads

/// The fuzzer itself: its cases come from the seed alone, they are hostile
/// as promised, a wrong index is found and shrunk to a few points, and a
/// failure prints as a test.
@Suite struct FuzzTests {
  @Test func theSameSeedAndNumberGiveTheSameCase() {
    for number in 0..<40 {
      let a = FuzzCaseGenerator.fuzzCase(seed: 99, number: number)
      #expect(a == FuzzCaseGenerator.fuzzCase(seed: 99, number: number), "case \(number)")
    }
    // drawn in any order: case 7 does not depend on cases 0...6
    let seventh = FuzzCaseGenerator.fuzzCase(seed: 99, number: 7)
    _ = (0..<7).map { FuzzCaseGenerator.fuzzCase(seed: 99, number: $0) }
    #expect(FuzzCaseGenerator.fuzzCase(seed: 99, number: 7) == seventh)
    let other = (0..<40).filter {
      FuzzCaseGenerator.fuzzCase(seed: 99, number: $0) != FuzzCaseGenerator.fuzzCase(seed: 100, number: $0)
    }
    #expect(other.count >= 38, "another seed, other cases")
  }

  /// Over a few hundred cases every hostile feature the fuzzer promises
  /// turns up.
  @Test func theCasesAreHostile() {
    let cases = (0..<400).map { FuzzCaseGenerator.fuzzCase(seed: 1, number: $0) }
    let points = cases.flatMap(\.points), steps = cases.flatMap(\.steps)
    let map = WebMercator.maxLatitude
    func largestRun(_ c: FuzzCase) -> Int {
      Dictionary(grouping: c.points) { $0 }.values.map(\.count).max() ?? 0
    }
    #expect(cases.contains { $0.points.isEmpty })
    #expect(cases.allSatisfy { $0.points.count <= FuzzCaseGenerator.maximumPoints })
    #expect(cases.contains { largestRun($0) >= 1000 }, "duplicates by the thousand")
    #expect(points.contains { $0.x == 180 } && points.contains { $0.x == -180 })
    #expect(points.contains { $0.x == HostileSpots.besideAntimeridian || $0.x == -HostileSpots.besideAntimeridian })
    #expect(points.contains { $0.y == 90 } && points.contains { $0.y == -90 })
    #expect(points.contains { abs($0.y) > map && abs($0.y) < 90 }, "off the map")
    #expect(points.contains { $0.y == map } && points.contains { $0.y == map.nextUp })
    #expect(steps.contains { $0.box.crossesAntimeridian })
    #expect(steps.contains { $0.box.minLon == $0.box.maxLon }, "zero-width boxes")
    #expect(steps.contains { $0.box.maxLon == 180 && !$0.box.crossesAntimeridian })
    #expect(steps.contains { ($0.box.zoom ?? 0) >= 20 } && steps.contains { $0.box.zoom == 0 })
    #expect(steps.contains { $0.tapZoom >= 20 })
    #expect(steps.contains { $0.reach == 0 } && steps.contains { $0.reach > 0 && $0.reach < .infinity })
    #expect(cases.contains { c in c.steps.contains { s in c.points.contains(s.position) } }, "searches from a point")
    #expect(cases.contains { c in c.steps.contains { s in s.box.minLon != s.box.maxLon && c.points.contains { $0.x == s.box.minLon } } },
            "box edges through points")
    #expect(cases.contains { $0.ks.contains(0) } && cases.contains { $0.ks.contains($0.points.count + 1) })
    #expect(steps.contains { s in s.moves.contains { abs($0.to.x) == 180 || abs($0.to.x) == HostileSpots.besideAntimeridian } })
    #expect(cases.contains { $0.parameters[BucketQuadtree.name]?.contains { $0.key == "bounds" && $0.values[0].contains(":") } == true })
    #expect(Set(cases.flatMap { $0.parameters.keys }) == Set(allIndexTypes.map { $0.name }).subtracting([LinearScanIndex.name]))
  }

  /// A deliberately wrong index is found within a few cases, and its
  /// failure shrinks to at most two points, one step, one k.
  @Test func aPlantedWrongIndexShrinksToATinyCase() throws {
    var check = FuzzCheck(extraIndexes: [EdgeShyIndex.self])
    check.indexes = [EdgeShyIndex.name]
    let run = try #require(check.firstFailureShrunk(seed: 5), "the fuzzer missed an index that drops points on east edges")
    let (c, failure) = run.found, (small, smallFailure) = run.small
    #expect(failure.signature.kind == .index && failure.signature.index == EdgeShyIndex.name, "\(failure)")
    #expect(smallFailure.signature == failure.signature)
    #expect(small.points.count <= 2, "\(small.points)")
    #expect(small.steps.count == 1)
    #expect(small.ks.count <= 1)
    #expect(small.points.count < c.points.count || c.points.count <= 2)
    // what is left fails still, and for the reason planted: a point on the east edge
    var again = check
    #expect(again.failures(of: small, only: failure.signature).contains { $0.signature == failure.signature })
    let box = small.steps[0].box
    #expect(small.points.contains { $0.x == box.maxLon } || small.steps[0].moves.contains { $0.to.x == box.maxLon })
  }

  /// The work check flags a search that scans every copy on an index
  /// that promises O(k + log n), and lets it pass on one that promises to
  /// read each copy once.
  @Test func aScanOfIdenticalPointsIsFlaggedWhereItBreaksAPromise() {
    var check = FuzzCheck(extraIndexes: [EdgeShyIndex.self])
    check.indexes = [EdgeShyIndex.name]
    let failures = DegenerateWork.failures(check, logarithmic: [EdgeShyIndex.name])
    #expect(failures.contains { $0.signature == .init(kind: .work, index: EdgeShyIndex.name, workload: "nearest", variant: "k=1") })
    #expect(failures.allSatisfy { $0.detail.contains("16384 points") })
    #expect(DegenerateWork.failures(check, logarithmic: []).isEmpty)
  }

  /// Clustering copies of one place by `aggregate` adds each run of copies
  /// whole: on every index but the linear scan the nodes visited and the
  /// points tested grow within the logarithmic limit from 1,024 to 16,384
  /// copies, over a view at each zoom band, beside the antimeridian too. The
  /// cell tree and the grid read a crowded leaf or cell point by point
  /// before, and a million copies took 22 ms a view.
  @Test func everyIndexClustersCopiesRunByRun() {
    let failures = DegenerateWork.failures(FuzzCheck()).filter { $0.signature.workload == ClusterWorkload.name }
    #expect(failures.isEmpty, "\(failures.map { "\($0.signature.index): \($0.detail)" })")
  }

  /// A failure prints as a Swift Testing test that calls the library as an
  /// app does, with the rule's answer; and as a bench query session.
  @Test func theRegressionTestHasTheExpectedForm() {
    let c = FuzzCase(
      points: [Point(x: 180, y: 10), Point(x: 3, y: 4)],
      steps: [FuzzCase.Step(
        box: GeoQuery(minLat: 0, minLon: 170, maxLat: 20, maxLon: 180, zoom: 3), tap: Point(x: 0, y: 0),
        tapZoom: 5, position: Point(x: 0, y: 0))])
    let failure = FuzzFailure(
      .init(kind: .index, index: EdgeShyIndex.name, workload: ViewportWorkload.name, variant: ""), step: 0,
      detail: "0 ids, linear scan 1; missing [0], extra []")
    let test = RegressionTest(
      fuzzCase: c, failure: failure, seed: 5, caseNumber: 12, extraIndexes: [EdgeShyIndex.self])
    #expect(test.swift == """
      /// Found by `bench fuzz --seed 5` (case 12), shrunk.
      /// edgeshy viewport differs from the linear scan: 0 ids, linear scan 1; missing [0], extra []
      @Test func fuzzEdgeshyViewportSeed5Case12() throws {
        let points: [Point] = [
          Point(x: 180.0, y: 10.0),
          Point(x: 3.0, y: 4.0),
        ]
        let index = try EdgeShyIndex(points: points)
        var ids: [Int32] = []
        let rects = [Rect(minX: 170.0, minY: 0.0, maxX: 180.0, maxY: 20.0)]
        for rect in rects { index.query(in: rect, into: &ids) }
        #expect(ids.sorted() == [0])
      }

      """)
    #expect(test.benchQuery == """
      cat > points.csv <<'EOF'
      lat,lon
      10.0,180.0
      4.0,3.0
      EOF
      cat > queries.csv <<'EOF'
      min_lat,min_lon,max_lat,max_lon,zoom
      0.0,170.0,20.0,180.0,3
      EOF
      bench query --workload viewport --index edgeshy --points points.csv --queries queries.csv
      # the documented rule's answer:
      # query,count,id_sum
      # 0,1,0

      """)
  }

  /// The tests printed for the linear scan in `FuzzPrintedTests.swift` are
  /// what the printer writes today, so they show that its output compiles
  /// and passes.
  @Test(arguments: FuzzPrintedTests.cases)
  func thePrintedTestsAreThePrintersOutput(name: String) throws {
    let (c, failure) = try #require(FuzzPrintedTests.fuzzCase(named: name))
    let printed = RegressionTest(fuzzCase: c, failure: failure, seed: 3, caseNumber: 0).swift
    let source = try String(contentsOfFile: FuzzPrintedTests.sourcePath, encoding: .utf8)
    #expect(source.contains(printed), "\(printed)")
  }

  @Test func everyWorkloadHasARule() {
    for name in WorkloadCatalog.names { #expect(AnswerRules.rule(for: name) != nil, "\(name)") }
    #expect(AnswerRules.all.count == WorkloadCatalog.all.count)
  }
}
