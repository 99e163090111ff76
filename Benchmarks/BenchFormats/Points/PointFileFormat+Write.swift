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
  ///
  /// `properties` (one value a point) are written too: CSV columns after
  /// `lon`, GeoJSON `properties` members (a category a string, a number a
  /// JSON number with its column's scale, a missing value empty or `null`),
  /// so the readers, asked for the same properties, read the same table
  /// back. A binary file holds none (``PropertyTable/none`` only).
  ///
  /// - Complexity: O(*n*).
  public func bytes<IDs: Sequence<UInt64>>(
    points: [Point], ids: IDs, properties: PropertyTable = .none
  ) -> [UInt8] {
    precondition(properties.columns.allSatisfy { $0.count == points.count }, "one value a point in every column")
    switch self {
    case .binary:
      precondition(properties.isEmpty, "a binary points file holds no properties")
      return BinaryPoints.bytes(points)
    case .csv:
      var csv = CSVWriter()
      let columns = properties.columns
      csv.writeRow(["id", "lat", "lon"] + columns.map(\.name))
      for (i, (p, id)) in zip(points, ids).enumerated() {
        csv.writeRow(
          [String(id), CSVWriter.field(p.y), CSVWriter.field(p.x)] + columns.map { $0.text(at: i) ?? "" })
      }
      return Array(csv.text.utf8)
    case .geoJSON:
      return GeoJSONPoints.bytes(points: points, ids: ids, properties: properties)
    }
  }
}

extension GeoJSONPoints {
  /// `points` as a FeatureCollection of Points (see
  /// ``PointFileFormat/bytes(points:ids:)``).
  public static func bytes<IDs: Sequence<UInt64>>(
    points: [Point], ids: IDs, properties: PropertyTable = .none
  ) -> [UInt8] {
    var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
    text.reserveCapacity(100 * points.count + 64)
    let keys = properties.columns.map { jsonString($0.name) + ":" }
    var first = true
    for (i, (p, id)) in zip(points, ids).enumerated() {
      if !first { text += ",\n" }
      first = false
      // Double's description is valid JSON for finite values: `1e-05`, `-0.0`
      text += "{\"type\":\"Feature\",\"id\":\(id),\"geometry\":{\"type\":\"Point\",\"coordinates\":["
        + "\(p.x.description),\(p.y.description)]},\"properties\":"
      if keys.isEmpty {
        text += "null}"
        continue
      }
      for (k, column) in properties.columns.enumerated() {
        text += (k == 0 ? "{" : ",") + keys[k]
        switch column {
        case .category(let c): text += c.value(at: i).map(jsonString) ?? "null"
        case .decimal(let c): text += c.text(at: i) ?? "null"  // `-?digits[.digits]` is a JSON number
        }
      }
      text += "}}"
    }
    text += "\n]}\n"
    return Array(text.utf8)
  }
}

/// `s` as a JSON string: quotes, backslashes and control characters
/// escaped. The one escaper of the GeoJSON and report JSON writers.
package func jsonString(_ s: String) -> String {
  var out = "\""
  for scalar in s.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    default:
      if scalar.value < 0x20 {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}
