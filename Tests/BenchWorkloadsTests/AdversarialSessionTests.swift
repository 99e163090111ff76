import BenchFormats
import MapClustering
import SpatialIndexes
import Testing
import _SpatialTestSupport

@testable import BenchWorkloads

/// `bench verify`'s adversarial session: the same steps from the same seed,
/// a bounded size, and the hostile spots of the data it is given.
@Suite struct AdversarialSessionTests {
  /// Clustered points with the hazards: duplicates at (60, −180)
  /// spread through the file, points at +180°, off the map, at a pole.
  static let points: [Point] = {
    var points = Fixtures.clustered(3000, seed: 21)
    for i in stride(from: 7, to: points.count, by: 50) { points[i] = Point(x: -180, y: 60) }
    points += [Point(x: 180, y: -17), Point(x: 180, y: 89), Point(x: 10, y: 88), Point(x: 0, y: 90)]
    return points
  }()

  static let steps = AdversarialSession.steps(points: points, count: 120, seed: 3)

  @Test func theSameSeedGivesTheSameSteps() {
    let again = AdversarialSession.steps(points: Self.points, count: 120, seed: 3)
    let other = AdversarialSession.steps(points: Self.points, count: 120, seed: 4)
    #expect(again.rects == Self.steps.rects && again.areas == Self.steps.areas && again.taps == Self.steps.taps)
    #expect(again.positions == Self.steps.positions && again.reaches == Self.steps.reaches && again.moves == Self.steps.moves)
    #expect(other.rects != Self.steps.rects && other.positions != Self.steps.positions)
  }

  @Test func itIsBounded() {
    let s = Self.steps
    #expect(s.count == 120 && s.rects?.count == 120 && s.taps?.count == 120 && s.moves?.count == 120)
    #expect(s.moves!.allSatisfy { $0.count <= AdversarialSession.movesPerFrame })
    let dense = Double(Clusterer<LinearScanIndex>.maximumDenseCells)
    for area in s.areas! {
      let cells = HostileBoxes.cells(of: HostileBoxes.box(of: area), zoom: area.zoom)
      #expect(cells <= AdversarialSession.maximumCells || cells > dense, "\(area): \(cells) cells")
    }
    // a large dataset is surveyed from a sample: the steps stay as many
    let many = AdversarialSession.steps(points: Fixtures.uniform(200_000, seed: 1), count: 30, seed: 3)
    #expect(many.count == 30 && many.moves!.allSatisfy { $0.count <= AdversarialSession.movesPerFrame })
  }

  /// A box from just west of +180° to −180° shows two columns: the
  /// world's last, and column 0, where its points at ±180° go. Counting it
  /// as three (each rectangle's own) once made a generator take a box of
  /// two million dense cells for a sparse one: a step that asked a range
  /// query per cell ran for seconds (fuzz seed 42, case 401).
  @Test func aBoxOnTheAntimeridianCountsTheColumnsAStepShows() {
    let box = GeoQuery(minLat: -85, minLon: 179.9999999, maxLat: 85, maxLon: -180)
    let zoom = 18, table = ClusterCellTable.default
    let s = WebMercator.scale(zoom: zoom), c = table.cellSize(zoom: zoom)
    func row(_ lat: Double) -> Int { MapCells.index(WebMercator.y(latitude: lat), scale: s, cellSize: c, inverse: 1 / c) }
    let rows = row(-85) - row(85) + 1
    #expect(HostileBoxes.cells(of: box, zoom: zoom) == Double(2 * rows))
    // below the dense buffer, so the generator must lower the zoom instead
    let dense = Clusterer<LinearScanIndex>.maximumDenseCells
    #expect(2 * rows <= dense)
    let cheap = HostileBoxes.cheapZoom(for: box, near: zoom, maximumCells: AdversarialSession.maximumCells, sparse: true)
    let cells = HostileBoxes.cells(of: box, zoom: cheap)
    #expect(cells <= AdversarialSession.maximumCells || cells > Double(dense), "zoom \(cheap): \(cells) cells")
  }

  /// Every hazard the session promises comes up in its steps.
  @Test func itLandsOnTheHostileSpots() {
    let s = Self.steps, points = Self.points
    let taps = s.taps!.map(\.coordinate), positions = s.positions!, rects = s.rects!
    let onPoints = Set(points)
    #expect(positions.contains { onPoints.contains($0) }, "a search from exactly a point")
    #expect(positions.contains { $0 == Point(x: -180, y: 60) }, "a search from the duplicates")
    #expect(positions.contains { abs($0.x) == HostileSpots.besideAntimeridian && points.contains(Point(x: $0.x > 0 ? -180 : 180, y: $0.y)) },
            "a search at ±179.9999999 beside a point at ∓180")
    #expect(taps.contains { abs($0.x) == HostileSpots.besideAntimeridian })
    #expect(taps.contains { onPoints.contains($0) })
    #expect(positions.contains { abs($0.y) == 90 } && taps.contains { abs($0.y) == WebMercator.maxLatitude })
    #expect(rects.contains { $0.count == 2 }, "a box across the antimeridian")
    #expect(rects.contains { r in r.count == 1 && r[0].minX != r[0].maxX && points.contains { $0.x == r[0].minX || $0.x == r[0].maxX } },
            "a box whose edge passes through a point")
    #expect(rects.contains { $0.contains { $0.minX == $0.maxX || $0.minY == $0.maxY } }, "a box of no width or height")
    #expect(rects.contains { $0.contains { $0.maxY == 90 || $0.minY == -90 } }, "a box over a pole")
    #expect(s.reaches!.contains(0) && s.reaches!.contains { $0 > 0 && $0 < .infinity })
    let exactly = zip(positions, s.reaches!).contains { p, r in r > 0 && points.contains { GreatCircle.distance(p, $0) == r } }
    #expect(exactly, "a search that stops exactly at a point's distance")
    let moves = s.moves!.flatMap { $0 }
    #expect(moves.contains { m in abs(m.to.x) == 180 || abs(m.to.x) == HostileSpots.besideAntimeridian })
    #expect(moves.contains { !WebMercator.latitudeRange.contains($0.to.y) }, "a move off the map")
    #expect(s.moves!.allSatisfy { frame in zip(frame, frame.dropFirst()).allSatisfy { $0.id < $1.id } }, "a frame in id order")
  }

  /// An index wrong only on a box's east edge agrees with the linear scan
  /// over the map session and not over the adversarial one.
  @Test func itCatchesWhatTheMapSessionMisses() throws {
    let points = Fixtures.clustered(2000, seed: 8)
    let map = MapSteps(session: ViewportSession(points: points, parameters: SessionParameters(steps: 120, seed: 8)))
    let adversarial = AdversarialSession.steps(points: points, count: 120, seed: 8)
    func differing(_ steps: MapSteps) throws -> Int {
      let data = WorkloadData(points: points, steps: steps)
      let choices = [WorkloadChoice(ViewportWorkload.self)]
      let reference = try Verification.referenceAnswers(data, workloads: choices)
      var checker = Verification.Checker(index: EdgeShyIndex.name, reference: reference)
      var bind = BindWorkload(index: try EdgeShyIndex(points: points), data: data, variants: [""], visitor: checker)
      _ = try withWorkloadType(named: ViewportWorkload.name, &bind)
      checker = bind.visitor
      return checker.results.reduce(0) { $0 + $1.differingSteps }
    }
    #expect(try differing(map) == 0)
    #expect(try differing(adversarial) > 0)
  }
}
