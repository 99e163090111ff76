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
/// ``QueriesFile/zoomRange``.
public struct TapsFile: CSVFile, Sendable {
  /// One tap's map position.
  public struct Tap: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var zoom: Int

    public init(latitude: Double, longitude: Double, zoom: Int) {
      self.latitude = latitude
      self.longitude = longitude
      self.zoom = zoom
    }
  }

  /// The path or name the data came from, as used in error messages.
  public var source: String
  /// The taps, in file order.
  public var taps: [Tap]

  public init(source: String, taps: [Tap]) {
    self.source = source
    self.taps = taps
  }

  /// Parses CSV bytes held in memory; errors name `source`.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  public init(parsing bytes: UnsafeBufferPointer<UInt8>, source: String) throws(DataError) {
    var table = try CSVTable(bytes, source: source)
    let latColumn = try table.requiredColumn(PointsFile.latitudeNames, role: "latitude")
    let lonColumn = try table.requiredColumn(PointsFile.longitudeNames, role: "longitude")
    let zoomColumn = try table.requiredColumn(["zoom"], role: "zoom")
    var taps: [Tap] = []
    while try table.nextRow() {
      taps.append(Tap(
        latitude: try table.coordinate(latColumn, limit: 90),
        longitude: try table.coordinate(lonColumn, limit: 180),
        zoom: try table.zoom(zoomColumn, allowEmpty: false)!))
    }
    self.init(source: source, taps: taps)
  }
}
