import Foundation
import Testing

/// A bad points or queries file and the one line `bench` must answer it with.
struct BadInput: Sendable, CustomTestStringConvertible {
  /// How the input is made.
  enum Setup: Sendable {
    /// A file holding this text.
    case text(String)
    /// No file at all.
    case missing
    /// A folder where the file should be.
    case folder
    /// A path through a regular file (`plain.txt/…`): ENOTDIR, even for root.
    case underAFile
    /// `/proc/self/mem`: opens, but reading at offset 0 fails with EIO, even for root.
    case procMem
    /// A file with mode 000; only meaningful when not root.
    case noPermission
  }

  var name: String
  var setup: Setup
  var code: Int32
  /// The message after `bench: `; `FILE` stands for the path as given.
  var message: String

  var testDescription: String { name }

  /// Makes the input in `folder` (the working directory of the run) and
  /// returns the path to pass, relative where it can be.
  func make(in folder: TemporaryFolder, named name: String) throws -> String {
    switch setup {
    case .text(let text):
      try folder.write(name, text)
      return name
    case .missing:
      return name
    case .folder:
      try FileManager.default.createDirectory(
        atPath: folder.file(name), withIntermediateDirectories: false)
      return name
    case .underAFile:
      try folder.write("plain.txt", "not a folder\n")
      return "plain.txt/" + name
    case .procMem:
      return "/proc/self/mem"
    case .noPermission:
      try folder.write(name, "lat,lon\n1,2\n")
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o000], ofItemAtPath: folder.file(name))
      return name
    }
  }

  /// The expected stderr line for an input passed as `path`.
  func expectedLine(_ path: String) -> String {
    message.replacingOccurrences(of: "FILE", with: path)
  }

  /// Cases that fail the same way in points and queries files.
  static let unreadable: [BadInput] = [
    BadInput(name: "nonexistent", setup: .missing, code: 66, message: "FILE: no such file"),
    BadInput(
      name: "a folder", setup: .folder, code: 66, message: "FILE: is a directory, not a file"),
    BadInput(
      name: "a path through a file", setup: .underAFile, code: 66,
      message: "FILE: a component of the path is not a directory"),
    BadInput(
      name: "a read error", setup: .procMem, code: 66,
      message: "FILE: cannot read: Input/output error (errno 5)"),
  ] + (isRoot ? [] : [
    BadInput(
      name: "no permission", setup: .noPermission, code: 66, message: "FILE: permission denied")
  ])

  /// Bad points files, each with the exact line the reader must report.
  static let points: [BadInput] = [
    BadInput(
      name: "empty file", setup: .text(""), code: 65, message: "FILE:1: empty file, no header"),
    BadInput(
      name: "missing header", setup: .text("48.85,2.35\n51.5,-0.12\n"), code: 65,
      message: "FILE:1: no latitude column (expected \"lat\" or \"latitude\"); "
        + "columns found: \"48.85\", \"2.35\""),
    BadInput(
      name: "no lon column", setup: .text("id,lat,name\n1,2,x\n"), code: 65,
      message: "FILE:1: no longitude column (expected \"lon\", \"lng\" or \"longitude\"); "
        + "columns found: \"id\", \"lat\", \"name\""),
    BadInput(
      name: "not a number", setup: .text("id,lat,lon\n1,2,3\n2,4,abc\n"), code: 65,
      message: "FILE:3: lon \"abc\" is not a number"),
    BadInput(
      name: "empty coordinate", setup: .text("lat,lon\n1,2\n,3\n"), code: 65,
      message: "FILE:3: lat is empty"),
    BadInput(
      name: "NaN", setup: .text("lat,lon\n0,NaN\n"), code: 65,
      message: "FILE:2: lon \"NaN\" is not a number"),
    BadInput(
      name: "infinity", setup: .text("lat,lon\ninf,0\n"), code: 65,
      message: "FILE:2: lat \"inf\" is not a number"),
    BadInput(
      name: "overflow to infinity", setup: .text("lat,lon\n0,-1e999\n"), code: 65,
      message: "FILE:2: lon \"-1e999\" is not a finite number"),
    BadInput(
      name: "lat out of range", setup: .text("lat,lon\n90.5,0\n"), code: 65,
      message: "FILE:2: lat \"90.5\" is outside [-90, 90]"),
    BadInput(
      name: "lon out of range", setup: .text("lat,lon\n0,-180.01\n"), code: 65,
      message: "FILE:2: lon \"-180.01\" is outside [-180, 180]"),
    BadInput(
      name: "too many fields", setup: .text("lat,lon\n1,2\n1,2,3\n"), code: 65,
      message: "FILE:3: column 3 is extra: too many fields: 3, but the header has 2"),
    BadInput(
      name: "too few fields", setup: .text("id,lat,lon\n1,2\n"), code: 65,
      message: "FILE:2: lon is missing: too few fields: 2, but the header has 3"),
    BadInput(
      name: "unterminated quote", setup: .text("lat,lon\n1,2\n3,\"4\n5,6\n"), code: 65,
      message: "FILE:3: lon has a quote that opens here and is never closed"),
    BadInput(
      name: "negative id", setup: .text("id,lat,lon\n0,1,1\n-1,0,0\n"), code: 65,
      message: "FILE:3: id \"-1\" is negative"),
    BadInput(
      name: "non-integer id", setup: .text("id,lat,lon\n1.5,0,0\n"), code: 65,
      message: "FILE:2: id \"1.5\" is not an integer"),
    // Lines are counted as an editor counts them: CRLF once, and a quoted
    // line break moves the next record down.
    BadInput(
      name: "line after CRLF", setup: .text("lat,lon\r\n1,2\r\n3,x\r\n"), code: 65,
      message: "FILE:3: lon \"x\" is not a number"),
    BadInput(
      name: "line after a quoted line break",
      setup: .text("name,lat,lon\n\"two\nlines\",1,2\nc,3,abc\n"), code: 65,
      message: "FILE:4: lon \"abc\" is not a number"),
  ] + unreadable

  /// Bad query files.
  static let queries: [BadInput] = [
    BadInput(
      name: "empty file", setup: .text(""), code: 65, message: "FILE:1: empty file, no header"),
    BadInput(
      name: "no max_lon column", setup: .text("min_lat,min_lon,max_lat\n0,0,1\n"), code: 65,
      message: "FILE:1: no max_lon column (expected \"max_lon\"); "
        + "columns found: \"min_lat\", \"min_lon\", \"max_lat\""),
    BadInput(
      name: "min_lat > max_lat",
      setup: .text("min_lat,min_lon,max_lat,max_lon\n0,0,1,1\n2,0,1,1\n"), code: 65, message: "FILE:3: min_lat \"2\" is greater than max_lat \"1\""),
    BadInput(
      name: "not a number", setup: .text("min_lat,min_lon,max_lat,max_lon\n0,abc,1,1\n"), code: 65,
      message: "FILE:2: min_lon \"abc\" is not a number"),
    BadInput(
      name: "empty coordinate", setup: .text("min_lat,min_lon,max_lat,max_lon\n0,0,,1\n"), code: 65,
      message: "FILE:2: max_lat is empty"),
    BadInput(
      name: "NaN zoom", setup: .text("min_lat,min_lon,max_lat,max_lon,zoom\n0,0,1,1,nan\n"),
      code: 65, message: "FILE:2: zoom \"nan\" is not a number"),
    BadInput(
      name: "out of range", setup: .text("min_lat,min_lon,max_lat,max_lon\n0,0,91,1\n"), code: 65,
      message: "FILE:2: max_lat \"91\" is outside [-90, 90]"),
    BadInput(
      name: "too few fields", setup: .text("min_lat,min_lon,max_lat,max_lon\n0,0,1\n"), code: 65,
      message: "FILE:2: max_lon is missing: too few fields: 3, but the header has 4"),
    BadInput(
      name: "too many fields", setup: .text("min_lat,min_lon,max_lat,max_lon\n0,0,1,1,5\n"),
      code: 65, message: "FILE:2: column 5 is extra: too many fields: 5, but the header has 4"),
    BadInput(
      name: "unterminated quote", setup: .text("min_lat,min_lon,max_lat,max_lon\n\"0,0,1,1\n"),
      code: 65, message: "FILE:2: min_lat has a quote that opens here and is never closed"),
  ] + unreadable
}
