import BenchFormats
import MapClustering
import SpatialIndexes

/// **cluster**: one marker per cell that holds points in view, by row
/// (north to south), then column.
///
/// - A point is in view when it lies inside one of the step's rectangles
///   (edges included; the rectangles are cut to the map).
/// - Its cell is `⌊x · 2^zoom / c⌋`, `⌊y · 2^zoom / c⌋`, `x` and `y` its Web
///   Mercator position at zoom 0, `c` the cell side of the zoom: cells are
///   half-open, so a point on an edge is in the cell east or south of it.
/// - +180° is the meridian of −180°: at every zoom and whatever the box, a
///   point at +180° is in `cell_x` 0 and averaged as −180°. A point is at +180° when its map `x` is
///   256: +180° itself, or a longitude a rounding below it (179.99999999999997
///   projects to 256 exactly), which lies on that meridian for the cells.
/// - The marker's count is its cell's points in view; its position each
///   coordinate rounded to 1e-7° (halves away from zero), summed, the sum
///   over the count rounded the same way; a one-point marker is its point,
///   rounded, with its id.
/// - With a filter, only the points that pass it count: a cell with none
///   has no marker. Whether a point passes is the compiled filter's answer
///   (``PropertyQuery/matches(_:)``, checked against a reference of the
///   grammar in the library's tests).
/// - Each aggregate is worked out over the marker's points that have a
///   value, from the property's units: the sum exact (in 128 bits), the
///   least, the greatest; empty when no point has a value.
public enum ClusterRule: AnswerRule {
  public static let workload = ClusterWorkload.name

  /// The markers of the points that pass each step's filter, and their
  /// aggregates.
  public static func answers(_ data: WorkloadData, variant: String) -> [ClusterAnswer] {
    (data.steps.areas ?? []).enumerated().map { step, area in
      answer(of: area, data, query: data.filter?.filterQuery(step: step), aggregates: data.filter?.aggregates ?? [])
    }
  }

  /// The markers of `area` over the points of `data` that `query` keeps
  /// (every point when nil), with their ids in the points file, and each
  /// marker's `aggregates` in order.
  static func answer(
    of area: VisibleArea, _ data: WorkloadData, query: PropertyQuery?, aggregates: [ClusterAggregate]
  ) -> ClusterAnswer {
    let kept = data.points.indices.filter { query?.matches(Int32($0)) ?? true }
    let (found, members) = cells(of: area, points: kept.map { data.points[$0] }, cellTable: data.cellTable)
    var answer = ClusterAnswer(markers: found.map { m in
      var m = m
      if let id = m.id { m.id = Int32(kept[Int(id)]) }
      return m
    })
    for list in members {
      for a in aggregates { answer.aggregates.append(aggregate(a, of: list.map { kept[$0] }, data.properties)) }
    }
    return answer
  }

  /// Aggregate `a` of the points `ids`, from their units one by one.
  static func aggregate(_ a: ClusterAggregate, of ids: [Int], _ properties: PropertyTable) -> AggregateValue {
    let column = properties.decimal(a.field)
    let scale = column?.scale ?? 0
    let values = ids.compactMap { i in column.flatMap { $0.units[i] == DecimalColumn.missing ? nil : $0.units[i] } }
    guard let least = values.min(), let greatest = values.max() else {
      return AggregateValue(high: 0, low: 0, scale: scale, isEmpty: true)
    }
    func exact(_ u: Int64) -> AggregateValue {
      AggregateValue(high: u < 0 ? -1 : 0, low: UInt64(bitPattern: u), scale: scale, isEmpty: false)
    }
    switch a {
    case .min: return exact(least)
    case .max: return exact(greatest)
    case .sum:
      // the upper and lower 32 bits summed apart (neither can overflow
      // below 2^31 points), then joined: upper · 2^32 + lower in 128 bits
      var upper: Int64 = 0, lower: UInt64 = 0
      for u in values {
        upper += u >> 32
        lower += UInt64(bitPattern: u) & 0xFFFF_FFFF
      }
      var high = upper >> 32
      let (low, carry) = (UInt64(bitPattern: upper) << 32).addingReportingOverflow(lower)
      if carry { high += 1 }
      return AggregateValue(high: high, low: low, scale: scale, isEmpty: false)
    }
  }

  /// Equal in what the answer file writes: the cell, the count, the position
  /// in 1e-7°, the id and the aggregates.
  public static func allows(
    _ got: ClusterAnswer, expected: ClusterAnswer, step: Int, data: WorkloadData, variant: String
  ) -> Bool {
    got.markers.map(Row.init) == expected.markers.map(Row.init) && got.aggregates == expected.aggregates
  }

  /// A marker as the answer file writes it.
  struct Row: Equatable {
    var column: Int, row: Int, count: Int
    var latE7: Int32, lonE7: Int32
    var id: Int32?

    init(_ m: ClusterMarker) {
      (column, row, count) = (m.key.column, m.key.row, m.key.count)
      (latE7, lonE7, id) = (m.latitudeE7, m.longitudeE7, m.id)
    }
  }

  /// The markers of `area` over `points`.
  static func markers(
    of area: VisibleArea, points: [Point], cellTable: ClusterCellTable
  ) -> [ClusterMarker] {
    cells(of: area, points: points, cellTable: cellTable).markers
  }

  /// The markers of `area` over `points`, and each marker's points (their
  /// positions in `points`).
  static func cells(
    of area: VisibleArea, points: [Point], cellTable: ClusterCellTable
  ) -> (markers: [ClusterMarker], members: [[Int]]) {
    let zoom = min(WebMercator.zoomRange.upperBound, max(0, area.zoom))
    let scale = WebMercator.scale(zoom: zoom), side = cellTable.cellSize(zoom: zoom)
    func cell(_ map: Double) -> Int { floorOfQuotient(map * scale, side) }
    let rects = area.rects.filter(\.isValid)
    var cells: [SIMD2<Int>: (count: Int, lon: Int64, lat: Int64, id: Int32, point: Point, members: [Int])] = [:]
    for (i, p) in points.enumerated() {
      guard rects.contains(where: { p.x >= $0.minX && p.x <= $0.maxX && p.y >= $0.minY && p.y <= $0.maxY })
      else { continue }
      var q = p
      var column = cell(WebMercator.x(longitude: p.x))
      if WebMercator.x(longitude: p.x) == 256 {
        q.x = -180
        column = 0
      }
      let key = SIMD2(cell(WebMercator.y(latitude: p.y)), column)
      var t = cells[key] ?? (0, 0, 0, Int32(i), q, [])
      t.count += 1
      t.members.append(i)
      t.lon += units(q.x)
      t.lat += units(q.y)
      cells[key] = t
    }
    let keys = cells.keys.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
    let markers = keys.map { key in
      let t = cells[key]!
      let marker = MarkerKey(zoom: zoom, column: key.y, row: key.x, count: t.count)
      if t.count == 1 {
        return ClusterMarker(
          key: marker, longitudeE7: Int32(t.lon), latitudeE7: Int32(t.lat), point: t.point, id: t.id)
      }
      return ClusterMarker(
        key: marker, longitudeE7: mean(t.lon, t.count), latitudeE7: mean(t.lat, t.count))
    }
    return (markers, keys.map { cells[$0]!.members })
  }

  /// ⌊`v` / `c`⌋ of the exact quotient, for `c` a whole number: the
  /// rounded division corrected by exact products.
  static func floorOfQuotient(_ v: Double, _ c: Double) -> Int {
    var q = (v / c).rounded(.down)
    if q * c > v { q -= 1 } else if (q + 1) * c <= v { q += 1 }
    return Int(q)
  }

  /// Degrees in units of 1e-7°, the nearest, halves away from zero.
  static func units(_ degrees: Double) -> Int64 {
    Int64((degrees * 1e7).rounded(.toNearestOrAwayFromZero))
  }

  /// `sum / count` to the nearest unit, halves away from zero.
  static func mean(_ sum: Int64, _ count: Int) -> Int32 {
    let c = Int64(count), q = (2 * abs(sum) + c) / (2 * c)
    return Int32(sum < 0 ? -q : q)
  }
}
