import BenchFormats
import MapClustering
import SpatialIndexes
import Testing

@testable import BenchWorkloads

/// The fuzzer's rules, written from docs/formats.md, give its worked
/// examples, and the +180° rule has both of its versions.
@Suite struct AnswerRuleTests {
  /// The answer file a rule gives for `steps` over `points`.
  func answerFile<R: AnswerRule, W: Workload>(
    _ rule: R.Type, _ workload: W.Type, points: [Point], steps: MapSteps, variant: String = "", ids: [UInt64]
  ) throws -> String {
    let answers = try #require(R.answers(WorkloadData(points: points, steps: steps), variant: variant) as? [W.Answer])
    var csv = CSVWriter()
    csv.writeRow(["query"] + W.answerColumns)
    for (q, a) in answers.enumerated() { W.writeAnswer(a, query: q, ids: ExternalIDs(ids), to: &csv) }
    return csv.text
  }

  /// docs/formats.md, "Answer files", the cluster example.
  @Test func theClusterRuleGivesTheWorkedExample() throws {
    let points = [
      Point(latitude: 10.0000001, longitude: -170.0000001), Point(latitude: 10.0000002, longitude: -169.9999998),
      Point(latitude: -40, longitude: 100), Point(latitude: 60, longitude: 179.5), Point(latitude: 60.1, longitude: -179.5),
      Point(latitude: 60.2, longitude: 180),
    ]
    let queries = QueriesFile(source: "q", queries: [
      GeoQuery(minLat: -85, minLon: -180, maxLat: 50, maxLon: 180, zoom: 0),
      GeoQuery(minLat: 0, minLon: 20, maxLat: 1, maxLon: 21, zoom: 3),
      GeoQuery(minLat: 55, minLon: 179, maxLat: 65, maxLon: -179, zoom: 3),
      GeoQuery(minLat: 55, minLon: 179, maxLat: 65, maxLon: 180, zoom: 3),
      GeoQuery(minLat: 55, minLon: -180, maxLat: 65, maxLon: -179, zoom: 3),
    ])
    let steps = MapSteps(queries: queries, screen: (390, 844), seed: 1)
    let text = try answerFile(
      ClusterRule.self, ClusterWorkload.self, points: points, steps: steps, ids: [7, 8, 9, 10, 11, 12])
    #expect(text == """
      query,cell_x,cell_y,count,lat,lon,id
      0,0,1,2,10.0000002,-170.0000000,
      0,2,1,1,-40.0000000,100.0000000,9
      2,0,6,2,60.1500000,-179.7500000,
      2,23,6,1,60.0000000,179.5000000,10
      3,0,6,1,60.2000000,-180.0000000,12
      3,23,6,1,60.0000000,179.5000000,10
      4,0,6,1,60.1000000,-179.5000000,11

      """)
  }

  /// docs/formats.md, "Answer files", the nearest example (`--k 2`).
  @Test func theNearestRuleGivesTheWorkedExample() throws {
    let points = [
      Point(latitude: 0, longitude: -1), Point(latitude: 1, longitude: 0), Point(latitude: 0, longitude: 1),
      Point(latitude: 0, longitude: -179.5), Point(latitude: 89.9, longitude: 180),
    ]
    let steps = MapSteps(
      positions: [Point(latitude: 0, longitude: 0), Point(latitude: 0, longitude: 179.5), Point(latitude: 89.9, longitude: 0)],
      source: "q")
    let text = try answerFile(
      NearestRule.self, NearestWorkload.self, points: points, steps: steps, variant: "k=2", ids: [7, 5, 6, 9, 4])
    #expect(text == """
      query,rank,id,distance_m
      0,1,7,111195.080
      0,2,5,111195.080
      1,1,9,111195.080
      1,2,4,9996438.136
      2,1,4,22239.016
      2,2,5,9885242.633

      """)
  }

  /// One point at +180°, alone in a box ending at +180° or across it: in
  /// cell_x 0, averaged as -180°, at zooms whose last column is partial
  /// (0-12) and at zooms whose cells divide the world (13-19), and beyond.
  @Test func plus180IsCellZeroAtEveryZoom() {
    let points = [Point(x: 180, y: 0)]
    func marker(_ zoom: Int, _ box: GeoQuery) -> (column: Int, lonE7: Int32)? {
      var q = box
      q.zoom = zoom
      let area = VisibleArea(zoom: zoom, rects: q.rects())
      return ClusterRule.markers(of: area, points: points, cellTable: .default).first
        .map { ($0.key.column, $0.longitudeE7) }
    }
    let eastEdge = GeoQuery(minLat: -1, minLon: 179, maxLat: 1, maxLon: 180)
    let across = GeoQuery(minLat: -1, minLon: 179, maxLat: 1, maxLon: -179)
    for zoom in [0, 5, 12, 13, 19, 25] {
      for box in [eastEdge, across] {
        let m = marker(zoom, box)
        #expect(m?.column == 0 && m?.lonE7 == -1_800_000_000, "zoom \(zoom) \(box)")
      }
    }
  }

  /// A longitude a rounding below +180° projects onto it (map x 256): the
  /// cells take it for +180°.
  @Test func aLongitudeThatProjectsOnto180IsAt180() {
    let p = Point(x: (180.0).nextDown, y: 0)
    #expect(WebMercator.x(longitude: p.x) == 256)
    let area = VisibleArea(zoom: 0, rects: [Rect(minX: 170, minY: -1, maxX: 180, maxY: 1)])
    #expect(ClusterRule.markers(of: area, points: [p], cellTable: .default).first?.key.column == 0)
  }

  /// Marker means round halves away from zero, in integers.
  @Test func meansRoundHalvesAwayFromZero() {
    #expect(ClusterRule.mean(3, 2) == 2)
    #expect(ClusterRule.mean(-3, 2) == -2)
    #expect(ClusterRule.mean(-1_700_000_001 - 1_699_999_998, 2) == -1_700_000_000)  // README: -1699999999.5
    #expect(ClusterRule.units(-170.0000001) == -1_700_000_001)
    #expect(ClusterRule.floorOfQuotient(88, 88) == 1 && ClusterRule.floorOfQuotient(87.99999999999999, 88) == 0)
  }

  /// The tap rule: within 22 points, across the antimeridian, ties to the
  /// earlier point, none off the map.
  @Test func theTapRule() {
    let points = [Point(x: 179.9999999, y: 0), Point(x: -180, y: 0), Point(x: -180, y: 0), Point(x: 0, y: 86)]
    let steps = MapSteps(taps: TapsFile(source: "t", taps: [
      ZoomedPosition(latitude: 0, longitude: -180, zoom: 5),  // on the duplicates: the earlier
      ZoomedPosition(latitude: 0, longitude: 180, zoom: 5),  // the same place
      ZoomedPosition(latitude: 85.5, longitude: 0, zoom: 0),  // the point at 86° is off the map
      ZoomedPosition(latitude: 0, longitude: 179.99999999, zoom: 20),  // nearer the duplicates, across
      ZoomedPosition(latitude: 0, longitude: 179.99999992, zoom: 20),  // nearer point 0
      ZoomedPosition(latitude: 1, longitude: 0, zoom: 20),  // nothing within 22 points
    ]))
    let answers = TapRule.answers(WorkloadData(points: points, steps: steps), variant: "")
    #expect(answers == [1, 1, nil, 1, 0, nil])
  }
}
