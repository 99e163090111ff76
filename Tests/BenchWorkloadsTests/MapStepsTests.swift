import BenchFormats
import MapClustering
import SpatialIndexes
import Testing
import _SpatialTestSupport

@testable import BenchWorkloads

/// Where a run's steps come from, and what each source gives the workloads.
@Suite struct MapStepsTests {
  func queries(_ text: String) throws -> QueriesFile {
    try QueriesFile(parsing: Array(text.utf8), source: "q.csv")
  }

  @Test func theSessionGivesRectanglesZoomsAndTaps() {
    let points = Fixtures.clustered(2000, seed: 1)
    let session = ViewportSession(points: points, parameters: SessionParameters(steps: 50, seed: 2))
    let steps = MapSteps(session: session)
    #expect(steps.count == 50 && steps.source == "the session")
    #expect(steps.rects == session.viewports.map(\.rects))
    #expect(steps.areas == session.viewports.map(\.visibleArea))
    #expect(steps.taps?.map(\.zoom) == session.viewports.map(\.zoom))
    for need in StepNeed.allCases { #expect(steps.has(need) && steps.missing(need) == nil) }
  }

  @Test func boxesWithoutZoomsDriveOnlyTheViewportWorkload() throws {
    let steps = MapSteps(
      queries: try queries("min_lat,min_lon,max_lat,max_lon\n0,0,1,1\n-20,170,-10,-170\n"),
      screen: (390, 844), seed: 1)
    #expect(steps.rects?.count == 2 && steps.rects?[1].count == 2)
    #expect(steps.areas == nil && steps.taps == nil)
    #expect(steps.missing(.zoom) == "q.csv has no zoom column (or a row without a zoom)")
    #expect(steps.zoomBands.isEmpty)
  }

  @Test func aRowWithoutAZoomLeavesTheFileWithoutZooms() throws {
    let file = try queries("min_lat,min_lon,max_lat,max_lon,zoom\n0,0,1,1,3\n0,0,1,1,\n")
    #expect(!file.hasZooms)
    #expect(MapSteps(queries: file, screen: (390, 844), seed: 1).areas == nil)
  }

  @Test func boxesWithZoomsClusterAsTheyAreAndTapInsideThem() throws {
    let steps = MapSteps(
      queries: try queries("min_lat,min_lon,max_lat,max_lon,zoom\n48,2,49,3,9\n-20,170,-10,-170,5\n"),
      screen: (390, 844), seed: 1)
    let areas = try #require(steps.areas)
    #expect(areas[0] == VisibleArea(zoom: 9, rect: Rect(minX: 2, minY: 48, maxX: 3, maxY: 49)))
    #expect(areas[1].count == 2 && areas[1].zoom == 5)
    let taps = try #require(steps.taps)
    #expect(taps[0].zoom == 9 && Rect(minX: 2, minY: 48, maxX: 3, maxY: 49).contains(taps[0].coordinate))
    let t = taps[1].coordinate
    #expect(t.y >= -20 && t.y <= -10 && (t.x >= 170 || t.x <= -170), "\(t)")
  }

  @Test func centresBecomeViewportsOfTheScreen() throws {
    let file = try queries("center_lat,center_lon,zoom\n48.8566,2.3522,12\n0,179.9,3\n")
    let steps = MapSteps(queries: file, screen: (400, 300), seed: 1)
    let paris = Viewport(center: Point(x: 2.3522, y: 48.8566), zoom: 12, width: 400, height: 300)
    #expect(steps.areas?[0] == paris.visibleArea)
    #expect(steps.rects?[1].count == 2, "a screen across the antimeridian")
    #expect(steps.taps?.count == 2)
  }

  @Test func aTapsFileGivesTapsOnly() throws {
    let file = try TapsFile(parsing: Array("lat,lon,zoom\n48.85,2.35,14\n".utf8), source: "t.csv")
    let steps = MapSteps(taps: file)
    #expect(steps.taps == [Tap(at: Point(x: 2.35, y: 48.85), zoom: 14)])
    #expect(steps.missing(.rectangles) == "t.csv has taps, not viewports")
    #expect(steps.missing(.zoom) == "t.csv has taps, not viewports")
  }

  @Test func positionsGiveTheNearestWorkloadItsExactPositionsOnly() throws {
    let steps = MapSteps(
      queries: try queries("lat,lon\n-4.154661995336989,-112.2303721236431\n0,180\n"), screen: (390, 844),
      seed: 1)
    #expect(steps.count == 2)
    #expect(steps.positions == [Point(x: -112.2303721236431, y: -4.154661995336989), Point(x: 180, y: 0)])
    #expect(steps.rects == nil && steps.areas == nil && steps.taps == nil)
    #expect(steps.has(.position))
    #expect(steps.missing(.rectangles) == "q.csv has positions, not viewports or taps")
    #expect(steps.missing(.tap) == "q.csv has positions, not viewports or taps")
  }

  @Test func zoomBandsSplitTheStepsByFourLevels() {
    let session = ViewportSession(
      points: Fixtures.uniform(500, seed: 3), parameters: SessionParameters(steps: 300, seed: 4))
    let steps = MapSteps(session: session)
    let bands = steps.zoomBands
    #expect(bands.reduce(0) { $0 + $1.steps.count } == 300)
    for band in bands {
      let low = Int(band.name.split(separator: "-")[0])!
      #expect(band.steps.allSatisfy { (low...low + 3).contains(session.viewports[$0].zoom) })
    }
  }
}
