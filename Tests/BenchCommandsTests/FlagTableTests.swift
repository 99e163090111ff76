import Testing

@testable import BenchCommands

/// One flag table a command (``FlagTable``): the parser's rules, and the
/// help made from the tables.
extension CLITests {
  @Suite struct FlagTableTests {
    /// `--param` is the one flag that adds: each names another parameter.
    @Test func paramMayBeRepeated() throws {
      let o = try RunOptions.parse(
        ["--index", "quadtree", "--param", "capacity=4", "--param", "maxDepth=8"], command: "run")
      #expect(o.params.map(\.key) == ["capacity", "maxDepth"])
      var speed = SpeedOptions()
      try SpeedOptions.table.parse(["--param", "nodeSize=8", "--threads", "1"], into: &speed)
      #expect(speed.params.map(\.key) == ["nodeSize", "threads"])
    }

    @Test func aSwitchTakesNoValueAndAFlagNeedsOne() {
      func message(_ arguments: [String]) -> String {
        var o = QueryOptions()
        do {
          try QueryOptions.table.parse(arguments, into: &o)
          return ""
        } catch {
          return error.message
        }
      }
      #expect(message(["--index", "grid", "--points", "p.csv", "--queries", "q.csv"]) == "")
      #expect(message(["--index"]) == "--index needs a value")
      #expect(message(["--index", "--points", "p.csv"]) == "--index needs a value")
      #expect(message(["--index", "grid", "--points", "p.csv"]) == "--queries FILE.csv is required")
      var run = RunOptions()
      #expect(throws: UsageError("--quiet takes no value", command: "run")) {
        try RunFlags.run.parse(["--quiet=yes"], into: &run)
      }
    }

    /// The one-name `--index` of `query` (no default) and `render` (a
    /// default) reads alike: one name of the catalogue, in any case.
    @Test func aOneNameIndexTakesOneName() throws {
      let files = ["--points", "p.csv", "--queries", "q.csv"], view = ["--center", "48,2", "--zoom", "5"]
      var query = QueryOptions()
      try QueryOptions.table.parse(["--index", "KDTree"] + files, into: &query)
      #expect(query.index == "kdtree")
      var render = RenderOptions()
      try RenderOptions.table.parse(["--index", "grid"] + view, into: &render)
      #expect(render.index == "grid")
      #expect(throws: UsageError("--index takes one name here", command: "query")) {
        try QueryOptions.table.parse(["--index", "kdtree,grid"] + files, into: &query)
      }
      #expect(throws: UsageError("--index takes one name here", command: "render")) {
        try RenderOptions.table.parse(["--index", "all"] + view, into: &render)
      }
    }

    /// `peer --workload=…` (the `=` form) used to be overridden by peer's
    /// default workloads, which looked for the word `--workload`.
    @Test func peerKeepsItsWorkloadInEitherForm() throws {
      for arguments in [["--workload", "tap"], ["--workload=tap"]] {
        #expect(try RunOptions.parse(arguments, command: "peer").workloads == ["tap"])
      }
      #expect(try RunOptions.parse([], command: "peer").workloads == RunOptions.peerWorkloads)
    }

    /// The help of each command is made from its table: every flag it
    /// accepts is listed, and every flag listed is accepted.
    @Test func helpListsExactlyTheAcceptedFlags() {
      for command in CommandCatalog.all {
        let help = Usage.text(for: command.name)
        for flag in command.usage.flags {
          #expect(help.contains("\n  " + flag.synopsis + " "), "\(command.name): \(flag.name)")
          #expect(Usage.synopsis(for: command.name).contains(flag.synopsis), "\(command.name): \(flag.name)")
        }
        let listed = help.split(separator: "\n").filter { $0.hasPrefix("  --") }
          .map { String($0.dropFirst(2).prefix { $0 != " " }) }
        #expect(listed == command.usage.flags.map(\.name), "\(command.name)")
        #expect(Usage.line(for: command.name).count <= 160, "\(command.name)")
      }
    }
  }
}
