import MapClustering
import SpatialIndexes

// The world's coastlines under the markers, so a reader sees where they are.

extension MapPicture {
  /// Thin and grey-blue: the coast says where, the markers stay the figure.
  static let coastColor = "#8d9aa8"
  static let coastWidth = 0.8
  /// On the screen, in points: a vertex that moves the line less than this
  /// is left out (at zoom 0 most of the 1:110m outline's vertices are; from
  /// zoom 5 on, few). A world view's SVG stays small so.
  static let coastTolerance = 0.75
  /// A polyline whose box is smaller than this both ways on the screen, in
  /// points, is left out: an islet at zoom 0 would be a speck.
  static let smallestCoast = 2.0
  /// How far beyond the screen's edges a line is drawn before it is cut, in
  /// points: its stroke's end stays out of sight.
  static let coastMargin = 2.0

  /// The part of `coast` this screen shows, as one `<path>` a polyline (a
  /// polyline's path holds a subpath for each stretch on screen), in a
  /// `<g class="coastlines">`; no group when no coast is in view. Every copy of the world the screen shows gets
  /// its coastlines, as it gets its meridians: across the antimeridian, and
  /// at zoom 0 on a screen wider than the world. Nothing off the screen is
  /// written: segments are cut at its edges (plus ``coastMargin``).
  ///
  /// - Complexity: O(copies × polylines + the vertices of the polylines in view).
  func drawCoastlines(_ coast: Coastlines, _ v: Viewport, into svg: inout SVGWriter) {
    let s = WebMercator.scale(zoom: v.zoom)
    let b = v.mapBounds
    let pad = Self.coastMargin
    // the screen (and its margin) at zoom 0
    let west = (b.minX - pad) / s
    let east = (b.maxX + pad) / s
    let north = (b.minY - pad) / s
    let south = (b.maxY + pad) / s
    guard let minX = coast.boxes.map(\.minX).min(), let maxX = coast.boxes.map(\.maxX).max(),
      west.isFinite, east.isFinite
    else { return }
    // the copies of the world, 256 zoom-0 points apart, that reach the screen
    let first = ((west - maxX) / 256).rounded(.down)
    let last = ((east - minX) / 256).rounded(.up)
    guard last - first < 1_000 else { return }
    let tolerance = Self.coastTolerance / s
    let clip = (minX: -pad, minY: -pad, maxX: v.width + pad, maxY: v.height + pad)
    var paths: [String] = []
    for j in Int(first)...Int(last) {
      let shift = 256 * Double(j)
      for (i, box) in coast.boxes.enumerated() {
        guard box.maxX + shift >= west, box.minX + shift <= east, box.maxY >= north,
          box.minY <= south
        else { continue }
        if (box.maxX - box.minX) * s < Self.smallestCoast
          && (box.maxY - box.minY) * s < Self.smallestCoast
        {
          continue
        }
        var path = CoastPath(clip: clip)
        for k in coast.starts[i]..<coast.starts[i + 1] where coast.significance[k] >= tolerance {
          path.add(x: (coast.x[k] + shift) * s - b.minX, y: coast.y[k] * s - b.minY)
        }
        if !path.d.isEmpty { paths.append(path.d) }
      }
    }
    guard !paths.isEmpty else { return }
    svg.open(
      "g",
      [
        ("class", "coastlines"), ("fill", "none"), ("stroke", Self.coastColor),
        ("stroke-width", fmt(Self.coastWidth)), ("stroke-linejoin", "round"),
        ("stroke-linecap", "round"),
      ])
    for d in paths { svg.element("path", [("d", d)]) }
    svg.close("g")
  }
}

/// A polyline's screen points turned into SVG path data, each segment cut to
/// the clip rectangle (Liang–Barsky): a stretch that leaves it ends its
/// subpath, one that comes back starts another with `M`.
///
/// Positions are rounded to a tenth of a point, finer than the line's
/// width. A subpath starts at an absolute `M x y`, then goes on in steps
/// from the rounded position before (`l dx dy …`): shorter than absolute
/// positions, and no rounding adds up. A step that rounds to nothing is left
/// out.
struct CoastPath {
  let clip: (minX: Double, minY: Double, maxX: Double, maxY: Double)
  private(set) var d = ""
  private var previous: (x: Double, y: Double)? = nil
  /// The subpath being written ends at `previous`.
  private var penAtPrevious = false
  /// Where the pen is, in tenths of a point.
  private var pen = (x: 0, y: 0)
  /// The subpath's steps have begun (its `l` is written).
  private var stepping = false

  init(clip: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
    self.clip = clip
  }

  mutating func add(x: Double, y: Double) {
    defer { previous = (x, y) }
    guard let p = previous else { return }
    guard let (t0, t1) = cut(p.x, p.y, x, y) else {
      penAtPrevious = false
      return
    }
    let dx = x - p.x
    let dy = y - p.y
    if t0 > 0 || !penAtPrevious {
      pen = (Self.tenths(p.x + t0 * dx), Self.tenths(p.y + t0 * dy))
      d += (d.isEmpty ? "M" : " M") + Self.text(pen.x) + Self.separated(Self.text(pen.y))
      stepping = false
    }
    let to = (x: Self.tenths(p.x + t1 * dx), y: Self.tenths(p.y + t1 * dy))
    if to != pen {
      let step = Self.text(to.x - pen.x)
      d += stepping ? Self.separated(step) : "l" + step
      d += Self.separated(Self.text(to.y - pen.y))
      stepping = true
      pen = to
    }
    penAtPrevious = t1 == 1
  }

  /// The part of the segment inside the clip rectangle, as parameters
  /// 0 ≤ t0 ≤ t1 ≤ 1; nil when none is.
  private func cut(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> (Double, Double)? {
    var t0 = 0.0
    var t1 = 1.0
    let dx = x1 - x0
    let dy = y1 - y0
    for (p, q) in [
      (-dx, x0 - clip.minX), (dx, clip.maxX - x0), (-dy, y0 - clip.minY), (dy, clip.maxY - y0),
    ] {
      if p == 0 {
        if q < 0 { return nil }  // parallel to this edge, outside it
        continue
      }
      let r = q / p
      if p < 0 {
        if r > t1 { return nil }
        t0 = max(t0, r)
      } else {
        if r < t0 { return nil }
        t1 = min(t1, r)
      }
    }
    return (t0, t1)
  }

  /// A position in whole tenths of a point. The clip keeps it within the
  /// screen and its margin.
  static func tenths(_ value: Double) -> Int {
    let t = (value * 10).rounded()
    return t.isFinite && abs(t) < 1e15 ? Int(t) : 0
  }

  /// Tenths as SVG writes a number, short: `12.5`, `-3`, `.4`, `-.4`.
  static func text(_ tenths: Int) -> String {
    let whole = abs(tenths) / 10
    let fraction = abs(tenths) % 10
    let sign = tenths < 0 ? "-" : ""
    if fraction == 0 { return sign + String(whole) }
    return sign + (whole == 0 ? "" : String(whole)) + "." + String(fraction)
  }

  /// `number` after another: a minus sign separates it already, else a space.
  static func separated(_ number: String) -> String {
    number.hasPrefix("-") ? number : " " + number
  }
}
