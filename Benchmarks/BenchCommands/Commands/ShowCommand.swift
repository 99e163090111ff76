import BenchHarness

/// `bench show REPORT.csv… [--where FIELD=V[,V…]]… [--verdict] [--fps HZ]`:
/// a report's rows as `bench run` prints them, then the verdict of each
/// dataset by `recommend`'s rules; with `--verdict`, the verdict alone, as
/// `recommend` prints it. Nothing is measured: the figures are the
/// report's. The README shows the main job and a verdict this way, from
/// the reference reports, in generated blocks.
struct ShowOptions {
  var files: [String] = []
  var filters: [TableCondition] = []
  var verdictOnly = false
  var framesPerSecond = 60.0

  static var table: FlagTable<ShowOptions> {
    FlagTable("show", [
      Flag(
        "--where", "FIELD=V[,V…]", help: "keep the rows whose FIELD is one of the values (strategy= is none)",
        repeatable: true
      ) { (o: inout ShowOptions, v: FlagValue) throws(UsageError) in
        let condition = Result { () throws(TableError) in try TableCondition(v.text) }
        switch condition {
        case .success(let c): o.filters.append(c)
        case .failure(let error): throw UsageError("\(v.flag): \(error.message)", command: v.command)
        }
      },
      Flag("--verdict", help: "the verdict alone, as bench recommend prints it") {
        (o: inout ShowOptions, _: FlagValue) throws(UsageError) in o.verdictOnly = true
      },
      Flag("--fps", "HZ", help: "frames a second the verdict budgets for (default 60)") {
        (o: inout ShowOptions, v: FlagValue) throws(UsageError) in
        o.framesPerSecond = Double(try v.integer(in: 1...1000))
      },
    ]).taking("REPORT.csv…") { (o: inout ShowOptions, file: String) throws(UsageError) in o.files.append(file) }
  }

  /// What `show` prints, from the reports read at `root` + their names.
  ///
  /// - Throws: ``UsageError`` without a report, or when the filters keep no
  ///   row; ``ReportError`` for a report that cannot be read.
  func text(root: String? = nil) throws -> String {
    guard !files.isEmpty else { throw UsageError("show needs at least one report", command: "show") }
    var rows: [ReportRow] = []
    for file in files {
      let path = root.map { $0 + "/" + file } ?? file
      rows += try TableReport.read(path, name: file).map(\.row).filter { row in
        filters.allSatisfy { $0.matches(row) }
      }
    }
    guard !rows.isEmpty else {
      let kept = filters.map(\.description).joined(separator: " ")
      throw UsageError("no row of \(files.joined(separator: ", ")) has \(kept)", command: "show")
    }
    let budget = FrameBudget(framesPerSecond: framesPerSecond)
    var lines: [String] = []
    if !verdictOnly { lines.append(ResultsTable.render(rows)) }
    for (i, verdict) in Verdict.all(in: rows, budget: budget).enumerated() {
      if !verdictOnly || i > 0 { lines.append("") }
      lines += verdict.lines
    }
    return lines.joined(separator: "\n").replacingOccurrences(of: "\n\n\n", with: "\n\n") + "\n"
  }
}

func showCommand(_ arguments: [String]) throws -> Int32 {
  var options = ShowOptions()
  try ShowOptions.table.parse(arguments, into: &options)
  output(try options.text(), terminator: "")
  return 0
}
