/// The flags one command takes, and the one parser every command uses.
///
/// A command accepts exactly the flags of its table: a flag it has no use
/// for is refused (exit 64), never ignored, and so is a flag given twice
/// unless it is declared repeatable. The usage text is made from the same
/// table (``Usage``), so what `bench help` lists is what is accepted.
struct FlagTable<Options> {
  let command: String
  var flags: [Flag<Options>]
  /// Flags of sibling commands this one refuses, with the reason (`bench
  /// peer --param`: a database engine has no index parameters).
  var refused: [String: String] = [:]
  /// The operands' placeholder in the usage text (`REPORT.csv…`); nil when
  /// the command takes none.
  var operands: String? = nil
  /// Reads one operand (a word that is not a flag).
  var operand: ((inout Options, String) throws(UsageError) -> Void)? = nil

  init(_ command: String, _ flags: [Flag<Options>], refused: [String: String] = [:]) {
    self.command = command
    self.flags = flags
    self.refused = refused
  }

  /// The table with operands: words that do not start with `-`.
  func taking(
    _ operands: String, _ read: @escaping (inout Options, String) throws(UsageError) -> Void
  ) -> FlagTable {
    var copy = self
    copy.operands = operands
    copy.operand = read
    return copy
  }

  /// What the usage text needs.
  var spec: CommandSpec.Usage { CommandSpec.Usage(operands: operands, flags: flags.map(\.spec)) }

  /// Reads `arguments` into `options`: `--flag value`, `--flag=value`,
  /// switches and operands in any order. Returns the names of the flags
  /// given (a default that depends on whether one was).
  ///
  /// - Throws: ``UsageError`` for an unknown or refused flag, a flag given
  ///   twice, a missing or unwanted value, a bad value, an operand the
  ///   command does not take, or a required flag missing.
  @discardableResult
  func parse(_ arguments: [String], into options: inout Options) throws(UsageError) -> Set<String> {
    var given: Set<String> = []
    var rest = arguments[...]
    while let word = rest.popFirst() {
      guard word.hasPrefix("-") else {
        guard let operand else { throw UsageError("unexpected argument \"\(word)\"", command: command) }
        try operand(&options, word)
        continue
      }
      var name = word
      var inline: String? = nil
      if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
        name = String(word[..<eq])
        inline = String(word[word.index(after: eq)...])
      }
      guard let flag = flags.first(where: { $0.name == name }) else {
        if let why = refused[name] {
          throw UsageError("\(name) does not apply to bench \(command) (\(why))", command: command)
        }
        throw unknownOption(name, command: command, valid: flags.map(\.name))
      }
      guard given.insert(name).inserted || flag.repeatable else {
        throw UsageError("\(name) is given twice: give it once", command: command)
      }
      let text: String
      if flag.value == nil {
        guard inline == nil else { throw UsageError("\(name) takes no value", command: command) }
        text = ""
      } else if let inline {
        text = inline
      } else {
        // the next word, unless it is another flag (`--n --steps 5`)
        guard let next = rest.first, !(next.hasPrefix("--") && next.count > 2) else {
          throw UsageError("\(name) needs a value", command: command)
        }
        rest.removeFirst()
        text = next
      }
      try flag.apply(&options, FlagValue(flag: name, text: text, command: command))
    }
    for flag in flags where flag.required && !given.contains(flag.name) {
      throw UsageError("\(flag.spec.synopsis) is required", command: command)
    }
    return given
  }
}
