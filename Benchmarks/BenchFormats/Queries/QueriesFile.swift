import SpatialIndexes

/// A queries file: one step a row, read from CSV (RFC 4180), in one of
/// three forms: a viewport a row (boxes or centres), or a position a row.
///
/// **Boxes.** The columns `min_lat`, `min_lon`, `max_lat` and `max_lon`, and
/// an optional `zoom`: the box a map shows, as `bench export` writes it.
///
///     min_lat,min_lon,max_lat,max_lon,zoom
///     48.80,2.25,48.90,2.42,12
///     -20,170,-10,-170,5
///
/// `min_lat > max_lat` is an error; `min_lon > max_lon` is a box across the
/// antimeridian (see ``GeoQuery``). An empty `zoom` cell gives a box without
/// a zoom.
///
/// **Centres.** The columns `center_lat`, `center_lon` and `zoom` (all
/// required): the centre of a screen whose size the command gives
/// (`--screen`).
///
///     center_lat,center_lon,zoom
///     48.8566,2.3522,12
///
/// **Positions.** The columns `lat` and `lon` (any name a points file takes
/// for them: `latitude`, `lng`, `longitude`), in a file with neither the
/// box nor the centre columns: a place to search near, taken exactly as
/// written, for the nearest workload alone (no viewport, no zoom).
///
///     lat,lon
///     -4.154661995336989,-112.2303721236431
///
/// Columns come in any order and any case, surrounding spaces ignored; other
/// columns are ignored; a file with the columns of both viewport forms is an
/// error.
/// Numbers follow the same rules as in ``PointsFile``: strict syntax,
/// latitudes in [-90, 90], longitudes in [-180, 180]; a zoom is a whole
/// number in ``zoomRange``.
///
/// **Filters.** Either form may have a `filter` column: a row's filter
/// (``RowFilter``), which replaces the command's `--filter` for that row
/// when it is not empty. Quote it where it holds a comma or a quote:
///
///     min_lat,min_lon,max_lat,max_lon,zoom,filter
///     -60,-180,80,180,2,"chain in (chain-1, chain-2)"
///     -60,-180,80,180,2,
public struct QueriesFile: CSVFile, Sendable {
  /// The zoom levels a file may name: those of ``WebMercator/zoomRange``.
  public static var zoomRange: ClosedRange<Int> { WebMercator.zoomRange }

  /// The path or name the data came from, as used in error messages.
  public var source: String
  /// The boxes, in file order (the box form; empty for the centre form).
  public var queries: [GeoQuery]
  /// The centres, in file order (the centre form; empty for the box form).
  public var centres: [ZoomedPosition]
  /// The positions (`x` = longitude, `y` = latitude), in file order, for
  /// the position form; `nil` for the viewport forms.
  public var positions: [Point]? = nil
  /// Whether every row has a zoom: always for centres, for boxes when the
  /// `zoom` column is there and no cell of it is empty.
  public var hasZooms: Bool
  /// The line of the header (1 unless blank lines come first).
  public var headerLine = 1
  /// Each row's filter, `nil` where its `filter` field is empty; empty when
  /// the file has no `filter` column.
  public var filters: [RowFilter?] = []

  public init(source: String, queries: [GeoQuery]) {
    self.source = source
    self.queries = queries
    centres = []
    hasZooms = queries.allSatisfy { $0.zoom != nil }
  }

  public init(source: String, centres: [ZoomedPosition]) {
    self.source = source
    queries = []
    self.centres = centres
    hasZooms = true
  }

  /// A file of positions: no viewport, no zoom.
  public init(source: String, positions: [Point]) {
    self.source = source
    queries = []
    centres = []
    self.positions = positions
    hasZooms = false
  }

  /// The rows, whichever the form.
  public var count: Int { queries.count + centres.count + (positions?.count ?? 0) }

  /// Parses CSV bytes held in memory; errors name `source`.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  public init(parsing bytes: UnsafeBufferPointer<UInt8>, source: String) throws(DataError) {
    var table = try CSVTable(bytes, source: source)
    let minLatColumn = try table.column(["min_lat"], role: "min_lat")
    let centreColumn = try table.column(["center_lat"], role: "center_lat")
    if let box = minLatColumn, let centre = centreColumn {
      throw DataError.badData(
        file: source, line: table.headerLine, field: nil,
        message: "has the box column \(table.shown(header: box)) and the centre column "
          + "\(table.shown(header: centre)): a queries file has one form")
    }
    let filterColumn = try table.column([RowFilter.columnName], role: RowFilter.columnName)
    var filters: [RowFilter?] = []
    let each = { (t: CSVTable) in
      if let c = filterColumn { filters.append(RowFilter(t, column: c)) }
    }
    if minLatColumn == nil, centreColumn == nil,
       let latColumn = try table.column(PointsFile.latitudeNames, role: "latitude") {
      let lonColumn = try table.requiredColumn(PointsFile.longitudeNames, role: "longitude")
      var positions: [Point] = []
      while try table.nextRow() {
        let lat = try table.coordinate(latColumn, limit: 90)
        positions.append(Point(x: try table.coordinate(lonColumn, limit: 180), y: lat))
        each(table)
      }
      self.init(source: source, positions: positions)
    } else if centreColumn != nil {
      self.init(
        source: source,
        centres: try table.zoomedPositions(latitude: ["center_lat"], longitude: ["center_lon"], each: each))
    } else {
      let file = try Self.boxes(&table, each: each)
      self.init(source: source, queries: file.queries)
      hasZooms = file.hasZooms
    }
    headerLine = table.headerLine
    self.filters = filters
  }

  /// Refuses a file of no query where steps are measured: a run over none
  /// gave a row of 0 samples and a median of 0 ns. (`bench query` answers it
  /// with a header alone.)
  public func requireQueries() throws(DataError) {
    guard count == 0 else { return }
    throw DataError.badData(
      file: source, line: headerLine, field: nil, message: "has a header and no query: nothing to measure")
  }

  private static func boxes(
    _ table: inout CSVTable, each: (CSVTable) -> Void
  ) throws(DataError) -> (queries: [GeoQuery], hasZooms: Bool) {
    let minLatColumn = try table.requiredColumn(["min_lat"], role: "min_lat")
    let minLonColumn = try table.requiredColumn(["min_lon"], role: "min_lon")
    let maxLatColumn = try table.requiredColumn(["max_lat"], role: "max_lat")
    let maxLonColumn = try table.requiredColumn(["max_lon"], role: "max_lon")
    let zoomColumn = try table.column(["zoom"], role: "zoom")
    var queries: [GeoQuery] = []
    var everyZoom = zoomColumn != nil
    while try table.nextRow() {
      let minLat = try table.coordinate(minLatColumn, limit: 90)
      let minLon = try table.coordinate(minLonColumn, limit: 180)
      let maxLat = try table.coordinate(maxLatColumn, limit: 90)
      let maxLon = try table.coordinate(maxLonColumn, limit: 180)
      if minLat > maxLat {
        throw table.bad(
          minLatColumn,
          "\(table.shown(minLatColumn)) is greater than \(table.columnName(maxLatColumn)) "
            + "\(table.shown(maxLatColumn))")
      }
      let zoom = try zoomColumn.flatMap { i throws(DataError) in try table.zoom(i, allowEmpty: true) }
      everyZoom = everyZoom && zoom != nil
      queries.append(GeoQuery(minLat: minLat, minLon: minLon, maxLat: maxLat, maxLon: maxLon, zoom: zoom))
      each(table)
    }
    return (queries, everyZoom)
  }
}

extension CSVTable {
  /// Field `i` as a zoom level: a whole number in ``QueriesFile/zoomRange``
  /// (`12` or `12.0`), or `nil` when empty and `allowEmpty`.
  public func zoom(_ i: Int, allowEmpty: Bool) throws(DataError) -> Int? {
    guard let z = try number(i, allowEmpty: allowEmpty) else { return nil }
    let range = QueriesFile.zoomRange
    guard z == z.rounded(), z >= Double(range.lowerBound), z <= Double(range.upperBound) else {
      throw bad(i, "\(shown(i)) is not a whole zoom level in \(range.lowerBound)...\(range.upperBound)")
    }
    return Int(z)
  }

  /// Header name `i`, quoted for a message.
  func shown(header i: Int) -> String { _displayValue(header[i]) }
}
