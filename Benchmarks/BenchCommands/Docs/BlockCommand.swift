import BenchHarness

/// The commands a guide's generated block may hold, run in this process:
/// those that print a Markdown table or page from the repository's own
/// files and declarations, and nothing else (a block never runs a
/// benchmark, writes a file, or reads outside the repository).
///
/// - `bench table REPORT.csv… …`, the reports named relative to the
///   repository's root;
/// - `bench show REPORT.csv… …`, in a fenced block: what `bench run` or
///   `recommend` printed for those rows;
/// - `bench help --markdown [COMMAND]`, the command reference;
/// - `bench list --workloads --markdown`, `bench list --columns --markdown`.
enum BlockCommand {
  /// What `command` prints, run at `root`.
  ///
  /// - Throws: a reason with the command's own exit code (a usage error in a
  ///   guide is bad data there: 65), for a command that is refused or fails.
  static func output(of command: String, root: String) throws(DocsError.Reason) -> String {
    let words = try CommandWords.split(command)
    guard words.count >= 2, words[0] == "bench" else {
      throw DocsError.Reason("\"\(command)\" is not a bench command (\(allowed))")
    }
    let arguments = Array(words.dropFirst(2))
    do {
      switch words[1] {
      case "table":
        var o = TableOptions()
        try TableOptions.table.parse(arguments, into: &o)
        if let absolute = o.files.first(where: { $0.hasPrefix("/") }) {
          throw DocsError.Reason("\(absolute): a guide names its reports relative to the repository's root")
        }
        return try o.markdown(root: root)
      case "show":
        var o = ShowOptions()
        try ShowOptions.table.parse(arguments, into: &o)
        if let absolute = o.files.first(where: { $0.hasPrefix("/") }) {
          throw DocsError.Reason("\(absolute): a guide names its reports relative to the repository's root")
        }
        return "```text\n" + (try o.text(root: root)) + "```\n"
      case "help":
        guard arguments.contains("--markdown") else { throw DocsError.Reason("bench help makes a block only with --markdown") }
        let text = try helpText(arguments)
        return text.hasSuffix("\n") ? text : text + "\n"
      case "list":
        var o = ListOptions()
        try ListOptions.table.parse(arguments, into: &o)
        let tables = ["workloads": Listing.workloadTable, "columns": Listing.columnTable]
        guard o.markdown, o.sections.count == 1, let table = tables[o.sections[0]] else {
          throw DocsError.Reason("bench list makes a block only as --workloads --markdown or --columns --markdown")
        }
        return table
      default:
        throw DocsError.Reason("bench \(words[1]) makes no block (\(allowed))")
      }
    } catch let reason as DocsError.Reason {
      throw reason
    } catch let usage as UsageError {
      throw DocsError.Reason("bench \(words[1]): \(usage.message)")
    } catch {
      let (code, message) = report(error)
      let text = message.hasPrefix("bench: ") ? String(message.dropFirst("bench: ".count)) : message
      throw DocsError.Reason(
        "bench \(words[1]): " + text.split(separator: "\n").joined(separator: "; "), exitCode: code)
    }
  }

  static let allowed = "a block holds bench table, bench show, bench help --markdown or bench list --markdown"
}
