import BenchHarness

/// `bench compare BASELINE.csv CURRENT.csv [--threshold PCT] [--timing-info]
/// [--markdown] [--allow-missing]`: prints old, new and ratio per figure (or,
/// with `--markdown`, a table for a pull-request comment); exit 1 on a
/// regression, changed answers, no row in common, or baseline rows missing
/// (unless `--allow-missing`).
/// Never writes to either input.
func compareCommand(_ arguments: [String]) throws -> Int32 {
  let command = "compare"
  var reader = ArgumentReader(arguments, command: command)
  var files: [String] = []
  var threshold = 10.0
  var judgesTiming = true
  var markdown = false
  var allowsMissing = false
  while let a = reader.next() {
    switch a {
    case "--threshold":
      let text = try reader.value(for: a)
      guard let v = Double(text), v.isFinite, v >= 0, v <= 1000 else {
        throw UsageError("--threshold \"\(text)\" must be a percentage in 0...1000", command: command)
      }
      threshold = v
    case "--timing-info": judgesTiming = false
    case "--markdown": markdown = true
    case "--allow-missing": allowsMissing = true
    case "--help", "-h": output(Usage.text(for: command)); return 0
    default:
      guard !a.hasPrefix("-") else { throw unknownOption(a, command: command, valid: ["--threshold", "--timing-info", "--markdown", "--allow-missing"]) }
      files.append(a)
    }
  }
  guard files.count == 2 else {
    throw UsageError("compare needs two reports, got \(files.count)", command: command)
  }
  let baseline = try ReportFile.read(files[0])
  let current = try ReportFile.read(files[1])
  let comparison = Comparison(
    baseline: baseline, current: current, threshold: threshold / 100, judgesTiming: judgesTiming,
    allowsMissing: allowsMissing)
  output(markdown ? comparison.markdown() : comparison.text(), terminator: "")
  return comparison.outcome.exitCode
}
