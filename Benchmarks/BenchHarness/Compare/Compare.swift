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
///   improvement. A counter the baseline recorded and the current report
///   lacks (a run without `--counters`) is "missing", and fails the
///   comparison unless missing figures are allowed: a gate that checked
///   no counter must not pass. One only the current report has is "n/a".
/// - **Answers** (`results_total`, `checksum`): any change "differs" — the
///   index now returns different ids — and counts as a regression, since wrong
///   answers are worse than slow ones.
/// - `build_ms`, `index_bytes`, `peak_rss_bytes` are shown for information
///   only: build time is a single sample with no interval, and memory changes
///   are usually deliberate trade-offs.
///
/// Rows present on one side only are listed; baseline rows missing from the
/// current report fail unless allowed, rows only the current report has are
/// new work. A key with two rows in one report (e.g. after `--append`) fails
/// the comparison whatever is allowed: which row is "the" row is not known,
/// and comparing one would hide a regression of the other (`bench compare`
/// refuses such a report before, naming the lines: see
/// ``ReportFile/readOneRowPerKey(_:)``).
///
/// Rows of one key whose data differ are not the same row: a points file
/// whose fingerprint changed between the reports (edited, or another file
/// at that path; ``DatasetOrigin/sameData(as:)``) measured other points, so
/// its rows are listed on both sides as present on one only, and a warning
/// names the dataset and both fingerprints. Where that cannot be told (a
/// report of schema 3 or older, a file that was not a regular one) the rows
/// are joined. A warning also says when the files come from
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
    /// Cannot be judged: a zero baseline, or recorded in the current
    /// report only.
    case notComparable = "n/a"
    /// Recorded in the baseline, not in the current report (a counter of a
    /// run without `--counters`): nothing shows it did not regress.
    case missing
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
    /// Work counters of the baseline are missing from joined rows of the
    /// current report (and missing figures were not allowed).
    case countersMissing
    /// A report holds two rows with one key: which to compare is unknown.
    case duplicateRows

    /// 0 with no regression, else 1.
    public var exitCode: Int32 { self == .noRegression ? 0 : 1 }

    /// The result line, e.g. `Result: REGRESSION`.
    public var line: String {
      switch self {
      case .noRegression: "no regression"
      case .regression: "REGRESSION"
      case .nothingCompared: "NOTHING COMPARED (no row of one report matches the other)"
      case .rowsMissing: "ROWS MISSING (baseline rows absent from the current report; --allow-missing accepts that)"
      case .countersMissing:
        "COUNTERS MISSING (the baseline's work counters absent from the current report; --allow-missing accepts that)"
      case .duplicateRows: "DUPLICATE ROWS (a report holds two rows with one key: which to compare is unknown)"
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
  /// Whether baseline rows, and counters of joined rows, may be missing
  /// from the current report.
  public let allowsMissing: Bool
  /// Keys with more than one row in either report, ordered.
  public let duplicateKeys: [ReportKey]
  /// Joined rows whose current row lacks a counter the baseline recorded, ordered.
  public var countersMissing: [ReportKey] {
    entries.filter { $0.figures.contains { $0.verdict == .missing } }.map(\.key)
  }

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
    var duplicates: Set<ReportKey> = []
    let old = Comparison.index(baseline, side: "baseline", warnings: &warnings, duplicates: &duplicates)
    let new = Comparison.index(current, side: "current", warnings: &warnings, duplicates: &duplicates)
    duplicateKeys = duplicates.sorted()
    // keys of both whose rows measured other points: not the same row
    let otherData = Set(old.keys.filter { key in
      new[key].map { old[key]!.datasetOrigin.sameData(as: $0.datasetOrigin) == false } ?? false
    })
    entries = old.keys.filter { new[$0] != nil && !otherData.contains($0) }.sorted().map { key in
      Entry(key: key, figures: Comparison.figures(old[key]!, new[key]!, threshold: threshold))
    }
    onlyInBaseline = old.keys.filter { new[$0] == nil || otherData.contains($0) }.sorted()
    onlyInCurrent = new.keys.filter { old[$0] == nil || otherData.contains($0) }.sorted()
    warnings += Comparison.dataWarnings(otherData, old, new)
    warnings += Comparison.environmentWarnings(baseline, current)
    self.warnings = warnings
  }

  /// In this order: `.duplicateRows` when a report holds a key twice;
  /// `.nothingCompared` when no row joined; `.regression` when any figure
  /// regressed or any answer differs (timing figures only when
  /// ``judgesTiming``); `.countersMissing` when joined rows lost the
  /// baseline's counters, and `.rowsMissing` when baseline rows are gone,
  /// each unless missing figures are allowed.
  public var outcome: Outcome {
    if !duplicateKeys.isEmpty { return .duplicateRows }
    if entries.isEmpty { return .nothingCompared }
    let failing = entries.contains { entry in
      entry.figures.contains { $0.isRegression && (judgesTiming || $0.name != "median_ns") }
    }
    if failing { return .regression }
    if !countersMissing.isEmpty && !allowsMissing { return .countersMissing }
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

  /// The rows by key; a key with several rows is added to `duplicates`
  /// and warned about (its last row stands in the tables).
  private static func index(
    _ rows: [ReportRow], side: String, warnings: inout [String], duplicates: inout Set<ReportKey>
  ) -> [ReportKey: ReportRow] {
    var byKey: [ReportKey: ReportRow] = [:]
    var counts: [ReportKey: Int] = [:]
    for row in rows {
      byKey[row.key] = row
      counts[row.key, default: 0] += 1
    }
    for (key, count) in counts.filter({ $0.value > 1 }).sorted(by: { $0.key < $1.key }) {
      duplicates.insert(key)
      warnings.append("\(side) has \(count) rows for \(key); compare needs one row per key")
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
      case (_?, nil): verdict = .missing
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

  /// One line per dataset whose rows measured other data in each report
  /// (`differing`), and per points file that was not a regular file in
  /// both, whose rows were joined without knowing.
  private static func dataWarnings(
    _ differing: Set<ReportKey>, _ old: [ReportKey: ReportRow], _ new: [ReportKey: ReportRow]
  ) -> [String] {
    var lines: [String] = []
    for key in differing.sorted() {
      let line = "dataset \(key.dataset) is other data in the two reports (baseline: "
        + "\(old[key]!.datasetOrigin.describe(key.dataset)); current: "
        + "\(new[key]!.datasetOrigin.describe(key.dataset))): its rows are not compared"
      if !lines.contains(line) { lines.append(line) }
    }
    let unknown = Set(old.compactMap { key, row in
      row.datasetOrigin == .file(nil) && new[key]?.datasetOrigin == .file(nil) ? key.dataset : nil
    })
    for name in unknown.sorted() {
      lines.append("dataset \(name) was not a regular file in either run: whether both read the same points is unknown")
    }
    return lines
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
