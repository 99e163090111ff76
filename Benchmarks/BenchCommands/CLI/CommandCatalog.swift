/// One `bench` command, declared once: ``dispatch(_:)`` runs it, and the
/// overview, the usage lines and `bench help COMMAND` list it with the
/// flags of its table.
struct CommandSpec {
  /// Operands and flags, as the usage text shows them.
  struct Usage {
    var operands: String?
    var flags: [FlagSpec]
  }

  var name: String
  /// Its line in the overview.
  var summary: String
  var usage: Usage
  var run: ([String]) throws -> Int32
}

/// Every command, in the order `bench help` lists them.
enum CommandCatalog {
  static var all: [CommandSpec] {
    var peer = RunFlags.peer.spec
    peer.operands = "postgis"
    return [
      CommandSpec(
        name: "run", summary: "run workloads on indexes: a table, the verdict, a CSV report and its HTML page (the default)",
        usage: RunFlags.run.spec, run: runCommand),
      CommandSpec(
        name: "recommend", summary: "measure every index on your data and say which to use, with an HTML page",
        usage: RecommendOptions.table.spec, run: recommendCommand),
      CommandSpec(
        name: "report", summary: "one self-contained HTML page of one or more reports: verdict, charts, table, map",
        usage: ReportOptions.table.spec, run: reportCommand),
      CommandSpec(
        name: "peer", summary: "the same workloads on PostGIS, timed in the server and from the client, answers checked",
        usage: peer, run: peerCommand),
      CommandSpec(
        name: "list", summary: "list indexes, workloads or datasets with their parameters",
        usage: ListOptions.table.spec, run: listCommand),
      CommandSpec(
        name: "verify", summary: "check every index against the linear scan; exit 1 on any difference",
        usage: RunFlags.verify.spec, run: verifyCommand),
      CommandSpec(
        name: "fuzz", summary: "hostile random cases: every index against the linear scan, and it against the rules",
        usage: FuzzOptions.table.spec, run: fuzzCommand),
      CommandSpec(
        name: "query", summary: "answer a queries file with one index, in the workload's columns (below)",
        usage: QueryOptions.table.spec, run: queryCommand),
      CommandSpec(
        name: "save", summary: "build one static index over a dataset and write it as a saved index (--index-file)",
        usage: RunFlags.save.spec, run: saveCommand),
      CommandSpec(
        name: "export", summary: "write a dataset's points and a session's viewports and taps as files",
        usage: RunFlags.export.spec, run: exportCommand),
      CommandSpec(
        name: "compare", summary: "compare two reports; exit 1 on a regression",
        usage: CompareOptions.table.spec, run: compareCommand),
      CommandSpec(
        name: "plot", summary: "draw SVG charts of one or more reports",
        usage: PlotOptions.table.spec, run: plotCommand),
      CommandSpec(
        name: "table", summary: "a Markdown table of one or more reports' figures, as the guides hold them",
        usage: TableOptions.table.spec, run: tableCommand),
      CommandSpec(
        name: "show", summary: "a report's rows as bench run prints them, and the verdict (or --verdict alone)",
        usage: ShowOptions.table.spec, run: showCommand),
      CommandSpec(
        name: "docs", summary: "remake the guides' generated tables from the reports; --check that they are current",
        usage: DocsOptions.table.spec, run: docsCommand),
      CommandSpec(
        name: "api", summary: "list the libraries' public API in api/ from the symbol graphs; --check that it is current",
        usage: APIOptions.table.spec, run: apiCommand),
      CommandSpec(
        name: "render", summary: "draw the cluster workload's markers for a viewport (or before and after a pan)",
        usage: RenderOptions.table.spec, run: renderCommand),
      CommandSpec(
        name: "speed",
        summary: "the core micro-benchmark: uniform points, square queries of 1e-4, 1e-3, 1e-2 of the area",
        usage: SpeedOptions.table.spec, run: speedCommand),
    ]
  }

  static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }
}
