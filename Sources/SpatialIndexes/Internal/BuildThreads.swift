/// The `threads` parameter of the indexes whose build runs in parallel (the
/// k-d tree, the grid, the cell tree, the quadtree's bulk load), read,
/// checked and reported by one rule: `nil` (`auto`, in any letter case)
/// means every core, a count lies in 1...``limit``, and the index built is
/// the same whatever the count.
package enum BuildThreads {
  /// The parameter's name.
  package static let name = "threads"

  /// The most threads a build takes: beyond the cores, more only cost
  /// memory for their chunks.
  package static let limit = 256

  /// The text form of ``IndexParameters/set(_:to:)``: `auto` for `nil`, or a
  /// count in 1...``limit``. `name` is the parameter's name as given, for the error.
  package static func parse(_ name: String, _ text: String) throws(IndexError) -> Int? {
    if text.lowercased() == "auto" { return nil }
    guard let count = Int(text) else {
      throw .invalidParameter(name: name, value: text, reason: "not an integer")
    }
    try check(count, name: name, text: text)
    return count
  }

  /// The build's check of a count set without ``parse(_:_:)``.
  static func validate(_ threads: Int?) throws(IndexError) {
    if let count = threads { try check(count, name: name, text: "\(count)") }
  }

  private static func check(_ count: Int, name: String, text: String) throws(IndexError) {
    guard (1...limit).contains(count) else {
      throw .invalidParameter(name: name, value: text, reason: "must be in 1...\(limit)")
    }
  }

  /// The threads a build runs on: the count, or the cores online.
  static func resolved(_ threads: Int?) -> Int { Swift.max(1, Swift.min(limit, threads ?? _coresOnline())) }

  /// What `bench list` says of it; `what` is the part of the build that runs
  /// on the threads, `same` what comes out the same.
  static func description(_ what: String, same: String) -> ParameterDescription {
    ParameterDescription(
      name: name, defaultValue: "auto",
      summary: "threads \(what) uses (1...\(limit), auto: every core); the \(same) is the same")
  }

  /// The value a report records: the count, or `auto`.
  static func value(_ threads: Int?) -> ParameterValue {
    ParameterValue(name, threads.map(String.init) ?? "auto")
  }
}
