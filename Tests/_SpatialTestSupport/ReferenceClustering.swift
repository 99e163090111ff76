import MapClustering
import SpatialIndexes

/// Grid clustering worked out from the documented rule alone (the cluster
/// answers in results/README.md), point by point: no index, no stored cell
/// number, none of the library's cell arithmetic. Every index and strategy
/// must give these markers, bit for bit.
///
/// - A point is shown when its longitude lies in [−180, 180] and its
///   latitude in ``WebMercator/latitudeRange``. It is in view when one of
///   the area's rectangles holds its own coordinates (bounds inclusive).
/// - Its cell is `⌊x · 2^z / c⌋`, `⌊y · 2^z / c⌋` of its Web Mercator
///   position at zoom 0, `c` the cell side. Cells are half-open: a point on
///   an edge belongs to the cell east (or south) of it.
/// - Map x 256 (+180°) is the meridian of map x 0 (−180°), and east of it
///   lies −180°: at every zoom a point whose map x is 256 is binned, and
///   averaged, as if it were at −180°.
/// - A marker's position is the mean of its points' coordinates in 1e-7°
///   units (each rounded to the nearest unit, halves away from zero),
///   rounded the same way. A one-point marker is its point (at −180° when it
///   lies at +180°) and names it.
/// - Markers come by row (north to south), then column.
package enum ReferenceClustering {
  /// The markers of `area`.
  package static func markers(
    _ points: [Point], area: VisibleArea, table: ClusterCellTable = .default
  ) -> [ClusterMarker] {
    // the clusterer takes the zoom into the range it handles
    let zoom = min(WebMercator.zoomRange.upperBound, max(WebMercator.zoomRange.lowerBound, area.zoom))
    let s = WebMercator.scale(zoom: zoom), c = table.cellSize(zoom: zoom)
    let rects = area.isEmpty ? [] : area.rects
    var cells: [Cell: Sum] = [:]
    for (i, p) in points.enumerated() {
      let shown = p.x >= -180 && p.x <= 180 && WebMercator.latitudeRange.contains(p.y)
      guard shown, rects.contains(where: { $0.contains(p) }) else { continue }
      let lon = atAntimeridian(p) ? -180 : p.x
      let cell = Cell(row: floor(WebMercator.y(latitude: p.y) * s, c),
                      column: floor(WebMercator.x(longitude: lon) * s, c))
      var sum = cells[cell] ?? Sum()
      sum.count += 1
      sum.lon += units(lon)
      sum.lat += units(p.y)
      sum.last = (Int32(i), Point(x: lon, y: p.y))
      cells[cell] = sum
    }
    return cells.keys.sorted().map { cell in
      let sum = cells[cell]!
      let key = MarkerKey(zoom: zoom, column: cell.column, row: cell.row, count: sum.count)
      if sum.count == 1 {
        return ClusterMarker(key: key, longitudeE7: Int32(sum.lon), latitudeE7: Int32(sum.lat),
                             point: sum.last.point, id: sum.last.id)
      }
      return ClusterMarker(key: key, longitudeE7: mean(sum.lon, sum.count), latitudeE7: mean(sum.lat, sum.count))
    }
  }

  /// The markers of `viewport`.
  package static func markers(
    _ points: [Point], viewport: Viewport, table: ClusterCellTable = .default
  ) -> [ClusterMarker] {
    markers(points, area: viewport.visibleArea, table: table)
  }

  /// The cell (`column`, `row`) of `p` at `zoom`, by the rule above.
  package static func cell(of p: Point, zoom: Int, table: ClusterCellTable = .default) -> (column: Int, row: Int) {
    let s = WebMercator.scale(zoom: zoom), c = table.cellSize(zoom: zoom)
    return (floor(WebMercator.x(longitude: atAntimeridian(p) ? -180 : p.x) * s, c),
            floor(WebMercator.y(latitude: p.y) * s, c))
  }

  /// Whether `p` lies at map x 256: +180°, or a longitude a rounding below.
  private static func atAntimeridian(_ p: Point) -> Bool { WebMercator.x(longitude: p.x) == 256 }

  private struct Cell: Hashable, Comparable {
    var row: Int
    var column: Int
    static func < (a: Cell, b: Cell) -> Bool { (a.row, a.column) < (b.row, b.column) }
  }

  private struct Sum {
    var count = 0
    var lon: Int64 = 0
    var lat: Int64 = 0
    var last: (id: Int32, point: Point) = (0, Point(x: 0, y: 0))
  }

  /// The largest whole `t` with `t · c ≤ d`: `d` is a map position times a
  /// power of two and `c` a whole number, so the products compared are exact.
  private static func floor(_ d: Double, _ c: Double) -> Int {
    var t = Int((d / c).rounded(.down))
    while Double(t) * c > d { t -= 1 }
    while Double(t + 1) * c <= d { t += 1 }
    return t
  }

  /// Degrees in 1e-7° units, to the nearest, halves away from zero.
  private static func units(_ degrees: Double) -> Int64 { Int64((degrees * 1e7).rounded()) }

  /// `sum / count` to the nearest whole number, halves away from zero, in integers.
  private static func mean(_ sum: Int64, _ count: Int) -> Int32 {
    let n = UInt64(count)
    let q = (2 * sum.magnitude + n) / (2 * n)
    return Int32(sum < 0 ? -Int64(q) : Int64(q))
  }
}
