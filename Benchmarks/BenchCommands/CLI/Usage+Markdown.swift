import Foundation

/// The command reference as Markdown (`bench help --markdown`), made from
/// the same declarations and prose as `bench help`: each command's summary
/// (``CommandCatalog``), its synopsis and option table (its flag table) and
/// what it does (``Usage/about(_:)``). docs/bench.md holds it in a generated
/// block, which `bench docs --check` keeps equal to this.
extension Usage {
  /// The whole reference: the commands, the rules every command keeps, then
  /// a section per command.
  static var markdown: String {
    var lines = ["| command | what it does |", "|---|---|"]
    for spec in CommandCatalog.all {
      lines.append("| [`\(spec.name)`](#bench-\(spec.name)) | \(cell(spec.summary)) |")
    }
    lines.append("| [`help`](#bench-help) | \(cell(helpSummary)) |")
    var text = lines.joined(separator: "\n") + "\n\n"
    text += prose(flagRule) + "\n\n" + prose("Exit codes: " + exitCodes) + "\n"
    for command in commands {
      text += "\n" + markdown(for: command)
    }
    return text
  }

  /// One command's section: a heading, its summary, the synopsis, what it
  /// does and its options.
  static func markdown(for command: String) -> String {
    let summary = CommandCatalog.named(command)?.summary ?? helpSummary
    var text = "### bench \(command)\n\n\(prose(capitalized(summary))).\n\n"
    text += "```text\n\(synopsis(for: command))\n```\n"
    for paragraph in paragraphs(about(command)) { text += "\n" + paragraph + "\n" }
    let flags = CommandCatalog.named(command)?.usage.flags ?? []
    if !flags.isEmpty {
      text += "\n| option | what it does |\n|---|---|\n"
      for flag in flags {
        var help = flag.help.split(separator: "\n").joined(separator: " ")
        if flag.required { help += " (required)" }
        if flag.repeatable { help += " (may be repeated)" }
        text += "| `\(flag.synopsis.replacingOccurrences(of: "|", with: "\\|"))` | \(cell(help)) |\n"
      }
    }
    return text
  }

  static let helpSummary = "this text, or one command's"

  // MARK: - Markdown from plain text

  /// The about text as Markdown blocks: its paragraphs (split at blank
  /// lines) as prose, lines indented by two spaces (a list of columns) as
  /// fenced text.
  private static func paragraphs(_ text: String) -> [String] {
    var blocks: [String] = []
    var prose: [String] = []
    var code: [String] = []
    func flush() {
      if !prose.isEmpty { blocks.append(prose.map(Usage.prose).joined(separator: "\n")) }
      if !code.isEmpty { blocks.append("```text\n" + code.joined(separator: "\n") + "\n```") }
      prose = []
      code = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.trimmingCharacters(in: .whitespaces).isEmpty {
        flush()
      } else if line.hasPrefix("  ") {
        if !prose.isEmpty { flush() }
        code.append(String(line.dropFirst(2)))
      } else {
        if !code.isEmpty { flush() }
        prose.append(line)
      }
    }
    flush()
    return blocks
  }

  /// A line of plain text as Markdown that shows it as written: outside
  /// `code` spans, `<`, `>`, `*`, `[`, `]` and `\` escaped, and a line start
  /// that Markdown would read as a list, heading or rule escaped.
  static func prose(_ text: String) -> String {
    var result = ""
    var inCode = false
    for c in text {
      if c == "`" { inCode.toggle() }
      if !inCode && "<>*[]\\".contains(c) {
        result += "\\"
      }
      result.append(c)
    }
    // each line's start
    return result.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      let s = String(line)
      if let first = s.first, "-+#=".contains(first) { return "\\" + s }
      let digits = s.prefix { $0.isASCII && $0.isNumber }
      if !digits.isEmpty, let next = s.dropFirst(digits.count).first, next == "." || next == ")" {
        return digits + "\\" + s.dropFirst(digits.count)
      }
      return s
    }.joined(separator: "\n")
  }

  /// Text for a table cell: prose, with `|` escaped.
  private static func cell(_ text: String) -> String {
    prose(text).replacingOccurrences(of: "|", with: "\\|")
  }

  private static func capitalized(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }
}
