import MapClustering
import SpatialIndexes
import _SeededRandom

/// How the live workload's points move: a fleet whose vehicles report
/// their positions now and then, as GPS trackers do.
///
/// Each frame a seeded sample of ``LiveSettings/share`` of the points
/// reports (drawn with replacement: a point drawn twice moves once), and
/// the reports are applied in id order. A reporting
/// vehicle has driven, since its last report, `speed · elapsed` metres
/// along its heading: its own speed, uniform in 3...30 m/s (a bike to a car
/// on a main road), `elapsed` the frames since its last report over the
/// frame rate. It then turns a little (up to about 17° either way). It
/// stays on the map: it bounces off the Web Mercator latitude limit, and
/// crossing the antimeridian it comes back on the other side.
///
/// Only `+ − × ÷` and square roots (correctly rounded everywhere) are used,
/// not the platform's `sin` and `cos`, so the same seed moves the points to
/// the same bits on every machine: headings are unit vectors turned by
/// exact rational rotations, and the cosine of the latitude a polynomial.
public struct FleetMotion: Sendable {
  public let settings: LiveSettings
  /// Per point: its heading as an east and a north component (a unit
  /// vector), its speed in m/s, and the frame of its last report.
  var east: [Double]
  var north: [Double]
  var speed: [Float]
  var lastReport: [Int32]
  /// Frames moved so far.
  public private(set) var frame = 0
  /// The ids drawn this frame (storage kept between frames).
  var reporting: [Int32] = []

  /// A fleet of `count` vehicles at frame 0.
  public init(count: Int, settings: LiveSettings) {
    self.settings = settings
    var g = SplitMix64(seed: settings.seed).fork(3)
    east = []
    north = []
    speed = []
    east.reserveCapacity(count)
    north.reserveCapacity(count)
    speed.reserveCapacity(count)
    for _ in 0..<count {
      var x = 0.0, y = 0.0, r2 = 0.0
      repeat {  // uniform in the unit disc: a uniform direction
        x = g.nextDouble(in: -1, 1)
        y = g.nextDouble(in: -1, 1)
        r2 = x * x + y * y
      } while r2 > 1 || r2 < 1e-6
      let r = r2.squareRoot()
      east.append(x / r)
      north.append(y / r)
      speed.append(Float(g.nextDouble(in: 3, 30)))
    }
    lastReport = Array(repeating: 0, count: count)
  }

  /// The points that report in the next frame, and where they are: replaces
  /// `moves` with one entry per reporting point, from `positions` (the
  /// points now, by id).
  public mutating func nextFrame(positions: [Point], into moves: inout [PointMove]) {
    moves.removeAll(keepingCapacity: true)
    frame += 1
    let n = min(positions.count, east.count)
    guard n > 0 else { return }
    var g = SplitMix64(seed: settings.seed).fork(4).fork(UInt64(frame))
    reporting.removeAll(keepingCapacity: true)
    for _ in 0..<settings.movers(count: n) { reporting.append(Int32(g.nextInt(below: n))) }
    // In id order: an app applies a frame's batch of reports sorted, so the
    // index's and the clusterer's per-point arrays are swept, not read at
    // random (in the order drawn, a move cost 2-3x more: cache misses).
    reporting.sort()
    var last: Int32 = -1
    for id in reporting where id != last {
      last = id
      let to = advance(Int(id), from: positions[Int(id)], turn: g.nextDouble(in: -0.15, 0.15))
      moves.append(PointMove(id: id, to: to))
    }
  }

  /// Point `i`'s position after driving since its last report, from `p`.
  mutating func advance(_ i: Int, from p: Point, turn t: Double) -> Point {
    let seconds = Double(max(0, frame - Int(lastReport[i]))) / settings.framesPerSecond
    lastReport[i] = Int32(clamping: frame)
    let metres = Double(speed[i]) * seconds
    let degreesPerMetre = 180 / (Double.pi * GreatCircle.earthRadius)
    var lat = p.y + north[i] * metres * degreesPerMetre
    // metres of longitude shrink with the latitude's cosine (bounded away
    // from 0: at the map's limit it is 0.086)
    var lon = p.x + east[i] * metres * degreesPerMetre / max(0.05, Self.cosine(degrees: p.y))
    let limit = WebMercator.maxLatitude
    if lat > limit || lat < -limit {  // bounce: back onto the map, heading south (north)
      let edge = lat > limit ? limit : -limit
      lat = min(limit, max(-limit, 2 * edge - lat))
      north[i] = -north[i]
    }
    if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
    lon = min(180, max(-180, lon))
    // turn by the angle whose half-tangent is t: an exact rational rotation
    let d = 1 + t * t, c = (1 - t * t) / d, s = 2 * t / d
    let e = east[i] * c - north[i] * s, nn = east[i] * s + north[i] * c
    let r = (e * e + nn * nn).squareRoot()
    east[i] = e / r
    north[i] = nn / r
    return Point(x: lon, y: lat)
  }

  /// cos of `degrees` in [−90, 90] from its Taylor polynomial to x¹²
  /// (error below 1e-8 at ±90°), so every machine gets the same bits.
  static func cosine(degrees: Double) -> Double {
    let x = min(90, abs(degrees)) * .pi / 180, x2 = x * x
    return 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56 * (1 - x2 / 90 * (1 - x2 / 132)))))
  }
}

/// What the live workload moves: the share of points reporting a frame,
/// the frame rate, the seed, and when the buffered strategy rebuilds.
public struct LiveSettings: Sendable, Equatable {
  /// Share of the points that report each frame, in [0, 1]. Default 0.01.
  public var share: Double
  /// Frames a second (60 or 120 on a phone). Default 60.
  public var framesPerSecond: Double
  public var seed: UInt64
  /// The `buffered` strategy's ``BufferedParameters/rebuildShare``, in (0, 1]. Default 0.05.
  public var rebuildShare: Double

  public init(share: Double = 0.01, framesPerSecond: Double = 60, seed: UInt64 = 42, rebuildShare: Double = 0.05) {
    self.share = share.isFinite ? min(1, max(0, share)) : 0.01
    self.framesPerSecond = framesPerSecond.isFinite && framesPerSecond >= 1 ? framesPerSecond : 60
    self.seed = seed
    self.rebuildShare = rebuildShare > 0 && rebuildShare <= 1 ? rebuildShare : 0.05
  }

  /// The reports a frame among `count` points.
  public func movers(count: Int) -> Int { Int((share * Double(count)).rounded()) }
}
