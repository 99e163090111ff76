/// A taps file: one tap a row, read from CSV (RFC 4180): where the finger
/// landed and the map's zoom, as `bench export --taps-out` writes them.
///
///     lat,lon,zoom
///     48.8566,2.3522,14
///     -17.7134,178.065,9
///
/// The columns `lat` (or `latitude`), `lon` (`lng`, `longitude`) and `zoom`
/// are required, in any order and case; other columns are ignored. Numbers
/// follow the rules of ``PointsFile``; a zoom is a whole number in
/// ``QueriesFile/zoomRange``. An optional `filter` column holds a row's
/// filter (``RowFilter``).
public struct TapsFile: CSVFile, Sendable {
  /// The path or name the data came from, as used in error messages.
  public var source: String
  /// The taps, in file order.
  public var taps: [ZoomedPosition]
  /// Each row's filter, `nil` where its `filter` field is empty; empty when
  /// the file has no `filter` column.
  public var filters: [RowFilter?] = []

  public init(source: String, taps: [ZoomedPosition]) {
    self.source = source
    self.taps = taps
  }

  /// Parses CSV bytes held in memory; errors name `source`.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  public init(parsing bytes: UnsafeBufferPointer<UInt8>, source: String) throws(DataError) {
    var table = try CSVTable(bytes, source: source)
    let filterColumn = try table.column([RowFilter.columnName], role: RowFilter.columnName)
    var filters: [RowFilter?] = []
    let taps = try table.zoomedPositions(
      latitude: PointsFile.latitudeNames, longitude: PointsFile.longitudeNames
    ) { t in
      if let c = filterColumn { filters.append(RowFilter(t, column: c)) }
    }
    self.init(source: source, taps: taps)
    self.filters = filters
  }
}

/// A map position and a zoom: a tap, or a screen's centre.
public struct ZoomedPosition: Hashable, Sendable {
  public var latitude: Double
  public var longitude: Double
  public var zoom: Int

  public init(latitude: Double, longitude: Double, zoom: Int) {
    self.latitude = latitude
    self.longitude = longitude
    self.zoom = zoom
  }
}

extension CSVTable {
  /// Every row as a position at a zoom: a latitude column among `latitude`,
  /// a longitude column among `longitude` and a `zoom` column, all required.
  /// `each` sees every row once it is read.
  mutating func zoomedPositions(
    latitude: [String], longitude: [String], each: (CSVTable) -> Void = { _ in }
  ) throws(DataError) -> [ZoomedPosition] {
    let latColumn = try requiredColumn(latitude, role: latitude.count == 1 ? latitude[0] : "latitude")
    let lonColumn = try requiredColumn(longitude, role: longitude.count == 1 ? longitude[0] : "longitude")
    let zoomColumn = try requiredColumn(["zoom"], role: "zoom")
    var rows: [ZoomedPosition] = []
    while try nextRow() {
      rows.append(ZoomedPosition(
        latitude: try coordinate(latColumn, limit: 90), longitude: try coordinate(lonColumn, limit: 180),
        zoom: try zoom(zoomColumn, allowEmpty: false)!))
      each(self)
    }
    return rows
  }
}
