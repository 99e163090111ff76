import BenchHarness
import BenchWorkloads
import SpatialIndexes

/// `bench list [--indexes|--workloads|--datasets|--columns] [--markdown]`:
/// one line each, the name first, then parameters and defaults, so scripts
/// can take the first word. Every line comes from a catalogue: indexes from
/// `allIndexTypes`, workloads from ``WorkloadCatalog``, report columns from
/// ``ReportColumn/all``. `--markdown` prints workloads and columns as the
/// tables the README and `docs/formats.md` hold (a test keeps them equal).
func listCommand(_ arguments: [String]) throws -> Int32 {
  var o = ListOptions()
  try ListOptions.table.parse(arguments, into: &o)
  let (sections, markdown) = (o.sections, o.markdown)
  if markdown {
    guard sections.count == 1, ["workloads", "columns"].contains(sections[0]) else {
      throw UsageError("--markdown goes with one of --workloads or --columns", command: "list")
    }
    output(sections[0] == "workloads" ? Listing.workloadTable : Listing.columnTable, terminator: "")
    return 0
  }
  let all = sections.isEmpty
  if all || sections.contains("indexes") {
    for type in allIndexTypes {
      let params = type.parameterDescriptions
        .map { "\($0.name)=\($0.defaultValue) (\($0.summary))" }.joined(separator: "  ")
      output([type.name, params.isEmpty ? "-" : params, "# " + type.summary].joined(separator: "  "))
    }
  }
  if all || sections.contains("workloads") {
    output("\(WorkloadCatalog.buildName)  # \(WorkloadCatalog.buildSummary)")
    for type in WorkloadCatalog.all {
      let variants = type.variants == [""] ? "" : "  strategies=\(type.variants.joined(separator: ","))"
      output("\(type.name)\(variants)  answers=query,\(type.answerColumns.joined(separator: ","))  # \(type.summary)")
    }
  }
  if all || sections.contains("datasets") {
    for d in BundledDataset.allCases { output("\(d.rawValue)  file=datasets/\(d.fileName)  # \(d.summary)") }
    for d in PointDistribution.catalog {
      output("\(d.name)  n=\(Datasets.defaultCount(d.name))  \(d.parameters)  # generator: \(d.summary)")
    }
  }
  if all || sections.contains("columns") {
    for c in ReportColumn.all { output("\(c.name)  \(c.kind.rawValue)  # \(c.meaning)") }
  }
  return 0
}

/// What `bench list` reads from the command line: the sections, in the
/// order given.
struct ListOptions {
  var sections: [String] = []
  var markdown = false

  static var table: FlagTable<ListOptions> {
    func section(_ name: String, _ help: String) -> Flag<ListOptions> {
      Flag("--" + name, help: help) { (o: inout ListOptions, _: FlagValue) throws(UsageError) in o.sections.append(name) }
    }
    return FlagTable("list", [
      section("indexes", "the indexes, their parameters and defaults"),
      section("workloads", "the workloads, their strategies and answer columns"),
      section("datasets", "the bundled datasets and the generators"),
      section("columns", "the report's columns"),
      .toggle("--markdown", \.markdown, help: "with --workloads or --columns: the table the READMEs hold"),
    ])
  }
}

/// The catalogues as Markdown tables.
enum Listing {
  /// | workload | steps need | strategies | answers (`bench query`) | what |
  static var workloadTable: String {
    var lines = [
      "| workload | steps need | strategies | answer columns (`bench query`) | what |",
      "|---|---|---|---|---|",
    ]
    lines.append("| `\(WorkloadCatalog.buildName)` | - | - | - | \(WorkloadCatalog.buildSummary) |")
    for type in WorkloadCatalog.all {
      let variants = type.variants == [""] ? "-" : type.variants.map { "`\($0)`" }.joined(separator: ", ")
      let answers = "`query,\(type.answerColumns.joined(separator: ","))`"
      lines.append("| `\(type.name)` | \(type.need.phrase) | \(variants) | \(answers) | \(type.summary) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// | column | kind | meaning |, one row per report column, in file order.
  static var columnTable: String {
    var lines = ["| column | kind | since | meaning |", "|---|---|---|---|"]
    for c in ReportColumn.all {
      lines.append("| `\(c.name)` | \(c.kind.rawValue) | \(c.addedIn) | \(c.meaning) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension DescribedIndex {
  static var parameterDescriptions: [ParameterDescription] { Parameters.descriptions }
}
