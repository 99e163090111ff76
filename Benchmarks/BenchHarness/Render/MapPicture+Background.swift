import Foundation
import MapClustering
import SpatialIndexes

// What lies under the markers: the map, a graticule, the coastlines, the
// cell grid, the antimeridian, the area beyond its latitudes and, on a
// screen wider than the world, a veil over the copies that carry no markers.

extension MapPicture {
  static let paper = "#f5f3ee"
  static let offMap = "#dedbd4"
  static let graticuleColor = "#d3cec3"
  static let graticuleLabel = "#8c877c"
  static let gridColor = "#3d6bb3"

  /// The screen rows the map covers: above and below it (beyond ±85.05°) is
  /// nothing, as on a map SDK zoomed out further than the world.
  static func mapRows(_ v: Viewport) -> (top: Double, bottom: Double) {
    let b = v.mapBounds
    let world = WebMercator.worldSize(zoom: v.zoom)
    return (max(0, -b.minY), min(v.height, world - b.minY))
  }

  func drawBackground(_ v: Viewport, into svg: inout SVGWriter) {
    let world = WebMercator.worldSize(zoom: v.zoom)
    let rows = Self.mapRows(v)
    svg.element(
      "rect",
      [
        ("x", "0"), ("y", "0"), ("width", fmt(v.width)), ("height", fmt(v.height)),
        ("fill", Self.paper),
      ])
    drawGraticule(v, into: &svg)
    if let coastlines { drawCoastlines(coastlines, v, into: &svg) }
    if let cellSize { drawCellGrid(v, cellSize: cellSize, into: &svg) }
    drawAntimeridian(v, into: &svg)
    // beyond the map's latitudes
    for (top, bottom, text) in [
      (0.0, rows.top, "no map north of 85.05°N"),
      (rows.bottom, v.height, "no map south of 85.05°S"),
    ] where bottom > top {
      svg.element(
        "rect",
        [
          ("class", "off-map"), ("x", "0"), ("y", fmt(top)), ("width", fmt(v.width)),
          ("height", fmt(bottom - top)), ("fill", Self.offMap),
        ])
      if bottom - top >= 24 {
        svg.text(
          text, x: v.width / 2, y: (top + bottom) / 2 + 4,
          attributes: [
            ("text-anchor", "middle"), ("font-size", "11"), ("fill", Self.graticuleLabel),
          ])
      }
    }
    // A screen wider than the world shows it several times; the markers are
    // drawn once, on the copy centred on the screen (`screenPosition(of:)`).
    if world < v.width {
      let west = v.width / 2 - world / 2
      let east = v.width / 2 + world / 2
      for (x0, x1) in [(0.0, west), (east, v.width)] where x1 > x0 {
        svg.element(
          "rect",
          [
            ("class", "veil"), ("x", fmt(x0)), ("y", fmt(rows.top)), ("width", fmt(x1 - x0)),
            ("height", fmt(max(0, rows.bottom - rows.top))), ("fill", "white"),
            ("fill-opacity", "0.6"),
          ])
      }
    }
  }

  /// Meridians and parallels every ``graticuleStep(degreesAcross:)`` degrees,
  /// labelled along the top and left edges.
  private func drawGraticule(_ v: Viewport, into svg: inout SVGWriter) {
    let s = WebMercator.scale(zoom: v.zoom)
    let b = v.mapBounds
    let rows = Self.mapRows(v)
    guard rows.bottom > rows.top else { return }
    let degreesAcross = 360 * v.width / WebMercator.worldSize(zoom: v.zoom)
    let step = Self.graticuleStep(degreesAcross: degreesAcross)
    let decimals = Self.decimals(step)
    svg.open("g", [("class", "graticule")])
    var labels: [(String, Double, Double, String)] = []  // text, x, y, anchor
    // Longitudes unwrapped: `x(longitude:)` is linear, so one pass covers
    // every copy of the world the screen shows.
    let west = WebMercator.longitude(x: b.minX / s)
    let east = WebMercator.longitude(x: b.maxX / s)
    let first = (west / step).rounded(.up)
    let last = (east / step).rounded(.down)
    if last >= first && last - first < 2_000 {
      for k in Int(first)...Int(last) {
        let lon = Double(k) * step
        if Self.isAntimeridian(lon, tolerance: step / 1_000) { continue }  // drawn on its own
        let x = WebMercator.x(longitude: lon) * s - b.minX
        svg.element("line", Self.line(x, rows.top, x, rows.bottom, Self.graticuleColor, width: 0.8))
        // a label cut by the right edge says nothing
        if x < v.width - 40 {
          labels.append((Self.longitudeLabel(lon, decimals), x + 3, rows.top + 12, "start"))
        }
      }
    }
    let north = WebMercator.latitude(y: (b.minY + rows.top) / s)
    let south = WebMercator.latitude(y: (b.minY + rows.bottom) / s)
    let low = (south / step).rounded(.up)
    let high = (north / step).rounded(.down)
    if high >= low && high - low < 2_000 {
      for k in Int(low)...Int(high) {
        let lat = Double(k) * step
        guard abs(lat) < WebMercator.maxLatitude else { continue }
        let y = WebMercator.y(latitude: lat) * s - b.minY
        svg.element("line", Self.line(0, y, v.width, y, Self.graticuleColor, width: 0.8))
        labels.append((Self.latitudeLabel(lat, decimals), 3, y - 3, "start"))
      }
    }
    for (text, x, y, anchor) in labels {
      svg.text(
        text, x: x, y: y,
        attributes: [("font-size", "10"), ("fill", Self.graticuleLabel), ("text-anchor", anchor)])
    }
    svg.close("g")
  }

  /// The antimeridian, dashed: where the viewport's query splits into two
  /// rectangles (and, when the screen is wider than the world, where each
  /// copy of it ends).
  private func drawAntimeridian(_ v: Viewport, into svg: inout SVGWriter) {
    let world = WebMercator.worldSize(zoom: v.zoom)
    let b = v.mapBounds
    let rows = Self.mapRows(v)
    guard rows.bottom > rows.top else { return }
    var j = (b.minX / world).rounded(.up)
    while j * world <= b.maxX {
      let x = j * world - b.minX
      svg.element(
        "line",
        Self.line(x, rows.top, x, rows.bottom, "#8c877c", width: 1.2)
          + [("class", "antimeridian"), ("stroke-dasharray", "5 4")])
      svg.text(
        "180°", x: x + 3, y: rows.bottom - 6,
        attributes: [("font-size", "10"), ("fill", Self.graticuleLabel)])
      j += 1
    }
  }

  /// The clustering cells: squares of `cellSize` points aligned to the
  /// world map at this zoom (the last column of each copy of the world is
  /// partial when the size does not divide the world's width).
  private func drawCellGrid(_ v: Viewport, cellSize c: Double, into svg: inout SVGWriter) {
    let world = WebMercator.worldSize(zoom: v.zoom)
    let b = v.mapBounds
    let rows = Self.mapRows(v)
    guard c > 0, rows.bottom > rows.top, v.width / c < 20_000, v.height / c < 20_000 else { return }
    // dashed, so the cells stand apart from the graticule
    svg.open(
      "g",
      [
        ("class", "cell-grid"), ("stroke", Self.gridColor), ("stroke-opacity", "0.45"),
        ("stroke-dasharray", "4 3"),
      ])
    let columnsPerWorld = (world / c).rounded(.up)
    var j = (b.minX / world).rounded(.down)
    while j * world <= b.maxX {
      let origin = j * world - b.minX  // screen x of this copy's 180°W
      let kLow = max(0, (-origin / c).rounded(.up))
      let kHigh = min(columnsPerWorld - 1, ((v.width - origin) / c).rounded(.down))
      if kHigh >= kLow {
        for k in Int(kLow)...Int(kHigh) {
          let x = origin + Double(k) * c
          svg.element("line", Self.line(x, rows.top, x, rows.bottom, nil, width: 0.9))
        }
      }
      j += 1
    }
    let rLow = max(0, (b.minY / c).rounded(.up))
    let rHigh = (min(world, b.maxY) / c).rounded(.down)
    if rHigh >= rLow {
      for r in Int(rLow)...Int(rHigh) {
        let y = Double(r) * c - b.minY
        svg.element("line", Self.line(0, y, v.width, y, nil, width: 0.9))
      }
    }
    svg.close("g")
  }

  // MARK: - Helpers

  static func line(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ color: String?, width: Double
  ) -> [(String, String)] {
    [("x1", fmt(x1)), ("y1", fmt(y1)), ("x2", fmt(x2)), ("y2", fmt(y2))]
      + (color.map { [("stroke", $0)] } ?? []) + [("stroke-width", fmt(width))]
  }

  /// The largest of 90°, 45°, 30°, 20°, 10°, 5°, 2°, 1°, 0.5° … 0.00001°
  /// that draws at least three meridians across the screen.
  static func graticuleStep(degreesAcross: Double) -> Double {
    var steps: [Double] = [90, 45, 30, 20, 10]
    var p = 1.0
    for _ in 0..<6 {
      steps += [5 * p, 2 * p, p]
      p /= 10
    }
    return steps.first { degreesAcross / $0 >= 3 } ?? steps.last!
  }

  /// Decimals a label needs at `step` degrees: 0 from 1°, 1 for 0.5°–0.1°…
  static func decimals(_ step: Double) -> Int {
    max(0, -Int(Foundation.floor(Foundation.log10(step) + 1e-9)))
  }

  static func isAntimeridian(_ longitude: Double, tolerance: Double) -> Bool {
    abs(Foundation.remainder(longitude - 180, 360)) < tolerance
  }

  /// `10°E`, `2.5°W`, `0°`; unwrapped longitudes are wrapped first.
  static func longitudeLabel(_ longitude: Double, _ decimals: Int) -> String {
    hemisphere(WebMercator.wrappedLongitude(longitude), decimals, "E", "W")
  }

  /// `48.5°N`, `20°S`, `0°`.
  static func latitudeLabel(_ latitude: Double, _ decimals: Int) -> String {
    hemisphere(latitude, decimals, "N", "S")
  }

  private static func hemisphere(_ value: Double, _ decimals: Int, _ plus: String, _ minus: String)
    -> String
  {
    let text = String(format: "%.\(decimals)f", abs(value))
    if Double(text) == 0 { return "0°" }
    return text + "°" + (value > 0 ? plus : minus)
  }
}
