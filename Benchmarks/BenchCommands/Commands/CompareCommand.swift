import BenchHarness

/// `bench compare BASELINE.csv CURRENT.csv [--threshold PCT] [--timing-info]
/// [--markdown] [--allow-missing]`: prints old, new and ratio per figure (or,
/// with `--markdown`, a table for a pull-request comment); exit 1 on a
/// regression, changed answers, no row in common, or baseline rows or
/// counters missing (unless `--allow-missing`); exit 65 for a report with
/// two rows of one key.
/// Never writes to either input.
func compareCommand(_ arguments: [String]) throws -> Int32 {
  let command = "compare"
  var o = CompareOptions()
  try CompareOptions.table.parse(arguments, into: &o)
  let files = o.files
  guard files.count == 2 else {
    throw UsageError("compare needs two reports, got \(files.count)", command: command)
  }
  try OutputCheck.check([], inputs: files.map { InputSource("report", $0) })
  let baseline = try ReportFile.readOneRowPerKey(files[0])
  let current = try ReportFile.readOneRowPerKey(files[1])
  let comparison = Comparison(
    baseline: baseline, current: current, threshold: o.threshold / 100, judgesTiming: o.judgesTiming,
    allowsMissing: o.allowsMissing)
  output(o.markdown ? comparison.markdown() : comparison.text(), terminator: "")
  return comparison.outcome.exitCode
}

/// What `bench compare` reads from the command line.
struct CompareOptions {
  var files: [String] = []
  var threshold = 10.0
  var judgesTiming = true
  var markdown = false
  var allowsMissing = false

  static var table: FlagTable<CompareOptions> {
    FlagTable("compare", [
      Flag("--threshold", "PCT", help: "a slower median beyond this many percent regresses (default 10)") {
        (o: inout CompareOptions, v: FlagValue) throws(UsageError) in
        guard let t = Double(v.text), t.isFinite, t >= 0, t <= 1000 else {
          throw v.error("--threshold \"\(v.text)\" must be a percentage in 0...1000")
        }
        o.threshold = t
      },
      Flag("--timing-info", help: "timings printed, but only counters and answers decide") {
        (o: inout CompareOptions, _: FlagValue) throws(UsageError) in o.judgesTiming = false
      },
      .toggle("--markdown", \.markdown, help: "a Markdown table, for a pull-request comment"),
      .toggle("--allow-missing", \.allowsMissing, help: "baseline rows, or their counters, missing from the current report are no failure"),
    ]).taking("BASELINE.csv CURRENT.csv") { (o: inout CompareOptions, file: String) throws(UsageError) in
      o.files.append(file)
    }
  }
}
