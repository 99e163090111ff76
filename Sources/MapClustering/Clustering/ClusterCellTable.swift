import SpatialIndexes

/// The side of a clustering cell, in screen points, at each zoom level.
///
/// The default follows the original design: 64 points at zooms 13–15, 32 at
/// 16–18, 16 at 19 and 88 at every other zoom. A cell is a square of that
/// side in the map's pixel space at the zoom, aligned to the world map (see
/// ``Clusterer``).
///
/// ```swift
/// let table = try ClusterCellTable(otherwise: 100, bands: [(zooms: 10...12, size: 50)])
/// table.cellSize(zoom: 11)  // 50
/// table.cellSize(zoom: 3)   // 100
/// ```
public struct ClusterCellTable: Hashable, Sendable {
  /// The highest zoom a band may name; zooms above it use ``otherwise``.
  package static let maximumBandZoom = WebMercator.zoomRange.upperBound

  /// The largest cell side allowed, in points.
  public static let maximumCellSize = 65536.0

  static func isValidSize(_ size: Double) -> Bool {
    size >= 1 && size <= maximumCellSize && size == size.rounded()
  }

  /// The size at every zoom no band names.
  @usableFromInline package let otherwise: Double
  /// The size by zoom, for zooms `0..<sizes.count`.
  @usableFromInline let sizes: [Double]

  /// A table with `size` at the zooms of each band (later bands win where
  /// two overlap) and `otherwise` at every other zoom.
  ///
  /// Sizes must be whole numbers of points in `1...maximumCellSize` (cell
  /// edges are then exact in floating point); band zooms must lie in
  /// ``WebMercator/zoomRange``.
  ///
  /// - Throws: ``ClusteringError/invalidCellSize(_:)``,
  ///   ``ClusteringError/invalidBandZooms(_:)``.
  public init(otherwise: Double, bands: [(zooms: ClosedRange<Int>, size: Double)]) throws(ClusteringError) {
    guard Self.isValidSize(otherwise) else { throw .invalidCellSize(otherwise) }
    for band in bands {
      guard Self.isValidSize(band.size) else { throw .invalidCellSize(band.size) }
      guard band.zooms.lowerBound >= 0 && band.zooms.upperBound <= Self.maximumBandZoom else {
        throw .invalidBandZooms(band.zooms)
      }
    }
    let top = bands.map(\.zooms.upperBound).max() ?? -1
    var sizes = [Double](repeating: otherwise, count: top + 1)
    for band in bands {
      for z in band.zooms { sizes[z] = band.size }
    }
    self.otherwise = otherwise
    self.sizes = sizes
  }

  /// The original design's table: 64 at zooms 13–15, 32 at 16–18, 16 at 19, 88 otherwise.
  public static let `default` = try! ClusterCellTable(  // constant sizes: cannot throw
    otherwise: 88, bands: [(zooms: 13...15, size: 64), (zooms: 16...18, size: 32), (zooms: 19...19, size: 16)])

  /// The cell side in screen points at `zoom`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func cellSize(zoom: Int) -> Double {
    zoom >= 0 && zoom < sizes.count ? sizes[zoom] : otherwise
  }
}
