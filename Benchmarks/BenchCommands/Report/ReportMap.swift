import BenchHarness
import BenchWorkloads
import Foundation
import MapClustering
import SpatialIndexes

/// The cluster map an HTML report shows: the whole dataset in one view, at
/// the largest zoom whose screen (at most 800 × 500 points) holds its extent,
/// clustered through `index`.
enum ReportMap {
  static let maximumSize = (width: 800.0, height: 500.0)

  static func svg(_ dataset: LoadedDataset, index: String, strategy: ClusterStrategy) throws -> String {
    var options = RenderOptions()
    options.dataset = dataset.name
    options.index = index
    options.strategy = strategy
    let view = fit(dataset.points)
    options.center = view.center
    options.zoom = view.zoom
    options.size = view.size
    return try RenderScene.picture(options, dataset: dataset).render()
  }

  /// The centre, zoom and screen size that show every point of `points`
  /// (the world at zoom 1 when they span more than half of it).
  static func fit(_ points: [Point]) -> (center: Point, zoom: Int, size: (width: Double, height: Double)) {
    var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
    for p in points {
      let x = WebMercator.x(longitude: p.x), y = WebMercator.y(latitude: p.y)
      minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
    }
    guard minX <= maxX else { return (Point(x: 0, y: 0), 1, (512, 512)) }
    var zoom = 1
    // zoom 0 is 256 points wide: the largest zoom at which the extent fits, up to 16
    while zoom < 16 {
      let scale = Double(1 << (zoom + 1))
      guard (maxX - minX) * scale <= maximumSize.width * 0.9, (maxY - minY) * scale <= maximumSize.height * 0.9
      else { break }
      zoom += 1
    }
    let world = 256 * Double(1 << zoom)
    let size = (min(maximumSize.width, world), min(maximumSize.height, world))
    let center = Point(x: WebMercator.longitude(x: (minX + maxX) / 2), y: WebMercator.latitude(y: (minY + maxY) / 2))
    return (center, zoom, size)
  }
}
