import SpatialIndexes

/// A binary points file (`.f64`): raw little-endian IEEE 754 float64 pairs,
/// **longitude then latitude** for each point (x then y, the GeoJSON order),
/// no header and no ids: a point's id is its position, from 0.
///
/// The layout a NumPy user writes and reads without a library:
///
///     np.column_stack([lon, lat]).astype("<f8").tofile("points.f64")
///     lon, lat = np.fromfile("points.f64", dtype="<f8").reshape(-1, 2).T
///
/// A longitude must lie in [-180, 180] and a latitude in [-90, 90], both
/// finite, as in every points file. Errors are ``DataError``s whose `line`
/// is the 1-based number of the point (`points.f64:3: lat 95.0 is outside
/// [-90, 90]`); a file whose size is not a multiple of 16 bytes ends inside
/// a point and is refused.
public enum BinaryPoints {
  /// Bytes a point takes.
  public static let pointSize = 16

  /// Reads the file at `path` in 64 KiB blocks (memory holds the points, not
  /// the file); errors name the path as given.
  ///
  /// - Complexity: O(*n*).
  public static func read(_ path: String) throws(DataError) -> PointsFile {
    let file = try InputFile(path)
    return try read(from: file, source: path, expected: file.sizeHint / pointSize)
  }

  /// Parses the bytes of a binary points file held in memory; errors name
  /// `source`.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, source: String) throws(DataError) -> PointsFile {
    try read(from: _MemorySource(bytes: bytes), source: source, expected: bytes.count / pointSize)
  }

  /// Reads points from `bytes` as they come (a point may straddle two
  /// reads); `expected` reserves room.
  public static func read<S: ByteSource>(
    from bytes: S, source: String, expected: Int = 0
  ) throws(DataError) -> PointsFile {
    var bytes = bytes
    var points: [Point] = []
    points.reserveCapacity(max(0, expected))
    var failure: DataError? = nil
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 16) { block in
      do throws(DataError) {
        var held = 0  // bytes of an unfinished point at the block's start
        while true {
          let r = try bytes.read(into: UnsafeMutableBufferPointer(rebasing: block[held...]))
          if r == 0 { break }
          let available = held + r, whole = available / pointSize * pointSize
          let raw = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: block[..<whole]))
          for offset in Swift.stride(from: 0, to: whole, by: pointSize) {
            let x = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            let y = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
            let p = Point(x: x, y: y)
            try check(p, number: points.count + 1, source: source)
            points.append(p)
          }
          held = available - whole
          for k in 0..<held { block[k] = block[whole + k] }
        }
        if held != 0 {
          throw .badData(
            file: source, line: points.count + 1, field: nil,
            message: "the file ends inside a point: \(points.count * pointSize + held) bytes, "
              + "not a multiple of \(pointSize) (a longitude, latitude pair of float64)")
        }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return PointsFile(source: source, points: points, ids: (0..<UInt64(points.count)).map { $0 })
  }

  /// Throws for a coordinate no points file accepts.
  /// (Once a point, so no array of the two coordinates is made.)
  @inline(__always)
  static func check(_ p: Point, number: Int, source: String) throws(DataError) {
    try check(p.x, "lon", limit: 180, number: number, source: source)
    try check(p.y, "lat", limit: 90, number: number, source: source)
  }

  @inline(__always)
  static func check(
    _ value: Double, _ name: String, limit: Double, number: Int, source: String
  ) throws(DataError) {
    guard value.isFinite else {
      throw .badData(file: source, line: number, field: name, message: "\(value) is not a finite number")
    }
    guard abs(value) <= limit else {
      throw .badData(
        file: source, line: number, field: name,
        message: "\(value) is outside [\(Int(-limit)), \(Int(limit))]")
    }
  }

  /// The bytes of a binary points file holding `points`, in order.
  public static func bytes(_ points: [Point]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: points.count * pointSize)
    out.withUnsafeMutableBytes { raw in
      for (i, p) in points.enumerated() {
        raw.storeBytes(of: p.x.bitPattern.littleEndian, toByteOffset: i * pointSize, as: UInt64.self)
        raw.storeBytes(of: p.y.bitPattern.littleEndian, toByteOffset: i * pointSize + 8, as: UInt64.self)
      }
    }
    return out
  }
}
