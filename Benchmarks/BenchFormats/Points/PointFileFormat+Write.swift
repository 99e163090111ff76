import SpatialIndexes

extension PointFileFormat {
  /// A points file in this format, which ``read(_:)`` reads back as the
  /// same points: numbers in the shortest form that reads back exactly.
  ///
  /// - CSV: `id,lat,lon`, with `ids`.
  /// - GeoJSON: a FeatureCollection of Points, one feature a line, each
  ///   with its id as the feature's `id` member; the reader numbers
  ///   features by position, so ids other than rows do not survive.
  /// - Binary: longitude, latitude float64 pairs (``BinaryPoints``); no ids.
  ///
  /// - Complexity: O(*n*).
  public func bytes<IDs: Sequence<UInt64>>(points: [Point], ids: IDs) -> [UInt8] {
    switch self {
    case .binary:
      return BinaryPoints.bytes(points)
    case .csv:
      var csv = CSVWriter()
      csv.writeRow(["id", "lat", "lon"])
      for (p, id) in zip(points, ids) { csv.writeRow([String(id), CSVWriter.field(p.y), CSVWriter.field(p.x)]) }
      return Array(csv.text.utf8)
    case .geoJSON:
      return GeoJSONPoints.bytes(points: points, ids: ids)
    }
  }
}

extension GeoJSONPoints {
  /// `points` as a FeatureCollection of Points (see
  /// ``PointFileFormat/bytes(points:ids:)``).
  public static func bytes<IDs: Sequence<UInt64>>(points: [Point], ids: IDs) -> [UInt8] {
    var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
    text.reserveCapacity(100 * points.count + 64)
    var first = true
    for (p, id) in zip(points, ids) {
      if !first { text += ",\n" }
      first = false
      // Double's description is valid JSON for finite values: `1e-05`, `-0.0`
      text += "{\"type\":\"Feature\",\"id\":\(id),\"geometry\":{\"type\":\"Point\",\"coordinates\":["
        + "\(p.x.description),\(p.y.description)]},\"properties\":null}"
    }
    text += "\n]}\n"
    return Array(text.utf8)
  }
}
