import BenchFormats
import SpatialIndexes

/// World coastlines made ready to draw under a ``MapPicture``'s markers:
/// each polyline in zoom-0 Web Mercator points (`x` east from the
/// antimeridian, `y` south from the top, latitudes clamped at ±85.0511° as
/// the markers' are), with each vertex's Douglas–Peucker significance so a
/// view keeps only the vertices its scale can show.
///
/// A polyline is unwrapped: each step east or west takes the short way, so
/// one that crosses ±180° runs on past 256 (or below 0) instead of jumping
/// across the map; the picture draws every copy of it that the screen shows.
///
/// ```swift
/// let coast = Coastlines(try CoastlineFile(contentsOf: "datasets/coastlines_110m.txt"),
///                        credit: "Natural Earth 1:110m")
/// ```
public struct Coastlines: Sendable {
  /// What the caption names as the outline's source.
  public var credit: String
  /// Map x and y at zoom 0 of every vertex, polyline after polyline.
  var x: [Double]
  var y: [Double]
  /// The largest Douglas–Peucker tolerance, in zoom-0 points, at which the
  /// vertex is still kept; infinite for a polyline's ends. Monotone: a vertex
  /// kept at a tolerance is kept at every smaller one.
  var significance: [Double]
  /// Polyline `i` is vertices `starts[i]..<starts[i + 1]`.
  var starts: [Int]
  /// Each polyline's bounding box at zoom 0.
  var boxes: [Box]

  struct Box: Sendable {
    var minX, minY, maxX, maxY: Double
  }

  /// The polylines of `file`.
  ///
  /// - Complexity: O(*n* log *n*) in the points, O(*n*²) at worst (Douglas–Peucker).
  public init(_ file: CoastlineFile, credit: String) {
    self.init(polylines: (0..<file.polylineCount).map { Array(file.polyline($0)) }, credit: credit)
  }

  /// Polylines of longitude/latitude points (`x` = longitude), each of at
  /// least two points; a shorter one is left out.
  public init(polylines: [[Point]], credit: String) {
    self.credit = credit
    x = []
    y = []
    significance = []
    starts = [0]
    boxes = []
    for line in polylines where line.count >= 2 {
      let first = x.count
      var previous = line[0].x
      var unwrapped = previous
      for p in line {
        // the short way round: a step of more than 180° crosses the antimeridian
        var step = p.x - previous
        if step > 180 { step -= 360 } else if step < -180 { step += 360 }
        unwrapped += step
        previous = p.x
        x.append(WebMercator.x(longitude: unwrapped))
        y.append(WebMercator.y(latitude: p.y))
      }
      significance += Self.significance(x[first...], y[first...])
      starts.append(x.count)
      boxes.append(
        Box(
          minX: x[first...].min()!, minY: y[first...].min()!, maxX: x[first...].max()!,
          maxY: y[first...].max()!))
    }
  }

  public var polylineCount: Int { boxes.count }
  public var pointCount: Int { x.count }

  /// Douglas–Peucker (D. H. Douglas and T. K. Peucker, "Algorithms for the
  /// reduction of the number of points required to represent a digitized
  /// line or its caricature", 1973) run once to the end: each vertex gets
  /// the distance at which it splits its span, capped by its parent span's,
  /// so keeping the vertices of significance `>= t` gives the simplification
  /// at tolerance `t` without running it again per view.
  static func significance(_ xs: ArraySlice<Double>, _ ys: ArraySlice<Double>) -> [Double] {
    let n = xs.count
    let x = Array(xs)
    let y = Array(ys)
    var result = [Double](repeating: 0, count: n)
    result[0] = .infinity
    result[n - 1] = .infinity
    var spans = [(first: 0, last: n - 1, cap: Double.infinity)]
    while let (a, b, cap) = spans.popLast() {
      guard b - a >= 2 else { continue }
      var far = a + 1
      var farthest = -1.0
      for i in (a + 1)..<b {
        let d = distance(x[i], y[i], x[a], y[a], x[b], y[b])
        if d > farthest {
          farthest = d
          far = i
        }
      }
      let s = min(farthest, cap)
      result[far] = s
      spans.append((a, far, s))
      spans.append((far, b, s))
    }
    return result
  }

  /// From (`px`, `py`) to the segment (`ax`, `ay`)–(`bx`, `by`).
  static func distance(
    _ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
  ) -> Double {
    let dx = bx - ax
    let dy = by - ay
    let length2 = dx * dx + dy * dy
    var t = length2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / length2 : 0
    t = min(1, max(0, t))
    let ex = px - (ax + t * dx)
    let ey = py - (ay + t * dy)
    return (ex * ex + ey * ey).squareRoot()
  }
}
