import SpatialIndexes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies a marker from one step to the next: its zoom, its cell
/// and its count.
///
/// The original identified a marker by its position alone, so a cluster whose
/// count changed was "kept" with a stale label. With the count in the key, a
/// count change is a removal plus an addition and the label is redrawn.
///
/// Keys order by zoom, then row, then column, then count: the order in which
/// ``Clusterer`` emits the markers of one step. An app compares keys (they
/// are `Hashable` and `Comparable`) and reads the count from
/// ``ClusterMarker/count``; the parts are `package`.
@frozen
public struct MarkerKey: Hashable, Comparable, Sendable {
  /// The zoom level of the step that made the marker.
  @usableFromInline package var zoom: Int
  /// The cell's column: `floor(map x · 2^zoom / cell size)`, map x at zoom 0 in [0, 256].
  @usableFromInline package var column: Int
  /// The cell's row: `floor(map y · 2^zoom / cell size)`, map y at zoom 0 in [0, 256].
  @usableFromInline package var row: Int
  /// How many points the marker stands for.
  @usableFromInline package var count: Int

  @inlinable
  package init(zoom: Int, column: Int, row: Int, count: Int) {
    self.zoom = zoom
    self.column = column
    self.row = row
    self.count = count
  }

  /// By zoom, then row, then column, then count.
  @inlinable
  public static func < (a: Self, b: Self) -> Bool {
    if a.zoom != b.zoom { return a.zoom < b.zoom }
    if a.row != b.row { return a.row < b.row }
    if a.column != b.column { return a.column < b.column }
    return a.count < b.count
  }

  /// The key as ``ClusterMarker``'s description and the bench's messages write it.
  package var description: String { "z\(zoom)/c\(column)/r\(row)×\(count)" }
}

/// One marker on the map: the points of one grid cell, merged.
///
/// A marker for one point is that point: ``id`` names it and ``coordinate``
/// is its exact position. A marker for several points sits at the mean of
/// their latitudes and longitudes, computed in units of 1e-7° from integer
/// sums, so it is the same, bit for bit, whatever index or strategy
/// produced it. `longitudeE7` and `latitudeE7` (`package`) hold that
/// fixed-point position for every marker (for one point, its coordinate
/// rounded to 1e-7°): what `bench query --workload cluster` writes.
@frozen
public struct ClusterMarker: Hashable, Sendable, CustomStringConvertible {
  /// Zoom, cell and count: the marker's identity for ``MarkerDiff``.
  public var key: MarkerKey
  /// The mean position (`x` = longitude, `y` = latitude), or the point itself.
  public var coordinate: Point
  /// The point's id when the marker stands for one point, else `nil`.
  public var id: Int32?
  /// The position in ``FixedPoint`` units: the rounded mean, or the point's
  /// rounded coordinates.
  @usableFromInline package var longitudeE7: Int32
  /// See ``longitudeE7``.
  @usableFromInline package var latitudeE7: Int32

  /// A marker for several points whose mean is (`longitudeE7`, `latitudeE7`).
  @inlinable
  package init(key: MarkerKey, longitudeE7: Int32, latitudeE7: Int32) {
    self.key = key
    self.longitudeE7 = longitudeE7
    self.latitudeE7 = latitudeE7
    coordinate = Point(x: FixedPoint.degrees(longitudeE7), y: FixedPoint.degrees(latitudeE7))
    id = nil
  }

  /// A marker for the one point `id` at `point`, whose fixed-point position is
  /// (`longitudeE7`, `latitudeE7`).
  @inlinable
  package init(key: MarkerKey, longitudeE7: Int32, latitudeE7: Int32, point: Point, id: Int32) {
    self.key = key
    self.longitudeE7 = longitudeE7
    self.latitudeE7 = latitudeE7
    coordinate = point
    self.id = id
  }

  /// A marker at `coordinate`, its fixed-point position that coordinate rounded.
  @inlinable
  package init(key: MarkerKey, coordinate: Point, id: Int32?) {
    self.key = key
    self.coordinate = coordinate
    self.id = id
    longitudeE7 = FixedPoint.units(coordinate.x)
    latitudeE7 = FixedPoint.units(coordinate.y)
  }

  /// How many points the marker stands for.
  @inlinable public var count: Int { key.count }

  /// The marker's side in screen points (see ``markerSide(count:)``).
  @inlinable public var side: Int { ClusterMarker.markerSide(count: key.count) }

  /// The key (`z5/c16/r11×3`: zoom, column, row, count), the coordinate
  /// and, for one point, its id.
  public var description: String {
    "\(key.description) at \(coordinate)\(id.map { " id \($0)" } ?? "")"
  }

  /// The side of a marker for `count` points, in screen points, as the
  /// original: `round(44 / (1 + exp(−0.3 · count^0.4)))`. One point gives
  /// 25; the side grows with the count and reaches 44 at 856 points.
  ///
  /// - Complexity: O(1): a table lookup below 1024 points.
  @inlinable
  package static func markerSide(count: Int) -> Int {
    if count >= 0 && count < _sideTable.count { return Int(_sideTable[count]) }
    return count < 0 ? markerSideFormula(count: 0) : 44
  }

  /// ``markerSide(count:)`` evaluated from the formula (no table).
  @usableFromInline
  package static func markerSideFormula(count: Int) -> Int {
    let n = Double(max(0, count))
    return Int((44 / (1 + exp(-0.3 * pow(n, 0.4)))).rounded())
  }

  /// The formula for counts 0..<1024; the side is 44 from 856 on, and the
  /// formula increases with the count, so larger counts need no entry.
  @usableFromInline
  static let _sideTable: [UInt8] = (0..<1024).map { UInt8(markerSideFormula(count: $0)) }
}
