/// A guide that `bench docs` cannot bring up to date: a marker out of place,
/// or a block whose command is not one it runs or fails. Names the file and
/// the line; the exit code is the failing command's, else 65 (bad data).
public struct DocsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, before the file and line are known.
  public struct Reason: Error, Equatable, Sendable {
    public var message: String
    public var exitCode: Int32

    public init(_ message: String, exitCode: Int32 = 65) {
      self.message = message
      self.exitCode = exitCode
    }
  }

  public var file: String
  public var line: Int
  public var reason: Reason

  public init(file: String, line: Int, _ reason: Reason) {
    self.file = file
    self.line = line
    self.reason = reason
  }

  public var exitCode: Int32 { reason.exitCode }

  /// `docs/x.md:12: message`.
  public var description: String { "\(file):\(line): \(reason.message)" }
}
