import Foundation
import Testing
import BenchFormats

/// Parses `text` as a points file named `places.csv`.
func readPoints(_ text: String, source: String = "places.csv") throws(DataError) -> PointsFile {
  try PointsFile(parsing: Array(text.utf8), source: source)
}

/// Parses `text` as a query file named `queries.csv`.
func readQueries(_ text: String, source: String = "queries.csv") throws(DataError) -> QueriesFile {
  try QueriesFile(parsing: Array(text.utf8), source: source)
}

/// The error `read` throws, if any.
func dataError<T>(_ read: () throws(DataError) -> T) -> DataError? {
  do {
    _ = try read()
    return nil
  } catch {
    return error
  }
}

/// The error reading `text` as a points file throws, if any.
func pointsError(_ text: String) -> DataError? { dataError { () throws(DataError) in try readPoints(text) } }

/// The error reading `text` as a query file throws, if any.
func queriesError(_ text: String) -> DataError? { dataError { () throws(DataError) in try readQueries(text) } }

/// Checks a bad-data error's whole message, its line and its field.
func expectBadData(
  _ error: DataError?, _ message: String, line: Int, field: String?,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let error else {
    Issue.record("expected the error \(message), but the file was read", sourceLocation: sourceLocation)
    return
  }
  #expect(error.description == message, sourceLocation: sourceLocation)
  #expect(error.line == line, sourceLocation: sourceLocation)
  #expect(error.field == field, sourceLocation: sourceLocation)
  #expect(error.exitCode == 65, sourceLocation: sourceLocation)
}

/// A fresh temporary directory, removed by `cleanUp()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory
      .appendingPathComponent("spatialbench-csv-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Writes `bytes` to `name` in the directory and returns the file's path.
  func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    let file = path + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    return file
  }

  func write(_ name: String, _ text: String) throws -> String {
    try write(name, Array(text.utf8))
  }

  func cleanUp() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// The repository's `datasets/` folder, found from this file's path.
func datasetPath(_ name: String, filePath: String = #filePath) -> String {
  URL(fileURLWithPath: filePath)
    .deletingLastPathComponent()  // WorkloadsTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the repository
    .appendingPathComponent("datasets").appendingPathComponent(name).path
}
