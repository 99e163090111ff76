/// One flag a command takes, declared once: ``FlagTable`` parses it, refuses
/// it when given twice, and prints it in the usage text.
///
/// The flags several commands share (`--seed`, `--index`, `--param`,
/// `--screen`…) are made by the constructors in `SharedFlags.swift`, so
/// each is read, checked and explained the same way everywhere.
struct Flag<Options> {
  /// `--seed`.
  var name: String
  /// The value's placeholder in the usage text (`S`, `NAME[,NAME…]`); nil
  /// for a switch, which takes no value.
  var value: String?
  /// What it does, for the usage text; `\n` starts another line.
  var help: String
  /// May be given more than once, each adding to the last (`--param`). Any
  /// other flag given twice is a usage error: which one was meant?
  var repeatable = false
  /// Must be given (`bench query --index`).
  var required = false
  /// Reads the value into the options.
  var apply: (inout Options, FlagValue) throws(UsageError) -> Void

  init(
    _ name: String, _ value: String? = nil, help: String, repeatable: Bool = false, required: Bool = false,
    apply: @escaping (inout Options, FlagValue) throws(UsageError) -> Void
  ) {
    self.name = name
    self.value = value
    self.help = help
    self.repeatable = repeatable
    self.required = required
    self.apply = apply
  }

  /// The same flag reading into a part of larger options (`\.run` of
  /// ``RecommendOptions``).
  func lifted<Outer>(_ part: WritableKeyPath<Outer, Options>) -> Flag<Outer> {
    let apply = self.apply
    return Flag<Outer>(name, value, help: help, repeatable: repeatable, required: required) {
      (outer: inout Outer, value: FlagValue) throws(UsageError) in try apply(&outer[keyPath: part], value)
    }
  }

  /// The same flag with other words in the usage text.
  func explained(_ help: String) -> Flag {
    var copy = self
    copy.help = help
    return copy
  }

  /// The same flag, required.
  var mandatory: Flag {
    var copy = self
    copy.required = true
    return copy
  }

  /// What the usage text needs, without the options type.
  var spec: FlagSpec {
    FlagSpec(name: name, value: value, help: help, repeatable: repeatable, required: required)
  }
}

/// A flag as the usage text shows it.
struct FlagSpec: Equatable {
  var name: String
  var value: String?
  var help: String
  var repeatable: Bool
  var required: Bool

  /// `--seed S`, or `--quiet`.
  var synopsis: String { value.map { "\(name) \($0)" } ?? name }
}

/// The value a flag was given, with the flag and command for messages.
struct FlagValue {
  var flag: String
  /// The text after the flag (`--n 1000` or `--n=1000`); empty for a switch.
  var text: String
  var command: String

  func error(_ message: String) -> UsageError { UsageError(message, command: command) }

  /// A whole number in `range` (`1000`, `1e6`, `1_000`).
  func integer(in range: ClosedRange<Int>) throws(UsageError) -> Int {
    try ArgumentReader.integer(text, flag: flag, in: range, command: command)
  }

  /// A comma-separated list of whole numbers, each in `range`.
  func integers(in range: ClosedRange<Int>) throws(UsageError) -> [Int] {
    var result: [Int] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      result.append(try ArgumentReader.integer(String(part), flag: flag, in: range, command: command))
    }
    return result
  }

  /// A comma-separated list of names from `valid` (any case; `all` is every
  /// one), duplicates dropped, order kept.
  func names(_ valid: [String], what: String) throws(UsageError) -> [String] {
    if text == "all" { return valid }
    var result: [String] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = part.lowercased()
      guard valid.contains(name) else { throw .unknown(what, String(part), valid: valid, command: command) }
      if !result.contains(name) { result.append(name) }
    }
    return result
  }
}
