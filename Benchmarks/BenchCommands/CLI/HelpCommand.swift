/// `bench help [--markdown] [COMMAND]`: the overview or one command's help
/// (``Usage``), as the terminal shows it or, with `--markdown`, as the
/// command reference in docs/bench.md holds it.
func helpText(_ arguments: [String]) throws(UsageError) -> String {
  let markdown = arguments.contains("--markdown")
  let words = arguments.filter { $0 != "--markdown" }
  guard let topic = words.first else { return markdown ? Usage.markdown : Usage.overview }
  guard Usage.commands.contains(topic) else {
    throw UsageError.unknown("command", topic, valid: Usage.commands, command: "help")
  }
  return markdown ? Usage.markdown(for: topic) : Usage.text(for: topic)
}
