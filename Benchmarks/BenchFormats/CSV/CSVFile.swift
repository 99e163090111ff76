/// A file format read from CSV bytes. Parsing a buffer is the one
/// requirement; reading a path and the other byte forms follow from it.
public protocol CSVFile {
  /// Parses CSV bytes held in memory; errors name `source`.
  init(parsing bytes: UnsafeBufferPointer<UInt8>, source: String) throws(DataError)
}

extension CSVFile {
  /// Reads and parses the file at `path`; errors name the path as given.
  ///
  /// - Complexity: O(*n*) in the file size.
  public init(contentsOf path: String) throws(DataError) {
    self = try _withFileBytes(path) { p throws(DataError) in try Self(parsing: p, source: path) }
  }

  /// Parses CSV bytes held in memory; errors name `source`.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  public init(parsing bytes: [UInt8], source: String) throws(DataError) {
    self = try _withBytes(bytes) { p throws(DataError) in try Self(parsing: p, source: source) }
  }

  /// Parses CSV bytes held in memory; errors name `source`.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  public init(parsing bytes: UnsafeRawBufferPointer, source: String) throws(DataError) {
    try self.init(parsing: bytes.assumingMemoryBound(to: UInt8.self), source: source)
  }
}
