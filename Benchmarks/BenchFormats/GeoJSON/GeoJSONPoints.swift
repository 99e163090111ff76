import SpatialIndexes

/// Points from a GeoJSON file (RFC 7946): a FeatureCollection whose every
/// feature is a `Point`, read as a stream.
///
///     {"type": "FeatureCollection", "features": [
///       {"type": "Feature", "properties": {"name": "Paris"},
///        "geometry": {"type": "Point", "coordinates": [2.3522, 48.8566]}}
///     ]}
///
/// - A point's id is its feature's position in `features`, from 0 (feature
///   `id` members are ignored: they need not be numbers, nor unique).
/// - `coordinates` is `[longitude, latitude]`, more elements (an altitude)
///   allowed and ignored; the longitude must lie in [-180, 180] and the
///   latitude in [-90, 90]. Numbers follow JSON's grammar and are converted
///   with correct rounding.
/// - Members other than `type`, `features`, `geometry` and `coordinates`
///   (`properties`, `bbox`, `id`, foreign members) are skipped, their syntax
///   checked. Keys may come in any order; a key given twice is an error.
/// - The `properties` a run names are kept (``read(_:properties:)``), by
///   their exact name: a category from a string, a number (as written) or a
///   boolean; a fixed-point number from a number or a string holding one,
///   `-?digits[.digits]` either way. `null`, an empty string or an absent
///   member is a missing value; an object or an array is a bad value, and so
///   is a name no feature has. A bad value names its feature:
///   `hotels.geojson:9: features[7].properties.price "1e3" is not a decimal number…`.
/// - Any other geometry (`MultiPoint`, `LineString`…), a `null` or missing
///   geometry, a missing, nested, short or non-numeric coordinate (`"2.35"`
///   as a string), a position out of range, or invalid JSON throws a
///   ``DataError`` naming the file, the line and the field:
///   `hotels.geojson:57: features[12].geometry.type "LineString" is not "Point"`.
///
/// The file is read in 64 KiB chunks: memory holds the points, not the
/// file, and never a tree of objects.
public enum GeoJSONPoints {
  /// Reads and parses the file at `path`; errors name the path as given.
  ///
  /// - Complexity: O(*n*) in the file size.
  public static func read(_ path: String, properties: [PropertyRequest] = []) throws(DataError) -> PointsFile {
    let file = try InputFile(path)
    return try read(from: file, source: path, properties: properties)
  }

  /// Parses GeoJSON bytes held in memory; errors name `source`.
  public static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, source: String, properties: [PropertyRequest] = []
  ) throws(DataError) -> PointsFile {
    try read(from: _MemorySource(bytes: bytes), source: source, properties: properties)
  }

  /// Parses GeoJSON bytes held in memory; errors name `source`.
  public static func parse(
    _ bytes: [UInt8], source: String, properties: [PropertyRequest] = []
  ) throws(DataError) -> PointsFile {
    try _withBytes(bytes) { p throws(DataError) in try parse(p, source: source, properties: properties) }
  }

  /// Reads GeoJSON from `bytes` as they come; errors name `source`.
  public static func read<S: ByteSource>(
    from bytes: S, source: String, properties: [PropertyRequest] = []
  ) throws(DataError) -> PointsFile {
    if let name = properties.repeatedName {
      throw .badData(file: source, line: 1, field: name, message: "is named twice")
    }
    var reader = _GeoJSONReader(scanner: _JSONScanner(bytes, name: source), properties: properties)
    defer { reader.scanner.release() }
    try reader.readFeatureCollection()
    if !reader.points.isEmpty, let k = reader.found.firstIndex(of: false) {
      throw .badData(
        file: source, line: 1, field: properties[k].name,
        message: "is a property of no feature (of \(reader.points.count))")
    }
    return PointsFile(
      source: source, points: reader.points, ids: (0..<UInt64(reader.points.count)).map { $0 },
      properties: reader.values.table())
  }
}

/// The FeatureCollection grammar over the scanner.
struct _GeoJSONReader<Source: ByteSource> {
  var scanner: _JSONScanner<Source>
  var points: [Point] = []
  /// The properties named, their columns, and which named property any
  /// feature had (`found`) and the current one has (`given`).
  var values: _PropertyColumnsReader
  var wanted: [String: Int] = [:]
  var found: [Bool]
  var given: [Bool]

  init(scanner: _JSONScanner<Source>, properties: [PropertyRequest]) {
    self.scanner = scanner
    values = _PropertyColumnsReader(properties)
    for (k, r) in properties.enumerated() { wanted[r.name] = k }
    found = Array(repeating: false, count: properties.count)
    given = found
  }

  var name: String { scanner.name }

  mutating func readFeatureCollection() throws(DataError) {
    try scanner.skipByteOrderMark()
    let kind = try scanner.valueKind()
    guard kind == "an object" else {
      throw DataError.badData(
        file: name, line: scanner.line, field: nil,
        message: "the top level is \(kind), not a FeatureCollection object")
    }
    let headerLine = scanner.line
    var seen: Set<String> = []
    var type: (value: String, line: Int)? = nil
    try members("the top level", &seen) { reader, key throws(DataError) in
      switch key {
      case "type": type = (try reader.stringValue("type"), reader.scanner.line)
      case "features": try reader.readFeatures()
      default: try reader.scanner.skipValue()
      }
    }
    try scanner.skipWhitespace()
    if let b = try scanner.peek() {
      throw scanner.syntax("\(_displayByte(b)) after the FeatureCollection's closing brace")
    }
    guard let type else {
      throw DataError.badData(file: name, line: headerLine, field: nil, message: "the top level has no \"type\"")
    }
    guard type.value == "FeatureCollection" else {
      throw DataError.badData(
        file: name, line: type.line, field: "type",
        message: "\(_displayValue(type.value)) is not \"FeatureCollection\"")
    }
    guard seen.contains("features") else {
      throw DataError.badData(file: name, line: headerLine, field: nil, message: "the FeatureCollection has no \"features\"")
    }
  }

  /// Reads the members of the object the scanner is on, calling `body` with
  /// each key (the scanner then on its value); a key twice is an error. Keys
  /// longer than the scanner keeps are not compared: cut, two different
  /// keys could look the same, and no key the reader wants is that long.
  mutating func members(
    _ what: String, _ seen: inout Set<String>,
    _ body: (inout Self, String) throws(DataError) -> Void
  ) throws(DataError) {
    try scanner.expect(UInt8(ascii: "{"), "to open \(what)")
    if try scanner.closesAtOnce(UInt8(ascii: "}")) { return }
    repeat {
      try scanner.skipWhitespace()  // the key's line, not the comma's
      let line = scanner.line
      let key = try scanner.memberKey()
      guard scanner.stringWasCut || seen.insert(key).inserted else {
        throw DataError.badData(
          file: name, line: line, field: nil, message: "\(what) has \(_displayValue(key)) twice")
      }
      try body(&self, key)
    } while try scanner.more(UInt8(ascii: "}"), "after a member of \(what)")
  }

  /// A string member's value; anything else is an error naming `field`.
  mutating func stringValue(_ field: String) throws(DataError) -> String {
    let kind = try scanner.valueKind()
    guard kind == "a string" else {
      throw DataError.badData(file: name, line: scanner.line, field: field, message: "is \(kind), not a string")
    }
    return try scanner.string()
  }

  mutating func readFeatures() throws(DataError) {
    let kind = try scanner.valueKind()
    guard kind == "an array" else {
      throw DataError.badData(file: name, line: scanner.line, field: "features", message: "is \(kind), not an array")
    }
    try scanner.expect(UInt8(ascii: "["), "to open features")
    if try scanner.closesAtOnce(UInt8(ascii: "]")) { return }
    repeat {
      try readFeature(points.count)
    } while try scanner.more(UInt8(ascii: "]"), "after a feature")
  }

  mutating func readFeature(_ k: Int) throws(DataError) {
    let field = "features[\(k)]"
    let kind = try scanner.valueKind()
    guard kind == "an object" else {
      throw DataError.badData(file: name, line: scanner.line, field: field, message: "is \(kind), not a Feature object")
    }
    let start = scanner.line
    var seen: Set<String> = []
    var type: (value: String, line: Int)? = nil
    var point: Point? = nil
    try members(field, &seen) { reader, key throws(DataError) in
      switch key {
      case "type": type = (try reader.stringValue("\(field).type"), reader.scanner.line)
      case "geometry": point = try reader.readGeometry(field + ".geometry")
      case "properties" where !reader.wanted.isEmpty: try reader.readProperties(field + ".properties")
      default: try reader.scanner.skipValue()
      }
    }
    for k in given.indices {
      if !given[k] { values.appendMissing(k) }
      given[k] = false
    }
    guard let type else {
      throw DataError.badData(file: name, line: start, field: field, message: "has no \"type\"")
    }
    guard type.value == "Feature" else {
      throw DataError.badData(
        file: name, line: type.line, field: "\(field).type", message: "\(_displayValue(type.value)) is not \"Feature\"")
    }
    guard let point else {
      throw DataError.badData(file: name, line: start, field: field, message: "has no \"geometry\"")
    }
    points.append(point)
  }

  /// The named members of a feature's `properties` (an object or `null`);
  /// `field` is `features[k].properties`.
  mutating func readProperties(_ field: String) throws(DataError) {
    if try scanner.null() { return }
    let kind = try scanner.valueKind()
    guard kind == "an object" else {
      throw DataError.badData(file: name, line: scanner.line, field: field, message: "is \(kind), not an object")
    }
    var seen: Set<String> = []
    try members(field, &seen) { reader, key throws(DataError) in
      guard !reader.scanner.stringWasCut, let k = reader.wanted[key] else { return try reader.scanner.skipValue() }
      reader.found[k] = true
      reader.given[k] = true
      try reader.readProperty(k, "\(field).\(key)")
    }
  }

  /// One named property's value, appended to its column.
  mutating func readProperty(_ k: Int, _ field: String) throws(DataError) {
    try scanner.skipWhitespace()  // the value's line, not its key's
    let line = scanner.line
    let isNumber = values.requests[k].kind == .number
    let text: [UInt8]
    if try scanner.null() {
      return values.appendMissing(k)
    } else if let number = try scanner.numberText() {
      text = number
    } else if let b = try scanner.boolean() {
      guard !isNumber else {
        throw DataError.badData(file: name, line: line, field: field, message: "is a boolean, not a number")
      }
      text = Array((b ? "true" : "false").utf8)
    } else {
      let kind = try scanner.valueKind()
      guard kind == "a string" else {
        throw DataError.badData(file: name, line: line, field: field, message: "is \(kind), not a property value")
      }
      let s = try scanner.string()
      if scanner.stringWasCut {
        throw DataError.badData(
          file: name, line: line, field: field,
          message: "is longer than \(_JSONScanner<Source>.tokenLimit) bytes, the longest value kept")
      }
      text = Array(s.utf8)
    }
    let failure: _PropertyValueError? = text.withUnsafeBufferPointer { raw in
      do throws(_PropertyValueError) {
        try values.append(k, raw: raw, line: line) { String(decoding: raw, as: UTF8.self) }
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw DataError.badData(file: name, line: line, field: field, message: failure.message) }
  }

  /// A Point geometry's position; `field` is `features[k].geometry`.
  mutating func readGeometry(_ field: String) throws(DataError) -> Point {
    try scanner.skipWhitespace()  // the value's line, not its key's
    let line = scanner.line
    if try scanner.null() {
      throw DataError.badData(file: name, line: line, field: field, message: "is null: a point needs a position")
    }
    let kind = try scanner.valueKind()
    guard kind == "an object" else {
      throw DataError.badData(file: name, line: scanner.line, field: field, message: "is \(kind), not a geometry object")
    }
    var seen: Set<String> = []
    var type: (value: String, line: Int)? = nil
    var position: Position? = nil
    try members(field, &seen) { reader, key throws(DataError) in
      switch key {
      case "type": type = (try reader.stringValue("\(field).type"), reader.scanner.line)
      case "coordinates": position = try reader.readPosition("\(field).coordinates")
      default: try reader.scanner.skipValue()
      }
    }
    guard let type else {
      throw DataError.badData(file: name, line: line, field: field, message: "has no \"type\"")
    }
    guard type.value == "Point" else {
      throw DataError.badData(
        file: name, line: type.line, field: "\(field).type",
        message: "\(_displayValue(type.value)) is not \"Point\" (only Point features hold points)")
    }
    guard let position else {
      throw DataError.badData(file: name, line: line, field: field, message: "has no \"coordinates\"")
    }
    return try position.point(name)
  }

  /// What `coordinates` held: the first two numbers, or the first problem
  /// (kept until the geometry's type is known, so a LineString's nested
  /// arrays are reported as a LineString, not as a bad number).
  struct Position {
    var field: String
    /// The line of the opening bracket, and of each number: a range error
    /// names the line of the number at fault.
    var line: Int
    var lon: Double = 0
    var lonLine = 0
    var lat: Double = 0
    var latLine = 0
    var numbers = 0
    var problem: (field: String, line: Int, message: String)? = nil

    func point(_ file: String) throws(DataError) -> Point {
      if let problem {
        throw DataError.badData(file: file, line: problem.line, field: problem.field, message: problem.message)
      }
      guard numbers >= 2 else {
        throw DataError.badData(
          file: file, line: line, field: field,
          message: "has \(numbers) number\(numbers == 1 ? "" : "s"): a position needs a longitude and a latitude")
      }
      guard lon >= -180 && lon <= 180 else {
        throw DataError.badData(
          file: file, line: lonLine, field: field + "[0]",
          message: "longitude \(lon) is outside [-180, 180]")
      }
      guard lat >= -90 && lat <= 90 else {
        throw DataError.badData(
          file: file, line: latLine, field: field + "[1]",
          message: "latitude \(lat) is outside [-90, 90]")
      }
      return Point(x: lon, y: lat)
    }
  }

  mutating func readPosition(_ field: String) throws(DataError) -> Position {
    try scanner.skipWhitespace()  // the value's line, not its key's
    var p = Position(field: field, line: scanner.line)
    let kind = try scanner.valueKind()
    guard kind == "an array" else {
      p.problem = (field, scanner.line, "is \(kind), not an array of numbers")
      try scanner.skipValue()
      return p
    }
    try scanner.expect(UInt8(ascii: "["), "to open coordinates")
    if try scanner.closesAtOnce(UInt8(ascii: "]")) { return p }
    var i = 0
    repeat {
      try scanner.skipWhitespace()  // the element's line, not the comma's
      let line = scanner.line
      let element = "\(field)[\(i)]"
      if let number = try scanner.number() {
        switch number {
        case .value(let v):
          if i == 0 {
            (p.lon, p.lonLine) = (v, line)
          } else if i == 1 {
            (p.lat, p.latLine) = (v, line)
          }
          p.numbers += 1
        default:
          if p.problem == nil { p.problem = (element, line, "is not a finite number") }
        }
      } else {
        let kind = try scanner.valueKind()
        if p.problem == nil { p.problem = (element, line, "is \(kind), not a number") }
        try scanner.skipValue()
      }
      i += 1
    } while try scanner.more(UInt8(ascii: "]"), "after a coordinate")
    return p
  }
}
