/// Why a database engine beside the indexes (`bench peer postgis`) could
/// not run: one line for the user and the exit code the command returns.
public struct PeerError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    /// Something the engine needs is not there or does not answer: the
    /// PostgreSQL or PostGIS packages, a server that will not start, a
    /// refused connection. Exit 69 (`EX_UNAVAILABLE`).
    case unavailable
    /// The server refused a statement bench sent (a bug, or a server
    /// without something bench assumed). Exit 70 (`EX_SOFTWARE`).
    case failed
  }

  public var kind: Kind
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var exitCode: Int32 {
    switch kind {
    case .unavailable: 69
    case .failed: 70
    }
  }

  public var description: String { message }
}
