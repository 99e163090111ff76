import BenchFormats
import MapClustering
import SpatialIndexes
import _SeededRandom

/// What a workload's steps need from the map: the rectangles on screen, the
/// zoom as well, or a tap.
public enum StepNeed: String, Sendable, CaseIterable {
  /// What a workload with this need asks of each step, for messages.
  public var phrase: String {
    switch self {
    case .rectangles: "viewports"
    case .zoom: "a zoom for each viewport"
    case .tap: "a tap and a zoom for each step"
    case .position: "a position for each step"
    }
  }

  /// The viewport's rectangles (any queries file).
  case rectangles
  /// The rectangles and the zoom (a queries file with a `zoom` column).
  case zoom
  /// A tap position and its zoom (the session, a queries file with zooms, or a taps file).
  case tap
  /// A position to search near (each tap's, or a positions file's rows).
  case position
}

/// The steps of a run, made once before any timing and identical for every
/// index: per step what the map shows and where the user taps. They come
/// from the seeded session, from a queries file, or from a taps file; a
/// part the source does not give is `nil`, and a workload that needs it is
/// refused (``missing(_:)``).
public struct MapSteps: Sendable {
  /// Where the steps come from, for messages: `the session` or a file's path.
  public var source: String
  /// The number of steps.
  public var count: Int
  /// Per step, the latitude/longitude rectangles on screen.
  public var rects: [[Rect]]?
  /// Per step, the rectangles and the zoom.
  package var areas: [VisibleArea]?
  /// Per step, a tap.
  public var taps: [Tap]?
  /// Per step, where to search near: the tap's position (a seeded place
  /// on the screen), or a positions file's row (a queries file's, with
  /// `run`, `verify`; a points file's, with `query`).
  public var positions: [Point]? {
    storedPositions ?? taps?.map(\.coordinate)
  }
  var storedPositions: [Point]?
  /// Per step, the farthest a nearest neighbour may be, in metres (the
  /// search's `maxDistance`); `nil`, as from the session or a file: no limit.
  /// The adversarial session and the fuzzer set it, to put the limit exactly
  /// on a point's distance.
  public var reaches: [Double]?
  /// How the points move from frame to frame in the live workload.
  public var live = LiveSettings()
  /// Per frame, the live workload's moves instead of the fleet's (frame `f`
  /// of a runner takes `moves[f % moves.count]`); `nil`: the fleet moves
  /// (``FleetMotion``). The adversarial session and the fuzzer script moves
  /// the fleet never makes: across the antimeridian, to the poles, off the
  /// map, out of an index's bounds.
  public var moves: [[PointMove]]?

  /// The session's steps: its viewports, and the tap of each.
  public init(session: ViewportSession) {
    source = "the session"
    count = session.steps.count
    rects = session.steps.map(\.viewport.rects)
    areas = session.steps.map(\.viewport.visibleArea)
    taps = session.steps.map { Tap(x: $0.tap.x, y: $0.tap.y, in: $0.viewport) }
  }

  /// One step per row of `file`. Centres become viewports of `screen`
  /// points; boxes are taken as they are. Where rows have zooms, each step
  /// also gets a tap at a seeded position on its screen (the session's rule:
  /// uniform on the screen, from sub-stream 2 of `seed`). Positions are
  /// the nearest workload's, exactly, and give nothing else.
  public init(queries file: QueriesFile, screen: (width: Double, height: Double), seed: UInt64) {
    source = file.source
    count = file.count
    if let positions = file.positions {
      storedPositions = positions
      return
    }
    var g = SplitMix64(seed: seed).fork(2)
    if !file.centres.isEmpty {
      let viewports = file.centres.map { c in
        Viewport(center: Point(latitude: c.latitude, longitude: c.longitude), zoom: c.zoom,
                 width: screen.width, height: screen.height)
      }
      rects = viewports.map(\.rects)
      areas = viewports.map(\.visibleArea)
      taps = viewports.map { v in
        Tap(x: g.nextDouble(in: 0, v.width), y: g.nextDouble(in: 0, v.height), in: v)
      }
      return
    }
    rects = file.queries.map { $0.rects() }
    guard file.hasZooms else { return }
    let zoomed = file.queries.map { q in VisibleArea(zoom: q.zoom!, rects: q.rects()) }
    areas = zoomed
    taps = zoomed.map { Self.tap(in: $0, &g) }
  }

  /// Steps made up rather than walked (the adversarial session, the
  /// fuzzer): per step a box with its zoom, which the viewport, cluster
  /// and live workloads show; a tap; a position to search near, with the
  /// farthest a neighbour may be (`reaches`, nil for no limit); and the
  /// live frame's moves (`moves`, nil for the fleet's).
  ///
  /// - Precondition: one tap and one position a box, one reach and one
  ///   frame of moves a box when given, and every box has a zoom.
  public init(
    source: String, boxes: [GeoQuery], taps: [Tap], positions: [Point], reaches: [Double]? = nil,
    moves: [[PointMove]]? = nil
  ) {
    precondition(taps.count == boxes.count && positions.count == boxes.count, "one tap and position a box")
    precondition(reaches.map { $0.count == boxes.count } ?? true, "one reach a box")
    precondition(moves.map { $0.count == boxes.count } ?? true, "one frame of moves a box")
    precondition(boxes.allSatisfy { $0.zoom != nil }, "every box has a zoom")
    self.source = source
    count = boxes.count
    rects = boxes.map { $0.rects() }
    areas = boxes.map { VisibleArea(zoom: $0.zoom!, rects: $0.rects()) }
    self.taps = taps
    storedPositions = positions
    self.reaches = reaches
    self.moves = moves
  }

  /// One step per tap of `file`.
  public init(taps file: TapsFile) {
    source = file.source
    count = file.taps.count
    taps = file.taps.map { t in
      Tap(at: Point(latitude: t.latitude, longitude: t.longitude), zoom: t.zoom)
    }
  }

  /// One step per position (`x` = longitude, `y` = latitude) of a points
  /// file read as positions.
  public init(positions: [Point], source: String) {
    self.source = source
    count = positions.count
    storedPositions = positions
  }

  /// A tap uniform over the box `area` shows, in map coordinates (as on a
  /// screen showing that box).
  static func tap(in area: VisibleArea, _ g: inout SplitMix64) -> Tap {
    let west = area.first.minX
    let east = area.count == 2 ? area.second.maxX + 360 : area.first.maxX
    let x = g.nextDouble(in: WebMercator.x(longitude: west), WebMercator.x(longitude: east))
    let y = g.nextDouble(
      in: WebMercator.y(latitude: area.first.maxY), WebMercator.y(latitude: area.first.minY))
    let lon = WebMercator.longitude(x: x), lat = WebMercator.latitude(y: y)
    return Tap(at: Point(x: lon, y: lat), zoom: area.zoom)
  }

  /// Whether the steps give what `need` asks.
  public func has(_ need: StepNeed) -> Bool {
    switch need {
    case .rectangles: rects != nil
    case .zoom: areas != nil
    case .tap: taps != nil
    case .position: positions != nil
    }
  }

  /// Why a workload that needs `need` cannot run on these steps, or `nil`:
  /// `q.csv has no zoom column (or a row without a zoom)`.
  public func missing(_ need: StepNeed) -> String? {
    if has(need) { return nil }
    if storedPositions != nil { return "\(source) has positions, not viewports or taps" }
    if rects == nil { return "\(source) has taps, not viewports" }
    return "\(source) has no zoom column (or a row without a zoom)"
  }

  /// The steps by zoom band (`0-3`, `4-7`, …), bands without steps left
  /// out; none when the steps have no zooms. Band rows report the latency of
  /// their steps.
  public var zoomBands: [ZoomBand] {
    guard let zooms = areas?.map(\.zoom) ?? taps?.map(\.zoom) else { return [] }
    var bands: [ZoomBand] = []
    for low in stride(from: 0, through: WebMercator.zoomRange.upperBound, by: 4) {
      let steps = Set(zooms.indices.filter { (low..<low + 4).contains(zooms[$0]) })
      if !steps.isEmpty { bands.append(ZoomBand(name: "\(low)-\(low + 3)", steps: steps)) }
    }
    return bands
  }
}

/// The steps of one zoom band.
public struct ZoomBand: Sendable, Equatable {
  /// `0-3`, `4-7`…: the `zooms` column of its rows.
  public var name: String
  public var steps: Set<Int>
}
