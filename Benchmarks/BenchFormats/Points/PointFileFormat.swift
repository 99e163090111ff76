/// The formats a points file comes in, told by its extension.
public enum PointFileFormat: String, CaseIterable, Sendable {
  /// `.csv`: see ``PointsFile``.
  case csv
  /// `.geojson` or `.json`: see ``GeoJSONPoints``.
  case geoJSON = "geojson"
  /// `.f64`: longitude, latitude float64 pairs, see ``BinaryPoints``.
  case binary = "f64"

  /// The format of the file at `path`, or `nil` for another extension.
  public init?(path: String) {
    let lowered = path.lowercased()
    if lowered.hasSuffix(".csv") {
      self = .csv
    } else if lowered.hasSuffix(".geojson") || lowered.hasSuffix(".json") {
      self = .geoJSON
    } else if lowered.hasSuffix(".f64") {
      self = .binary
    } else {
      return nil
    }
  }

  /// Reads the points of the file at `path` in `format` (CSV when the
  /// extension says nothing), with the `properties` a run names: CSV
  /// columns or GeoJSON `properties`; a binary file has none to name.
  public static func read(_ path: String, properties: [PropertyRequest] = []) throws(DataError) -> PointsFile {
    switch PointFileFormat(path: path) ?? .csv {
    case .csv: return try PointsFile(contentsOf: path, properties: properties)
    case .geoJSON: return try GeoJSONPoints.read(path, properties: properties)
    case .binary:
      if let first = properties.first {
        throw .badData(file: path, line: 1, field: first.name, message: "is not in the file: a .f64 file holds no properties")
      }
      return try BinaryPoints.read(path)
    }
  }
}
