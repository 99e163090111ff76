import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// `bench list [--indexes|--workloads|--datasets]`: one line each, the name
/// first, then parameters and defaults, so scripts can take the first word.
func listCommand(_ arguments: [String]) throws -> Int32 {
  var sections: [String] = []
  var reader = ArgumentReader(arguments, command: "list")
  while let a = reader.next() {
    switch a {
    case "--indexes": sections.append("indexes")
    case "--workloads": sections.append("workloads")
    case "--datasets": sections.append("datasets")
    case "--help", "-h": print(Usage.text(for: "list")); return 0
    default: throw unknownOption(a, command: "list", valid: ["--indexes", "--workloads", "--datasets"])
    }
  }
  let all = sections.isEmpty
  if all || sections.contains("indexes") {
    for type in allIndexTypes {
      let params = type.parameterDescriptions
        .map { "\($0.name)=\($0.defaultValue) (\($0.summary))" }.joined(separator: "  ")
      print([type.name, params.isEmpty ? "-" : params, "# " + type.summary].joined(separator: "  "))
    }
  }
  if all || sections.contains("workloads") {
    for (name, summary) in workloadSummaries { print("\(name)  # \(summary)") }
  }
  if all || sections.contains("datasets") {
    for d in BundledDataset.allCases { print("\(d.rawValue)  file=datasets/\(d.fileName)  # \(d.summary)") }
    for d in PointDistribution.catalog {
      print("\(d.name)  n=\(DatasetResolver.defaultCount(d.name))  \(d.parameters)  # generator: \(d.summary)")
    }
  }
  return 0
}

let workloadSummaries = [
  ("build", "build each index from the dataset"),
  ("viewport", "pan-and-zoom session: every point in each viewport (or a --queries file)"),
  ("cluster", "the session clustered into grid markers; strategies per-cell, single-pass, aggregate"),
  ("tap", "nearest point within 22 screen points of a tap, ties to the smaller id"),
]

extension SpatialIndex {
  static var parameterDescriptions: [ParameterDescription] { Parameters.descriptions }
}
