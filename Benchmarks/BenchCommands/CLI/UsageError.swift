/// A mistake on the command line: exit 64 (EX_USAGE) with a usage line.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  public var message: String
  /// The command whose usage line to print (`run`, `query`…).
  public var command: String

  public init(_ message: String, command: String = "run") {
    self.message = message
    self.command = command
  }

  public var description: String { message }

  /// An unknown name, with the closest valid one when it is close enough.
  static func unknown(
    _ what: String, _ name: String, valid: [String], command: String = "run"
  ) -> UsageError {
    var message = "unknown \(what) \"\(name)\""
    if let guess = closest(to: name, in: valid) {
      message += " (did you mean \(guess)?)"
    } else if !valid.isEmpty {
      message += " (valid: \(valid.joined(separator: ", ")))"
    }
    return UsageError(message, command: command)
  }
}

/// The valid name nearest to a misspelt one (edit distance at most a third
/// of its length, and at most 3), or `nil`.
func closest(to name: String, in valid: [String]) -> String? {
  let lowered = name.lowercased()
  let scored = valid.map { ($0, editDistance(lowered, $0.lowercased())) }
  guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
  let limit = min(3, max(1, name.count / 3))
  return best.1 <= limit ? best.0 : nil
}

/// Levenshtein distance between two strings, by characters.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a), b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
