import BenchFormats

/// Two reports joined row by row, each figure judged old against new.
///
/// Rows are joined on `ReportKey` (index, params, dataset, n, workload,
/// strategy). What counts as a regression:
///
/// - **Timing** (`median_ns`): the current median is more than `threshold`
///   (default 10%) slower *and* the two 95% intervals of the median do not
///   overlap. A change past the threshold with overlapping intervals is
///   "within noise"; faster by more than the threshold with disjoint intervals
///   is an improvement. See `judgeTiming(old:new:threshold:)`.
/// - **Counters** (`nodes_visited`, `points_tested`, `points_reported`):
///   deterministic, so any increase is a regression and any decrease an
///   improvement. A counter recorded on one side only is "n/a".
/// - **Answers** (`results_total`, `checksum`): any change "differs" — the
///   index now returns different ids — and counts as a regression, since wrong
///   answers are worse than slow ones.
/// - `build_ms`, `index_bytes`, `peak_rss_bytes` are shown for information
///   only: build time is a single sample with no interval, and memory changes
///   are usually deliberate trade-offs.
///
/// Rows present on one side only are listed but are not regressions: suites
/// gain and lose rows as they evolve, and the CLI can refuse them if it wants.
/// When a key appears twice in one file (e.g. after `--append`), the last row
/// wins and a warning says so. A warning also says when the files come from
/// different machines (cpu_model, cores or os, or memory_bytes more than 2%
/// apart: ``MachineInfo/isSameClass(as:)``) or build
/// configurations, where ratios mean little.
public struct Comparison: Sendable {
  /// How one figure changed.
  public enum Verdict: String, Sendable, Equatable {
    case same
    case improved
    case regressed
    case withinNoise = "within noise"
    /// Answers changed (results_total or checksum).
    case differs
    /// Shown for information, not judged.
    case info
    /// Cannot be judged: a zero baseline, or recorded on one side only.
    case notComparable = "n/a"
  }

  /// One figure of one joined row.
  public struct Figure: Sendable, Equatable {
    /// Column name, e.g. `median_ns`.
    public var name: String
    /// Baseline and current values as printed ("" when not recorded).
    public var old: String
    public var new: String
    /// `new / old`, when both are numbers and `old` is not zero.
    public var ratio: Double?
    public var verdict: Verdict

    public init(name: String, old: String, new: String, ratio: Double?, verdict: Verdict) {
      self.name = name
      self.old = old
      self.new = new
      self.ratio = ratio
      self.verdict = verdict
    }

    /// A regression or changed answers.
    public var isRegression: Bool { verdict == .regressed || verdict == .differs }
  }

  /// One key present in both reports.
  public struct Entry: Sendable, Equatable {
    public var key: ReportKey
    public var figures: [Figure]
    public var hasRegression: Bool { figures.contains(where: \.isRegression) }

    /// The figure named `name`, if shown.
    public func figure(_ name: String) -> Figure? { figures.first { $0.name == name } }
  }

  /// Whether the CLI should fail. A gate that compared nothing, or lost
  /// rows, must not pass: an index or workload that vanished from the
  /// current report would otherwise hide every regression it had.
  public enum Outcome: Sendable, Equatable {
    case noRegression
    case regression
    /// No row of one report matches a row of the other.
    case nothingCompared
    /// Rows of the baseline are missing from the current report (and
    /// missing rows were not allowed).
    case rowsMissing

    /// 0 with no regression, else 1.
    public var exitCode: Int32 { self == .noRegression ? 0 : 1 }

    /// The result line, e.g. `Result: REGRESSION`.
    public var line: String {
      switch self {
      case .noRegression: "no regression"
      case .regression: "REGRESSION"
      case .nothingCompared: "NOTHING COMPARED (no row of one report matches the other)"
      case .rowsMissing: "ROWS MISSING (baseline rows absent from the current report; --allow-missing accepts that)"
      }
    }
  }

  /// The default slowdown that counts, as a fraction (0.10 = 10%).
  public static let defaultThreshold = 0.10

  public let threshold: Double
  /// False when timings are printed for information only (CI machines are
  /// noisy): then only counters and answers decide the outcome.
  public let judgesTiming: Bool
  /// Joined rows, ordered by key.
  public let entries: [Entry]
  /// Keys only the baseline has, ordered.
  public let onlyInBaseline: [ReportKey]
  /// Keys only the current report has, ordered.
  public let onlyInCurrent: [ReportKey]
  /// Different machines, build configurations, duplicate keys.
  public let warnings: [String]
  /// Whether baseline rows may be missing from the current report.
  public let allowsMissing: Bool

  /// Compares `current` against `baseline`.
  ///
  /// - Complexity: O((b + c) log (b + c)) for b and c rows.
  public init(
    baseline: [ReportRow], current: [ReportRow], threshold: Double = Comparison.defaultThreshold,
    judgesTiming: Bool = true, allowsMissing: Bool = false
  ) {
    self.threshold = threshold
    self.judgesTiming = judgesTiming
    self.allowsMissing = allowsMissing
    var warnings: [String] = []
    let old = Comparison.index(baseline, side: "baseline", warnings: &warnings)
    let new = Comparison.index(current, side: "current", warnings: &warnings)
    entries = old.keys.filter { new[$0] != nil }.sorted().map { key in
      Entry(key: key, figures: Comparison.figures(old[key]!, new[key]!, threshold: threshold))
    }
    onlyInBaseline = old.keys.filter { new[$0] == nil }.sorted()
    onlyInCurrent = new.keys.filter { old[$0] == nil }.sorted()
    warnings += Comparison.environmentWarnings(baseline, current)
    self.warnings = warnings
  }

  /// `.nothingCompared` when no row joined; `.regression` when any figure
  /// regressed or any answer differs (timing figures only when
  /// ``judgesTiming``); `.rowsMissing` when baseline rows are gone and that
  /// is not allowed.
  public var outcome: Outcome {
    if entries.isEmpty { return .nothingCompared }
    let failing = entries.contains { entry in
      entry.figures.contains { $0.isRegression && (judgesTiming || $0.name != "median_ns") }
    }
    if failing { return .regression }
    if !onlyInBaseline.isEmpty && !allowsMissing { return .rowsMissing }
    return .noRegression
  }

  /// Judges a median: see the type's notes. `ratio` is new / old median.
  ///
  /// Overlap is tested on closed intervals, so touching intervals overlap.
  /// A zero baseline median cannot give a ratio: "same" if the new one is
  /// zero too, else "n/a".
  public static func judgeTiming(
    old: TimingSummary, new: TimingSummary, threshold: Double = defaultThreshold
  ) -> Figure {
    let name = "median_ns"
    guard old.median > 0 else {
      let verdict: Verdict = new.median == 0 ? .same : .notComparable
      return Figure(
        name: name, old: formatFigure(old.median), new: formatFigure(new.median), ratio: nil,
        verdict: verdict)
    }
    let ratio = new.median / old.median
    let disjoint = new.ciLow > old.ciHigh || new.ciHigh < old.ciLow
    let verdict: Verdict
    if ratio > 1 + threshold {
      verdict = disjoint ? .regressed : .withinNoise
    } else if ratio < 1 - threshold {
      verdict = disjoint ? .improved : .withinNoise
    } else {
      verdict = .same
    }
    return Figure(
      name: name, old: formatFigure(old.median), new: formatFigure(new.median), ratio: ratio,
      verdict: verdict)
  }

  // MARK: - Building

  private static func index(
    _ rows: [ReportRow], side: String, warnings: inout [String]
  ) -> [ReportKey: ReportRow] {
    var byKey: [ReportKey: ReportRow] = [:]
    var duplicates: Set<ReportKey> = []
    for row in rows {
      if byKey.updateValue(row, forKey: row.key) != nil { duplicates.insert(row.key) }
    }
    for key in duplicates.sorted() {
      warnings.append("\(side) has more than one row for \(key); using the last")
    }
    return byKey
  }

  private static func figures(_ a: ReportRow, _ b: ReportRow, threshold: Double) -> [Figure] {
    var result = [judgeTiming(old: a.timing, new: b.timing, threshold: threshold)]
    result.append(info("build_ms", a.buildMilliseconds, b.buildMilliseconds))
    result.append(info("index_bytes", Double(a.indexBytes), Double(b.indexBytes)))
    result.append(info("peak_rss_bytes", Double(a.peakRSSBytes), Double(b.peakRSSBytes)))
    result.append(
      Figure(
        name: "results_total", old: String(a.resultsTotal), new: String(b.resultsTotal),
        ratio: ratio(Double(a.resultsTotal), Double(b.resultsTotal)),
        verdict: a.resultsTotal == b.resultsTotal ? .same : .differs))
    result.append(
      Figure(
        name: "checksum", old: CSVWriter.hexField(a.checksum), new: CSVWriter.hexField(b.checksum),
        ratio: nil, verdict: a.checksum == b.checksum ? .same : .differs))
    let counters: [(String, UInt64?, UInt64?)] = [
      ("nodes_visited", a.counters.nodesVisited, b.counters.nodesVisited),
      ("points_tested", a.counters.pointsTested, b.counters.pointsTested),
      ("points_reported", a.counters.pointsReported, b.counters.pointsReported),
    ]
    for (name, old, new) in counters where old != nil || new != nil {
      let verdict: Verdict
      switch (old, new) {
      case let (o?, n?): verdict = n > o ? .regressed : n < o ? .improved : .same
      default: verdict = .notComparable
      }
      result.append(
        Figure(
          name: name, old: old.map { String($0) } ?? "", new: new.map { String($0) } ?? "",
          ratio: old.flatMap { o in new.flatMap { ratio(Double(o), Double($0)) } },
          verdict: verdict))
    }
    return result
  }

  private static func info(_ name: String, _ old: Double, _ new: Double) -> Figure {
    Figure(
      name: name, old: formatFigure(old), new: formatFigure(new), ratio: ratio(old, new),
      verdict: .info)
  }

  private static func ratio(_ old: Double, _ new: Double) -> Double? {
    old != 0 ? new / old : nil
  }

  private static func environmentWarnings(_ a: [ReportRow], _ b: [ReportRow]) -> [String] {
    var warnings: [String] = []
    let oldMachines = Set(a.map(\.run.machine)), newMachines = Set(b.map(\.run.machine))
    let matched = { (these: Set<MachineInfo>, those: Set<MachineInfo>) in
      these.allSatisfy { m in those.contains { m.isSameClass(as: $0) } }
    }
    if !a.isEmpty, !b.isEmpty, !matched(oldMachines, newMachines) || !matched(newMachines, oldMachines) {
      warnings.append(
        "the reports come from different machines; ratios may reflect the machine, not the code"
          + " (baseline: \(describe(oldMachines)); current: \(describe(newMachines)))")
    }
    let oldConfigs = Set(a.map(\.run.buildConfig)), newConfigs = Set(b.map(\.run.buildConfig))
    if !a.isEmpty, !b.isEmpty, oldConfigs != newConfigs {
      warnings.append(
        "the reports come from different build configurations (baseline: "
          + "\(oldConfigs.sorted().joined(separator: ", ")); current: "
          + "\(newConfigs.sorted().joined(separator: ", ")))")
    }
    return warnings
  }

  private static func describe(_ machines: Set<MachineInfo>) -> String {
    machines.map(\.description).sorted().joined(separator: " | ")
  }
}
