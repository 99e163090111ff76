import SpatialIndexes
import Testing
import _SpatialTestSupport

/// Structure tests for ``GridHashIndex``: the conformance suite checks answers
/// with default parameters; these check the grid's own promises.
@Suite struct GridHashIndexTests {
  typealias Parameters = GridHashIndex.Parameters

  /// A dense grid built on several threads is the serial build, cell by
  /// cell and point by point (ids in the same order, the coordinates
  /// following them), with duplicates and points on cell edges.
  @Test(arguments: [2, 3, 8])
  func aParallelBuildIsTheSerialBuild(threads: Int) throws {
    let points = Fixtures.clustered(150_000, seed: 32) + Fixtures.identical(30_000)
      + Fixtures.lattice(steps: 100, repeats: 2, seed: 4)
    let serial = try GridHashIndex(points: points, parameters: Parameters(threads: 1))
    let parallel = try GridHashIndex(points: points, parameters: Parameters(threads: threads))
    #expect(!serial.groupOrder.isEmpty && parallel.groupOrder == serial.groupOrder)
    #expect(parallel._invariantViolations().isEmpty)
    #expect(parallel.parameterValues.contains(ParameterValue("threads", "\(threads)")))
    #expect(parallel.parameterValues.dropLast() == serial.parameterValues.dropLast(), "the same cells")
    for q in QueryFixtures.queries(for: points, count: 20, seed: 5) {
      #expect(parallel.ids(in: q) == serial.ids(in: q), "\(q)")
    }
  }

  @Test func threadsParseAndReject() throws {
    var p = Parameters()
    #expect(p.threads == nil)
    try p.set("threads", to: "3")
    #expect(p.threads == 3)
    try p.set("threads", to: "AUTO")
    #expect(p.threads == nil)
    #expect(throws: IndexError.self) { try p.set("threads", to: "0") }
    #expect(throws: IndexError.self) { try GridHashIndex(points: [], parameters: Parameters(threads: 300)) }
  }

  private func expectSound(
    _ grid: GridHashIndex, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let problems = grid._invariantViolations()
    #expect(problems.isEmpty, "\(what): \(problems)", sourceLocation: sourceLocation)
  }

  private func expectSameAnswers(
    _ grid: GridHashIndex, _ checker: IndexChecker, _ queries: [Rect], _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let problems = checker.differences(grid, queries: queries)
    #expect(problems.isEmpty, "\(what): \(problems.joined(separator: "; "))",
            sourceLocation: sourceLocation)
  }

  // MARK: Build

  @Test(arguments: [
    Parameters(storage: .sparse),
    Parameters(cellSize: 0.01, storage: .sparse),
    Parameters(cellSize: 7, storage: .dense),
    Parameters(pointsPerCell: 1),
  ])
  func fixturesWithOtherParameters(parameters: Parameters) throws {
    for fixture in Fixtures.standard() {
      let grid = try GridHashIndex(points: fixture.points, parameters: parameters)
      expectSound(grid, "\(fixture)")
      let checker = IndexChecker(points: fixture.points)
      let queries = QueryFixtures.queries(for: fixture.points, count: 24, seed: 9)
      expectSameAnswers(grid, checker, queries, "\(fixture) \(grid.label)")
    }
  }

  @Test func identicalPointsMakeOneCell() throws {
    #if DEBUG
    let n = 200_000
    #else
    let n = 1_000_000
    #endif
    let p = Point(x: 2.3522, y: 48.8566)
    let grid = try GridHashIndex(points: Fixtures.identical(n, at: p))
    #expect(grid._storedCellCount == 1)
    #expect(grid.count(in: Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)) == n)
    #expect(grid.count(in: .world) == n)
    #expect(grid.count(in: Rect(minX: p.x, minY: p.y, maxX: 3, maxY: 48.8565)) == 0)
    var sparse = Parameters(storage: .sparse)
    sparse.pointsPerCell = 1
    let hashed = try GridHashIndex(points: Fixtures.identical(1000, at: p), parameters: sparse)
    #expect(hashed._storedCellCount == 1)
    #expect(hashed.count(in: .world) == 1000)
  }

  @Test func pointsOnOneMeridianMakeOneColumn() throws {
    let points = Fixtures.line(10_000, diagonal: false, seed: 3)
    let grid = try GridHashIndex(points: points)
    let cells = try #require(grid.parameterValues.first { $0.name == "cells" }).value
    #expect(cells.hasPrefix("1x"), "\(cells)")
    #expect(grid._storedCellCount <= points.count)
    #expect(!grid._isSparse)
    expectSound(grid, "meridian")
  }

  @Test func tinyCellsOverTheWorldAreSparse() throws {
    let points = Fixtures.uniform(5000, seed: 11)
    let grid = try GridHashIndex(points: points, parameters: Parameters(cellSize: 1e-6))
    #expect(grid._isSparse)
    #expect(grid._storedCellCount <= points.count)
    #expect(grid.memoryBytes < 200 * points.count)
    #expect(grid.parameterValues.contains(ParameterValue("storage", "sparse")))
    #expect(grid.parameterValues.contains(ParameterValue("cellSize", "1e-06")))
    expectSound(grid, "cell 1e-6")
    let checker = IndexChecker(points: points)
    expectSameAnswers(grid, checker, QueryFixtures.queries(for: points, count: 30, seed: 2), "1e-6")
  }

  @Test func cellSizeNeedingMoreThan2To31ColumnsThrows() throws {
    let points = Fixtures.uniform(100, seed: 12)
    #expect(throws: IndexError.self) {
      try GridHashIndex(points: points, parameters: Parameters(cellSize: 1e-9))
    }
    // the same size is fine over a small area
    let small = Fixtures.uniform(100, seed: 12, in: Rect(minX: 5, minY: 5, maxX: 5.001, maxY: 5.001))
    let grid = try GridHashIndex(points: small, parameters: Parameters(cellSize: 1e-9))
    #expect(grid._isSparse)
    #expect(grid.count(in: .world) == 100)
    // dense storage of a huge grid is refused, not allocated
    #expect(throws: IndexError.self) {
      try GridHashIndex(points: points, parameters: Parameters(cellSize: 1e-4, storage: .dense))
    }
  }

  @Test func pointsOnCellBorders() throws {
    // cell size 1 from origin -3: integers and half-integers lie on and between borders
    var points: [Point] = []
    for i in -6...6 {
      for j in -6...6 { points.append(Point(x: Double(i) * 0.5, y: Double(j) * 0.5)) }
    }
    let checker = IndexChecker(points: points)
    var queries: [Rect] = []
    for a in -4...3 {
      for b in (a + 1)...4 {
        queries.append(Rect(minX: Double(a), minY: Double(a), maxX: Double(b), maxY: Double(b)))
        queries.append(Rect(minX: Double(a), minY: -3, maxX: Double(a), maxY: 3))
        queries.append(Rect(minX: Double(a) + 0.5, minY: Double(b) - 1, maxX: Double(b), maxY: Double(b)))
      }
    }
    for storage in [GridHashIndex.Storage.dense, .sparse] {
      let grid = try GridHashIndex(points: points, parameters: Parameters(cellSize: 1, storage: storage))
      expectSound(grid, "borders \(storage)")
      expectSameAnswers(grid, checker, queries, "borders \(storage)")
    }
    let lattice = Fixtures.lattice(seed: 5)
    let grid = try GridHashIndex(points: lattice, parameters: Parameters(cellSize: 360.0 / 64))
    expectSameAnswers(grid, IndexChecker(points: lattice),
                      QueryFixtures.queries(for: lattice, count: 80, seed: 5), "lattice")
  }

  // MARK: Parameters

  @Test(arguments: ["0", "-1", "nan", "inf", "-inf", "abc", "", "1e-320"])
  func invalidCellSizeThrows(text: String) {
    var p = Parameters()
    #expect(throws: IndexError.self) { try p.set("cellSize", to: text) }
    #expect(p == Parameters())
  }

  @Test func invalidParametersThrow() throws {
    var p = Parameters()
    #expect(throws: IndexError.self) { try p.set("pointsPerCell", to: "0") }
    #expect(throws: IndexError.self) { try p.set("pointsPerCell", to: "-3") }
    #expect(throws: IndexError.self) { try p.set("storage", to: "tree") }
    do {
      try p.set("bogus", to: "1")
      Issue.record("an unknown name was accepted")
    } catch {
      guard case .unknownParameter(let name, let known) = error else {
        Issue.record("wrong error \(error)")
        return
      }
      #expect(name == "bogus")
      #expect(known == ["cellSize", "pointsPerCell", "storage", "threads"])
    }
    try p.set("cellSize", to: "0.25")
    try p.set("pointsPerCell", to: "8")
    try p.set("storage", to: "sparse")
    #expect(p == Parameters(cellSize: 0.25, pointsPerCell: 8, storage: .sparse))
    try p.set("cellSize", to: "auto")
    #expect(p.cellSize == nil)

    let points = Fixtures.uniform(100, seed: 1)
    for bad in [Parameters(cellSize: 0), Parameters(cellSize: -1), Parameters(cellSize: .nan),
                Parameters(cellSize: .infinity), Parameters(cellSize: .leastNonzeroMagnitude),
                Parameters(pointsPerCell: 0), Parameters(pointsPerCell: -1)] {
      #expect(throws: IndexError.self) { try GridHashIndex(points: points, parameters: bad) }
    }
    #expect(throws: IndexError.nonFinitePoint(id: 1, point: Point(x: .infinity, y: 0))) {
      try GridHashIndex(points: [Point(x: 0, y: 0), Point(x: .infinity, y: 0)])
    }
    var grid = try GridHashIndex(points: points)
    #expect(throws: IndexError.self) { try grid.insert(Point(x: 0, y: .nan)) }
    #expect(grid.nextID == 100)
  }

  @Test func parameterValuesReportTheCellSizeInEffect() throws {
    let points = Fixtures.uniform(10_000, seed: 3)
    let auto = try GridHashIndex(points: points)
    let size = try #require(Double(auto.parameterValues[0].value))
    #expect(auto.parameterValues[0].name == "cellSize")
    // about pointsPerCell points per cell over the world
    let cells = 360 / size * 180 / size
    let target = Double(points.count) / Double(Parameters.defaultPointsPerCell)
    #expect(cells > target * 0.8 && cells < target * 1.25, "\(cells) cells")
    let fixed = try GridHashIndex(points: points, parameters: Parameters(cellSize: 0.5))
    #expect(fixed.label == "grid(cellSize=0.5,pointsPerCell=4,storage=sparse,cells=720x360,threads=auto)")
  }

  // MARK: Counters

  @Test(arguments: [GridHashIndex.Storage.dense, .sparse])
  func countersOnAHandMadeCase(storage: GridHashIndex.Storage) throws {
    // a 4×4 grid of unit cells with one point in the middle of each
    var points: [Point] = []
    for j in 0..<4 {
      for i in 0..<4 { points.append(Point(x: 0.5 + Double(i), y: 0.5 + Double(j))) }
    }
    let grid = try GridHashIndex(points: points, parameters: Parameters(cellSize: 1, storage: storage))
    #expect(grid.parameterValues.contains(ParameterValue("cells", "4x4")))
    // columns and rows 0...2: 9 cells; (1, 1) is interior; the 8 others are
    // tested. Dense visits the 9 cells of the range; sparse (a 32-slot table:
    // 9 > 32 / 8) scans its 16 stored cells instead of 9 lookups.
    let rect = Rect(minX: 0.6, minY: 0.6, maxX: 3.4, maxY: 3.4)
    let expected = WorkCounters(
      nodesVisited: storage == .dense ? 9 : 16, pointsTested: 8, pointsReported: 4)

    var c = WorkCounters()
    var ids: [Int32] = []
    grid.query(in: rect, into: &ids, counters: &c)
    #expect(c == expected)
    #expect(ids.sorted() == [5, 6, 9, 10])

    c = WorkCounters()
    #expect(grid.count(in: rect, counters: &c) == 4)
    #expect(c == expected)

    c = WorkCounters()
    var seen: [Int32] = []
    #expect(grid.forEach(in: rect, counters: &c) { seen.append($0); return true })
    #expect(c == expected)
    #expect(seen.sorted() == [5, 6, 9, 10])

    // one cell: sparse looks it up (1 ≤ 32 / 8) instead of scanning
    c = WorkCounters()
    #expect(grid.count(in: Rect(minX: 1.5, minY: 1.5, maxX: 2.4, maxY: 2.4), counters: &c) == 1)
    #expect(c == WorkCounters(nodesVisited: 1, pointsTested: 1, pointsReported: 1))

    c = WorkCounters()
    #expect(!grid.forEach(in: rect, counters: &c) { _ in false })
    #expect(c.pointsReported == 1)

    c = WorkCounters()
    #expect(grid.count(in: Rect(minX: 2, minY: 2, maxX: 1, maxY: 3), counters: &c) == 0)
    #expect(c == WorkCounters())
  }

  // MARK: Inserts and removals

  @Test func emptyBuildAcceptsInserts() throws {
    var grid = try GridHashIndex(points: [])
    #expect(grid.count == 0 && grid.nextID == 0)
    #expect(grid.count(in: .world) == 0)
    let removed = grid.remove(id: 0, at: Point(x: 0, y: 0))
    #expect(!removed)
    expectSound(grid, "empty")
    // (inserts into it and into other starts: DynamicModelTests)
  }

  @Test func insertsOutsideTheBuildBoundsAreFound() throws {
    let unit = Rect(minX: 0, minY: 0, maxX: 1, maxY: 1)
    for parameters in [Parameters(), Parameters(cellSize: 0.01, storage: .sparse)] {
      var grid = try GridHashIndex(points: Fixtures.uniform(500, seed: 41, in: unit),
                                   parameters: parameters)
      let far = [Point(x: 500, y: -80), Point(x: -1e300, y: 1e300), Point(x: 0.5, y: 7),
                 Point(x: -3, y: 0.5)]
      var ids: [Int32] = []
      for p in far { ids.append(try grid.insert(p)) }
      expectSound(grid, "outside")
      for (p, id) in zip(far, ids) {
        #expect(grid.ids(in: Rect(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)) == [id])
      }
      #expect(grid.count(in: unit) == 500)
      #expect(grid.count(in: Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity,
                                  maxY: .infinity)) == 504)
      #expect(grid.count(in: Rect(minX: 1.5, minY: -100, maxX: 600, maxY: 100)) == 1)
      #expect(grid.count(in: Rect(minX: -5, minY: -1, maxX: 0.5, maxY: 7)) > 2)
      let removed = grid.remove(id: ids[1], at: far[1])
      #expect(removed)
      #expect(grid.count(in: .world) == 502)
      #expect(grid.count(in: Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity,
                                  maxY: .infinity)) == 503)
      expectSound(grid, "outside, after a removal")
    }
  }

  @Test func removingEverythingCompacts() throws {
    let points = Fixtures.uniform(3000, seed: 51)
    var grid = try GridHashIndex(points: points)
    for (i, p) in points.enumerated() where i % 10 != 0 {
      let removed = grid.remove(id: Int32(i), at: p)
      #expect(removed)
    }
    #expect(grid.count == 300)
    #expect(grid._poolSlots <= 4 * 300)
    expectSound(grid, "after removals")
    #expect(grid.count(in: .world) == 300)
  }
}
