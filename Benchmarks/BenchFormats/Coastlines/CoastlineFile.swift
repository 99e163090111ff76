import SpatialIndexes

/// A coastline file: world outlines as polylines of longitude/latitude, one
/// polyline a line, as `datasets/coastlines_110m.txt` holds them (format and
/// provenance in datasets/README.md).
///
///     # a comment: a line that starts with #
///     -6.20,53.87 -6.03,53.15 -6.79,52.26 -8.56,51.67 -6.20,53.87
///
/// A point is `longitude,latitude` in WGS 84 degrees, points are separated by
/// spaces or tabs, and a polyline has at least two points. Numbers follow
/// ``NumberField``'s strict syntax; a longitude must lie in [-180, 180], a
/// latitude in [-90, 90]. Two neighbours more than 180° of longitude apart
/// are joined the short way, across the antimeridian; the bundled file
/// splits its polylines there instead, ending them on ±180.
///
/// LF or CRLF line endings; a blank line, or a file without a polyline, is an
/// error. Any problem throws a ``DataError`` naming the file, the line and
/// the point (`point 3`), as the other readers do. The file is read whole,
/// up to ``maximumBytes``.
///
///     let coast = try CoastlineFile(contentsOf: "datasets/coastlines_110m.txt")
///     coast.polylineCount  // 134
public struct CoastlineFile: Sendable {
  /// The path or name the data came from, as used in error messages.
  public var source: String
  /// Every polyline's points, one polyline after the other: `x` = longitude,
  /// `y` = latitude, as written.
  public var points: [Point]
  /// Polyline `i` is `points[starts[i]..<starts[i + 1]]`: one entry more than
  /// there are polylines, the last `points.count`.
  public var starts: [Int]

  /// The largest file read: a simplified outline is tens of kilobytes; a
  /// file this big is not one.
  public static let maximumBytes = 16 << 20

  public var polylineCount: Int { starts.count - 1 }

  /// The points of polyline `i`.
  public func polyline(_ i: Int) -> ArraySlice<Point> { points[starts[i]..<starts[i + 1]] }

  /// Reads the file at `path`; errors name `path` as given.
  ///
  /// - Complexity: O(*n*) in the file size.
  public init(contentsOf path: String) throws(DataError) {
    let file = try InputFile(path)
    if file.sizeHint > Self.maximumBytes {
      throw .unreadable(file: path, reason: Self.tooLarge)
    }
    let bytes = try file.readAll()
    if bytes.count > Self.maximumBytes { throw .unreadable(file: path, reason: Self.tooLarge) }
    try self.init(parsing: bytes, source: path)
  }

  private static let tooLarge =
    "larger than \(maximumBytes >> 20) MiB: not a simplified coastline file"

  /// Parses the file's bytes held in memory; errors name `source`.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  public init(parsing bytes: [UInt8], source: String) throws(DataError) {
    self.source = source
    points = []
    starts = [0]
    points.reserveCapacity(bytes.count / 13)  // `-123.45,67.89 ` a point
    var lineNumber = 0
    var start = 0
    while start < bytes.count {
      lineNumber += 1
      var end = start
      while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
      var last = end
      if last > start && bytes[last - 1] == UInt8(ascii: "\r") { last -= 1 }
      try readLine(bytes[start..<last], line: lineNumber)
      start = end + 1
    }
    guard starts.count > 1 else {
      throw .badData(
        file: source, line: max(1, lineNumber), field: nil, message: "holds no polyline")
    }
  }

  private mutating func readLine(_ line: ArraySlice<UInt8>, line number: Int) throws(DataError) {
    if line.first == UInt8(ascii: "#") { return }
    var count = 0
    var i = line.startIndex
    while i < line.endIndex {
      if line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") {
        i += 1
        continue
      }
      var j = i
      while j < line.endIndex && line[j] != UInt8(ascii: " ") && line[j] != UInt8(ascii: "\t") {
        j += 1
      }
      count += 1
      points.append(try point(line[i..<j], number: count, line: number))
      i = j
    }
    guard count >= 2 else {
      throw .badData(
        file: source, line: number, field: nil,
        message: count == 0
          ? "is blank: a polyline has at least two points (a comment starts with #)"
          : "holds one point: a polyline has at least two")
    }
    starts.append(points.count)
  }

  /// `lon,lat`, checked.
  private func point(_ text: ArraySlice<UInt8>, number: Int, line: Int) throws(DataError) -> Point {
    let field = "point \(number)"
    func bad(_ message: String) -> DataError {
      .badData(file: source, line: line, field: field, message: message)
    }
    let shown =
      "\"" + String(decoding: text.prefix(40), as: UTF8.self) + (text.count > 40 ? "…" : "") + "\""
    guard let comma = text.firstIndex(of: UInt8(ascii: ",")),
      !text[(comma + 1)...].contains(UInt8(ascii: ","))
    else { throw bad("\(shown) is not longitude,latitude") }
    guard case .value(let lon) = Self.number(text[..<comma]) else {
      throw bad("\(shown): the longitude is not a number")
    }
    guard case .value(let lat) = Self.number(text[(comma + 1)...]) else {
      throw bad("\(shown): the latitude is not a number")
    }
    guard (-180...180).contains(lon) else { throw bad("\(shown): longitude outside -180...180") }
    guard (-90...90).contains(lat) else { throw bad("\(shown): latitude outside -90...90") }
    return Point(x: lon, y: lat)
  }

  private static func number(_ bytes: ArraySlice<UInt8>) -> NumberField {
    bytes.isEmpty ? .empty : bytes.withUnsafeBufferPointer { NumberField.parse($0) }
  }
}
