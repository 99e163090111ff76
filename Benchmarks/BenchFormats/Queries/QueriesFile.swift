/// A query file: one geographic box a row, read from CSV (RFC 4180).
///
/// The header must name the columns `min_lat`, `min_lon`, `max_lat` and
/// `max_lon`, in any order and any case, surrounding spaces ignored; a
/// `zoom` column is optional and other columns are ignored.
///
///     min_lat,min_lon,max_lat,max_lon,zoom
///     48.80,2.25,48.90,2.42,12
///     -20,170,-10,-170,5
///
/// Numbers follow the same rules as in ``PointsFile``: strict syntax,
/// latitudes in [-90, 90], longitudes in [-180, 180]. `min_lat > max_lat` is
/// an error; `min_lon > max_lon` is a box across the antimeridian (see
/// ``GeoQuery``). An empty `zoom` cell gives a query without a zoom; a
/// non-empty one must be a finite number.
public struct QueriesFile: CSVFile, Sendable {
  /// The path or name the data came from, as used in error messages.
  public var source: String
  /// The queries, in file order.
  public var queries: [GeoQuery]

  public init(source: String, queries: [GeoQuery]) {
    self.source = source
    self.queries = queries
  }

  /// Parses CSV bytes held in memory; errors name `source`.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  public init(parsing bytes: UnsafeBufferPointer<UInt8>, source: String) throws(DataError) {
    var table = try CSVTable(bytes, source: source)
    let minLatColumn = try table.requiredColumn(["min_lat"], role: "min_lat")
    let minLonColumn = try table.requiredColumn(["min_lon"], role: "min_lon")
    let maxLatColumn = try table.requiredColumn(["max_lat"], role: "max_lat")
    let maxLonColumn = try table.requiredColumn(["max_lon"], role: "max_lon")
    let zoomColumn = try table.column(["zoom"], role: "zoom")

    var queries: [GeoQuery] = []
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
      let zoom = try zoomColumn.flatMap { i throws(DataError) in try table.number(i, allowEmpty: true) }
      queries.append(GeoQuery(minLat: minLat, minLon: minLon, maxLat: maxLat, maxLon: maxLon, zoom: zoom))
    }
    self.init(source: source, queries: queries)
  }
}
