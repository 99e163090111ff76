import SpatialIndexes

/// A points file: places with a latitude, a longitude and an id, read from
/// CSV (RFC 4180).
///
/// The header row is required. Columns are found by name, ignoring case and
/// surrounding spaces: `lat` or `latitude`, `lon`, `lng` or `longitude`, and
/// an optional `id`; other columns are ignored and may come in any order.
///
///     id,lat,lon,name,cc
///     12,32.05908,48.86752,Takht-e Qeyşar,IR
///
/// Numbers have a strict syntax (optional sign, digits, optional fraction,
/// optional exponent; no `nan`, `inf` or hex) and are converted with correct
/// rounding. Spaces and tabs around a number or an id are ignored, spaces
/// inside are not. A latitude must lie in [-90, 90] and a longitude in
/// [-180, 180]. Ids are non-negative integers up to 2^64 - 1, with leading
/// zeros allowed (ZIP code `00501` is id 501); without an `id` column each
/// point's id is its 0-based data row. Ids are not checked for uniqueness.
///
/// Other columns are kept only when a run names them
/// (``init(parsing:source:properties:)``): each becomes a column of
/// ``properties``, a category or a fixed-point number as the run asks; the
/// header must have it (by its exact, trimmed name), and an empty field is
/// a missing value.
///
/// A file with a header and no rows is a valid, empty dataset. Any problem
/// throws a ``DataError`` naming the file, the physical line and the column;
/// see ``_CSVScanner`` for the finer points of the syntax (blank lines, BOM,
/// line endings).
///
///     let places = try PointsFile(contentsOf: "datasets/geonames_cities1000.csv")
///     let index = try KDTreeIndex(points: places.points)
public struct PointsFile: CSVFile, Sendable {
  /// The path or name the data came from, as used in error messages.
  public var source: String
  /// The places, `x` = longitude and `y` = latitude, in file order.
  public var points: [Point]
  /// `ids[i]` is the id of `points[i]`: from the `id` column, or the row
  /// number (0-based) when the file has none.
  public var ids: [UInt64]
  /// The properties the reader was asked for, in point order; none unless
  /// named.
  public var properties: PropertyTable

  /// Header names that locate each column (compared in lowercase).
  public static let latitudeNames = ["lat", "latitude"]
  public static let longitudeNames = ["lon", "lng", "longitude"]
  public static let idNames = ["id"]

  public init(source: String, points: [Point], ids: [UInt64], properties: PropertyTable = .none) {
    precondition(points.count == ids.count, "one id per point")
    precondition(properties.columns.allSatisfy { $0.count == points.count }, "one value a point in every column")
    self.source = source
    self.points = points
    self.ids = ids
    self.properties = properties
  }

  /// The number of points.
  public var count: Int { points.count }

  /// Parses CSV bytes held in memory; errors name `source`.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  public init(parsing bytes: UnsafeBufferPointer<UInt8>, source: String) throws(DataError) {
    try self.init(parsing: bytes, source: source, properties: [])
  }

  /// Parses CSV bytes held in memory, keeping the columns `properties`
  /// names; errors name `source`.
  ///
  /// A named column the header lacks, or a name asked for twice, is an
  /// error at the header's line; a bad value names its line and column:
  /// `hotels.csv:7: price "12,5" is not a decimal number (-?digits[.digits], no exponent)`.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  public init(
    parsing bytes: UnsafeBufferPointer<UInt8>, source: String, properties: [PropertyRequest]
  ) throws(DataError) {
    var table = try CSVTable(bytes, source: source)
    if !properties.isEmpty {
      self = try Self.read(&table, source: source, properties: properties, estimate: bytes.count / 48)
      return
    }
    let latColumn = try table.requiredColumn(Self.latitudeNames, role: "latitude")
    let lonColumn = try table.requiredColumn(Self.longitudeNames, role: "longitude")
    let idColumn = try table.column(Self.idNames, role: "id")

    var points: [Point] = []
    var ids: [UInt64] = []
    // About 40 bytes a row in the bundled files: reserving avoids most regrowth.
    let estimate = bytes.count / 48
    points.reserveCapacity(estimate)
    ids.reserveCapacity(estimate)
    while try table.nextRow() {
      let lat = try table.coordinate(latColumn, limit: 90)
      let lon = try table.coordinate(lonColumn, limit: 180)
      let id = try idColumn.map { i throws(DataError) in try table.id(i) } ?? UInt64(ids.count)
      points.append(Point(x: lon, y: lat))
      ids.append(id)
    }
    self.init(source: source, points: points, ids: ids)
  }

  /// The rows with the properties named: the loop above, plus a value a
  /// column; kept apart so a run that names none pays nothing for them.
  private static func read(
    _ table: inout CSVTable, source: String, properties: [PropertyRequest], estimate: Int
  ) throws(DataError) -> PointsFile {
    if let name = properties.repeatedName {
      throw .badData(file: source, line: table.headerLine, field: name, message: "is named twice")
    }
    let latColumn = try table.requiredColumn(Self.latitudeNames, role: "latitude")
    let lonColumn = try table.requiredColumn(Self.longitudeNames, role: "longitude")
    let idColumn = try table.column(Self.idNames, role: "id")
    let columns = try properties.map { r throws(DataError) in try table.propertyColumn(r.name) }
    var values = _PropertyColumnsReader(properties, reserving: estimate)
    var points: [Point] = []
    var ids: [UInt64] = []
    points.reserveCapacity(estimate)
    ids.reserveCapacity(estimate)
    while try table.nextRow() {
      let lat = try table.coordinate(latColumn, limit: 90)
      let lon = try table.coordinate(lonColumn, limit: 180)
      let id = try idColumn.map { i throws(DataError) in try table.id(i) } ?? UInt64(ids.count)
      for (k, c) in columns.enumerated() {
        do {
          try values.append(k, raw: table.raw(c), line: table.line) { table.text(c) }
        } catch {
          throw table.bad(c, error.message)
        }
      }
      points.append(Point(x: lon, y: lat))
      ids.append(id)
    }
    return PointsFile(source: source, points: points, ids: ids, properties: values.table())
  }
}

extension PointsFile {
  /// Reads and parses the file at `path`, keeping the columns
  /// `properties` names (see ``init(parsing:source:properties:)``).
  public init(contentsOf path: String, properties: [PropertyRequest]) throws(DataError) {
    self = try _withFileBytes(path) { p throws(DataError) in
      try PointsFile(parsing: p, source: path, properties: properties)
    }
  }

  /// Parses CSV bytes held in memory, keeping the columns `properties`
  /// names; errors name `source`.
  public init(parsing bytes: [UInt8], source: String, properties: [PropertyRequest]) throws(DataError) {
    self = try _withBytes(bytes) { p throws(DataError) in
      try PointsFile(parsing: p, source: source, properties: properties)
    }
  }
}
