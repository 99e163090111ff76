import MapClustering
import SpatialIndexes

extension Fixtures {
  /// Points exactly on cell edges (both axes) of the default table at several
  /// zooms, around a few places, plus their neighbours one cell away.
  package static func cellEdges(table: ClusterCellTable = .default) -> [Point] {
    var points: [Point] = []
    for (z, lon0, lat0) in [(2, 10.0, 45.0), (5, -100.0, 30.0), (10, 150.0, -30.0),
                            (14, 2.0, 48.0), (17, -0.5, 51.0), (19, 179.99, 5.0), (8, -179.0, 0.0)] {
      let s = WebMercator.scale(zoom: z), c = table.cellSize(zoom: z)
      let col0 = Int((WebMercator.x(longitude: lon0) * s / c).rounded(.down))
      let row0 = Int((WebMercator.y(latitude: lat0) * s / c).rounded(.down))
      for dc in 0..<4 {
        for dr in 0..<4 {
          guard let lon = edgeLongitude(column: col0 + dc, zoom: z, cellSize: c),
                let lat = edgeLatitude(row: row0 + dr, zoom: z, cellSize: c) else { continue }
          points.append(Point(x: lon, y: lat))
          points.append(Point(x: lon, y: lat))  // a duplicate on the corner
        }
      }
    }
    return points
  }

  /// A longitude whose map x · 2^z / c is exactly `column`, if one is found.
  package static func edgeLongitude(column: Int, zoom: Int, cellSize c: Double) -> Double? {
    let s = WebMercator.scale(zoom: zoom)
    return exactEdge(start: WebMercator.longitude(x: Double(column) * c / s), target: Double(column)) {
      WebMercator.x(longitude: $0) * s / c
    }
  }

  /// A latitude whose map y · 2^z / c is exactly `row`, if one is found.
  package static func edgeLatitude(row: Int, zoom: Int, cellSize c: Double) -> Double? {
    let s = WebMercator.scale(zoom: zoom)
    return exactEdge(start: WebMercator.latitude(y: Double(row) * c / s), target: Double(row)) {
      WebMercator.y(latitude: $0) * s / c
    }
  }

  /// Walks a few ulps either way from `start` for a value `f` maps exactly to `target`.
  package static func exactEdge(start: Double, target: Double, _ f: (Double) -> Double) -> Double? {
    var up = start, down = start
    for _ in 0..<200 {
      if f(up) == target { return up }
      if f(down) == target { return down }
      up = up.nextUp
      down = down.nextDown
    }
    return nil
  }
}
