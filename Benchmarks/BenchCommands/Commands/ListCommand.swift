import BenchHarness
import BenchWorkloads
import SpatialIndexes

/// `bench list [--indexes|--workloads|--datasets|--columns] [--markdown]`:
/// one line each, the name first, then parameters and defaults, so scripts
/// can take the first word. Every line comes from a catalogue: indexes from
/// `allIndexTypes`, workloads from ``WorkloadCatalog``, report columns from
/// ``ReportColumn/all``. `--markdown` prints workloads and columns as the
/// tables the README and `results/README.md` hold (a test keeps them equal).
func listCommand(_ arguments: [String]) throws -> Int32 {
  var sections: [String] = []
  var markdown = false
  var reader = ArgumentReader(arguments, command: "list")
  let flags = ["--indexes", "--workloads", "--datasets", "--columns", "--markdown"]
  while let a = reader.next() {
    switch a {
    case "--indexes": sections.append("indexes")
    case "--workloads": sections.append("workloads")
    case "--datasets": sections.append("datasets")
    case "--columns": sections.append("columns")
    case "--markdown": markdown = true
    case "--help", "-h": output(Usage.text(for: "list")); return 0
    default: throw unknownOption(a, command: "list", valid: flags)
    }
  }
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

extension SpatialIndex {
  static var parameterDescriptions: [ParameterDescription] { Parameters.descriptions }
}
