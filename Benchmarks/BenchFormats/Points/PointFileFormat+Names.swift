extension PointFileFormat {
  /// The most bytes read to find a CSV header: a header longer than this is
  /// told by the load itself.
  static let headerReadLimit = 1 << 20

  /// The names a run may read as properties of the file at `path`, told
  /// without loading its points, so that a misspelt name is refused before
  /// the load: a CSV file's header names (trimmed, as spelled), none for
  /// `.f64`; for GeoJSON, the names of the features' properties
  /// (``GeoJSONPoints/propertyNames(inFile:among:)``: keys only, stopping
  /// once every name of `wanted` is seen). `nil` when they cannot be told cheaply (an input
  /// that is not a regular file, which a second read would find emptied; a
  /// header longer than 1 MiB or holding a quoted line feed; JSON the walk
  /// does not expect): the load then checks the names itself.
  ///
  /// - Throws: ``DataError`` when the file cannot be opened or read.
  /// - Complexity: O(*h*) in the header's length; for GeoJSON, the bytes
  ///   up to the feature where the last wanted name is seen.
  public static func propertyNames(inFile path: String, wanted: [String] = []) throws(DataError) -> [String]? {
    switch PointFileFormat(path: path) ?? .csv {
    case .binary: return []
    case .geoJSON:
      guard try InputFile(path).isRegular else { return nil }
      return try GeoJSONPoints.propertyNames(inFile: path, among: Set(wanted))
    case .csv: break
    }
    let file = try InputFile(path)
    guard file.isRegular else { return nil }
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 1 << 16)
    var whole = false  // the header's line is all read
    while !whole && bytes.count < headerReadLimit {
      let r = try block.withUnsafeMutableBufferPointer { b throws(DataError) in try file.read(into: b) }
      if r == 0 {
        whole = true
        break
      }
      let start = bytes.count
      bytes.append(contentsOf: block[..<r])
      if let lf = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
        bytes.removeSubrange((lf + 1)...)
        whole = true
      }
    }
    guard whole else { return nil }
    // a quoted line feed in the header, a cut header, no header: the load says
    return try? CSVTable.read(bytes, source: path) { table throws(DataError) in table.header }
  }
}
