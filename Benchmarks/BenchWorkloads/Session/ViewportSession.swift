import MapClustering
import SpatialIndexes
import _SeededRandom

/// A seeded pan-and-zoom session over a dataset: the viewports a person
/// looks at, in order, and where they tap on each.
///
/// The session starts with the whole dataset in view (see
/// ``startViewport(for:parameters:)``), then each step is one of:
/// - a **pan**: the centre moves ¼ to 1 screen (uniform) in a uniformly random
///   direction, a fraction *f* of a screen meaning *f* · width across and
///   *f* · height up or down;
/// - a **pinch zoom**: one level in or out with even odds, around the centre;
///   at the edge of ``SessionParameters/zoomRange`` it goes the only way it can;
/// - a **jump** to a random data point (a search result) at a zoom uniform in
///   ``SessionParameters/jumpZoomRange``, clamped to the zoom range; with no
///   data, to a random place on the map.
///
/// The kinds are drawn with the weights of ``SessionParameters/mix``. The
/// centre's latitude stays on the Mercator map (clamped at
/// ±``WebMercator/maxLatitude``) and its longitude wraps into [-180, 180), so
/// sessions cross the antimeridian as people do. Each step also carries a tap
/// position, uniform on the screen, for the tap workload.
///
/// The order of the steps is part of the workload: an index with a cache sees
/// pans next to each other. Moves come from the seed's sub-stream 1 and taps
/// from sub-stream 2, so the taps can change without moving the viewports.
///
/// ```swift
/// let session = ViewportSession(points: hotels, parameters: .init(steps: 10_000, seed: 7))
/// for step in session.steps { index.query(in: step.viewport.rects[0], into: &ids) }
/// ```
public struct ViewportSession: Sendable {
  /// What happened between the previous step and this one.
  public enum StepKind: String, Hashable, Sendable, CaseIterable {
    /// The first view: the whole dataset.
    case start
    case pan
    case zoomIn
    case zoomOut
    case jump
  }

  /// One screenful: what the user sees and where they tap on it.
  public struct Step: Hashable, Sendable {
    public var kind: StepKind
    public var viewport: Viewport
    /// Uniform in `0..<width` × `0..<height` of the viewport's screen.
    public var tap: ScreenPosition

    public init(kind: StepKind, viewport: Viewport, tap: ScreenPosition) {
      self.kind = kind
      self.viewport = viewport
      self.tap = tap
    }
  }

  public let parameters: SessionParameters
  /// `parameters.steps` steps in session order, the first of kind `.start`.
  public let steps: [Step]

  /// The session over `points` (used for the starting view and for jumps).
  ///
  /// - Precondition: `parameters.steps >= 1`, a positive finite screen size,
  ///   a valid mix, and a non-empty zoom range within 0...30.
  /// - Complexity: O(*n* + `steps`) for *n* points.
  public init(points: [Point], parameters: SessionParameters = SessionParameters()) {
    let p = parameters
    precondition(p.steps >= 1, "a session has at least one step")
    precondition(p.screenWidth > 0 && p.screenWidth.isFinite
                   && p.screenHeight > 0 && p.screenHeight.isFinite, "bad screen size")
    precondition(p.mix.isValid, "the step mix needs finite weights >= 0, not all zero")
    precondition(p.zoomRange.lowerBound >= 0 && p.zoomRange.upperBound <= 30,
                 "zoom levels are in 0...30")
    self.parameters = p

    let root = SplitMix64(seed: p.seed)
    var moves = root.fork(1)
    var taps = root.fork(2)
    let total = p.mix.pan + p.mix.zoom + p.mix.jump

    var steps: [Step] = []
    steps.reserveCapacity(p.steps)
    var view = Self.startViewport(for: points, parameters: p)
    var kind = StepKind.start
    for i in 0..<p.steps {
      if i > 0 {
        let u = moves.nextUnit() * total
        if u < p.mix.pan {
          kind = .pan
          view = Self.panned(view, &moves)
        } else if u < p.mix.pan + p.mix.zoom {
          (kind, view) = Self.zoomed(view, in: p.zoomRange, &moves)
        } else {
          kind = .jump
          view = Self.jumped(view, to: points, parameters: p, &moves)
        }
      }
      let tap = ScreenPosition(x: taps.nextDouble(in: 0, p.screenWidth),
                               y: taps.nextDouble(in: 0, p.screenHeight))
      steps.append(Step(kind: kind, viewport: view, tap: tap))
    }
    self.steps = steps
  }

  /// The viewports in session order.
  public var viewports: [Viewport] { steps.map(\.viewport) }

  /// The latitude/longitude under each step's tap (`x` = longitude).
  public var tapCoordinates: [Point] { steps.map { $0.viewport.coordinate(at: $0.tap) } }
}

// MARK: - The starting view

extension ViewportSession {
  /// The first view: centred on the data's bounding box (its middle in map
  /// coordinates), at the largest zoom of `parameters.zoomRange` whose
  /// ``Viewport/rects`` contain that box.
  ///
  /// Latitudes beyond the Mercator map are clamped to it first (no viewport
  /// shows them). When no zoom in range fits the box (world-wide data on a
  /// phone at zoom ≥ 2), the lowest zoom of the range. With no points: the
  /// world view, centred at (0, 0) at the lowest zoom of the range.
  ///
  /// - Complexity: O(*n*).
  public static func startViewport(for points: [Point], parameters: SessionParameters) -> Viewport {
    let zooms = parameters.zoomRange
    let w = parameters.screenWidth, h = parameters.screenHeight
    guard var box = Rect(bounding: points) else {
      return Viewport(center: Point(x: 0, y: 0), zoom: zooms.lowerBound, width: w, height: h)
    }
    box.minY = clampedLatitude(box.minY)
    box.maxY = clampedLatitude(box.maxY)
    let midY = (WebMercator.y(latitude: box.minY) + WebMercator.y(latitude: box.maxY)) / 2
    // one latitude: keep it exact rather than round-trip it through Mercator
    let midLatitude = box.minY == box.maxY ? box.minY : WebMercator.latitude(y: midY)
    let centre = Point(x: (box.minX + box.maxX) / 2, y: midLatitude)
    for zoom in zooms.reversed() {
      let v = Viewport(center: centre, zoom: zoom, width: w, height: h)
      if v.rects.contains(where: { $0.contains(box) }) { return v }
    }
    return Viewport(center: centre, zoom: zooms.lowerBound, width: w, height: h)
  }
}

// MARK: - Moves

extension ViewportSession {
  static func clampedLatitude(_ latitude: Double) -> Double {
    Swift.min(WebMercator.maxLatitude, Swift.max(-WebMercator.maxLatitude, latitude))
  }

  /// `view` with its centre moved by `(dx, dy)` screen points (y southward).
  static func moved(_ view: Viewport, dx: Double, dy: Double) -> Viewport {
    let s = WebMercator.scale(zoom: view.zoom)
    let x = WebMercator.x(longitude: view.center.x) * s + dx
    let y = WebMercator.y(latitude: view.center.y) * s + dy
    var v = view
    v.center = Point(x: WebMercator.wrappedLongitude(WebMercator.longitude(x: x / s)),
                     y: clampedLatitude(WebMercator.latitude(y: y / s)))
    return v
  }

  /// A pan of ¼ to 1 screen in a uniformly random direction. The direction
  /// is a point drawn uniformly in the unit disc, normalised: no
  /// trigonometry, so nothing but `sqrt` (exact in IEEE) between the seed
  /// and the offset.
  static func panned(_ view: Viewport, _ g: inout SplitMix64) -> Viewport {
    var a = 0.0, b = 0.0, r2 = 0.0
    repeat {
      a = 2 * g.nextUnit() - 1
      b = 2 * g.nextUnit() - 1
      r2 = a * a + b * b
    } while r2 >= 1 || r2 < 1e-12
    let r = r2.squareRoot()
    let screens = g.nextDouble(in: 0.25, 1)
    return moved(view, dx: screens * view.width * a / r, dy: screens * view.height * b / r)
  }

  /// One level in or out with even odds; at an end of `range`, the other way.
  /// A range of one level leaves the view as it was.
  static func zoomed(
    _ view: Viewport, in range: ClosedRange<Int>, _ g: inout SplitMix64
  ) -> (StepKind, Viewport) {
    let wantsIn = g.nextInt(below: 2) == 0
    var v = view
    if range.lowerBound == range.upperBound { return (wantsIn ? .zoomIn : .zoomOut, v) }
    let goesIn = v.zoom >= range.upperBound ? false : v.zoom <= range.lowerBound ? true : wantsIn
    v.zoom += goesIn ? 1 : -1
    return (goesIn ? .zoomIn : .zoomOut, v)
  }

  /// To a random data point (a random map place when there are none), at a
  /// zoom uniform in the jump range, clamped to the zoom range.
  static func jumped(
    _ view: Viewport, to points: [Point], parameters p: SessionParameters, _ g: inout SplitMix64
  ) -> Viewport {
    let target: Point
    if points.isEmpty {
      target = Point(x: g.nextDouble(in: -180, 180),
                     y: g.nextDouble(in: -WebMercator.maxLatitude, WebMercator.maxLatitude))
    } else {
      target = points[g.nextInt(below: points.count)]
    }
    let jz = p.jumpZoomRange
    let zoom = jz.lowerBound + g.nextInt(below: jz.count)
    var v = view
    v.center = Point(x: WebMercator.wrappedLongitude(target.x), y: clampedLatitude(target.y))
    v.zoom = Swift.min(p.zoomRange.upperBound, Swift.max(p.zoomRange.lowerBound, zoom))
    return v
  }
}
