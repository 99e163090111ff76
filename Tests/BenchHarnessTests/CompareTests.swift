import BenchFormats
import BenchHarness
import Testing

@Suite struct CompareTests {
  /// Writes both sides as report files and reads them back, as `bench compare` will.
  private func compare(
    _ baseline: [ReportRow], _ current: [ReportRow], threshold: Double = 0.10
  ) throws -> Comparison {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    try ReportFile.write(baseline, to: "\(folder)/old.csv")
    try ReportFile.write(current, to: "\(folder)/new.csv")
    return Comparison(
      baseline: try ReportFile.read("\(folder)/old.csv"),
      current: try ReportFile.read("\(folder)/new.csv"), threshold: threshold)
  }

  @Test func identicalReportsHaveNoRegression() throws {
    let c = try compare([testRow()], [testRow()])
    #expect(c.outcome == .noRegression && c.outcome.exitCode == 0)
    #expect(c.entries.count == 1)
    #expect(c.entries[0].figures.allSatisfy { $0.verdict == .same || $0.verdict == .info })
    #expect(c.warnings.isEmpty)
    #expect(c.text().contains("Result: no regression"))
  }

  /// The filter is part of the key: rows of another filter are not
  /// compared, and a report without the column matches unfiltered rows.
  @Test func rowsOfAnotherFilterAreNotTheSameRow() throws {
    var filtered = testRow()
    filtered.key.filter = "stars >= 4"
    let c = try compare([testRow()], [filtered])
    #expect(c.entries.isEmpty)
    #expect(c.onlyInBaseline == [testRow().key] && c.onlyInCurrent == [filtered.key])
    let same = try compare([testRow(), filtered], [filtered, testRow()])
    #expect(same.entries.map(\.key) == [testRow().key, filtered.key])
  }

  @Test func timingRegression() throws {
    // 100 ± 2 → 130 ± 2: 30% slower, intervals [98, 102] and [128, 132] disjoint.
    let c = try compare([testRow(median: 100)], [testRow(median: 130)])
    let median = try #require(c.entries.first?.figure("median_ns"))
    #expect(median.verdict == .regressed)
    #expect(median.old == "100" && median.new == "130")
    #expect(median.ratio == 1.3)
    #expect(c.outcome == .regression && c.outcome.exitCode == 1)
    #expect(c.table().contains("REGRESSED"))
    #expect(c.summary().contains("1 slower"))
    #expect(c.summary().contains("Result: REGRESSION"))
  }

  @Test func improvement() throws {
    let c = try compare([testRow(median: 100)], [testRow(median: 70)])
    #expect(c.entries.first?.figure("median_ns")?.verdict == .improved)
    #expect(c.outcome == .noRegression)
  }

  @Test func slowdownWithinNoise() throws {
    // 30% slower, but ±20 intervals [80, 120] and [110, 150] overlap.
    let c = try compare(
      [testRow(median: 100, halfWidth: 20)], [testRow(median: 130, halfWidth: 20)])
    #expect(c.entries.first?.figure("median_ns")?.verdict == .withinNoise)
    #expect(c.outcome == .noRegression)
  }

  @Test func smallSlowdownBelowThreshold() throws {
    // 5% slower with disjoint intervals: under the 10% threshold.
    let c = try compare([testRow(median: 100, halfWidth: 1)], [testRow(median: 105, halfWidth: 1)])
    #expect(c.entries.first?.figure("median_ns")?.verdict == .same)
    // The same change fails a 2% threshold.
    let strict = try compare(
      [testRow(median: 100, halfWidth: 1)], [testRow(median: 105, halfWidth: 1)], threshold: 0.02)
    #expect(strict.outcome == .regression)
  }

  @Test func counterRegression() throws {
    let more = ReportCounters(nodesVisited: 41, pointsTested: 900, pointsReported: 500)
    let c = try compare([testRow()], [testRow(counters: more)])
    let entry = try #require(c.entries.first)
    #expect(entry.figure("nodes_visited")?.verdict == .regressed)
    #expect(entry.figure("points_tested")?.verdict == .same)
    #expect(entry.figure("median_ns")?.verdict == .same)
    #expect(c.outcome == .regression)
    #expect(c.summary().contains("1 counter increases"))
  }

  @Test func counterDecreaseIsImprovement() throws {
    let fewer = ReportCounters(nodesVisited: 30, pointsTested: 900, pointsReported: 500)
    let c = try compare([testRow()], [testRow(counters: fewer)])
    #expect(c.entries.first?.figure("nodes_visited")?.verdict == .improved)
    #expect(c.outcome == .noRegression)
  }

  @Test func counterRecordedOnlyInTheCurrentReportIsNotComparable() throws {
    let c = try compare([testRow(counters: .none)], [testRow()])
    #expect(c.entries.first?.figure("nodes_visited")?.verdict == .notComparable)
    #expect(c.outcome == .noRegression)
    let neither = try compare([testRow(counters: .none)], [testRow(counters: .none)])
    #expect(neither.entries.first?.figure("nodes_visited") == nil)
  }

  @Test func changedAnswersDiffer() throws {
    let c = try compare([testRow()], [testRow(checksum: 0xBAD)])
    let entry = try #require(c.entries.first)
    #expect(entry.figure("checksum")?.verdict == .differs)
    #expect(entry.figure("results_total")?.verdict == .same)
    #expect(c.outcome == .regression)
    let fewer = try compare([testRow()], [testRow(resultsTotal: 499)])
    #expect(fewer.entries.first?.figure("results_total")?.verdict == .differs)
    #expect(fewer.outcome == .regression)
  }

  /// A baseline row the current report lost fails the gate (an index or
  /// workload that vanished would hide its regressions) unless allowed; a
  /// row only the current report has is new work, not a failure.
  @Test func missingBaselineRowsFailUnlessAllowed() throws {
    let baseline = [testRow(), testRow(index: "GridHashIndex")]
    let current = [testRow(), testRow(dataset: "clustered")]
    let c = try compare(baseline, current)
    #expect(c.entries.count == 1)
    #expect(c.onlyInBaseline.map(\.index) == ["GridHashIndex"])
    #expect(c.onlyInCurrent.map(\.dataset) == ["clustered"])
    #expect(c.outcome == .rowsMissing)
    let text = c.text()
    #expect(text.contains("Only in baseline (1):"))
    #expect(text.contains("Only in current (1):"))
    #expect(text.contains("Result: ROWS MISSING"))
    let allowed = Comparison(baseline: baseline, current: current, allowsMissing: true)
    #expect(allowed.outcome == .noRegression)
    #expect(try compare([testRow()], [testRow(), testRow(dataset: "clustered")]).outcome == .noRegression)
  }

  /// Two reports with no row in common compare nothing: that is never a pass.
  @Test func nothingInCommonFails() throws {
    let c = Comparison(baseline: [testRow()], current: [testRow(dataset: "clustered")], allowsMissing: true)
    #expect(c.entries.isEmpty)
    #expect(c.outcome == .nothingCompared)
    #expect(c.outcome.exitCode == 1)
    #expect(c.text().contains("Result: NOTHING COMPARED"))
    #expect(c.markdown().hasPrefix("**Result: nothing compared"))
  }

  @Test func differentMachineWarns() throws {
    var other = testMachine
    other.cores = 16
    let c = try compare([testRow()], [testRow(machine: other)])
    #expect(c.warnings.count == 1)
    #expect(c.warnings[0].contains("different machines"))
    #expect(c.text().hasPrefix("warning: "))
    #expect(c.outcome == .noRegression)  // a warning, not a failure
  }

  /// Two VMs of one class differ in total memory by a few hundred
  /// kilobytes: the same machine; a quarter less memory is not.
  @Test func memoryAFewHundredKilobytesApartIsTheSameMachine() throws {
    var twin = testMachine
    twin.memoryBytes = testMachine.memoryBytes - 300 * 1024
    #expect(try compare([testRow()], [testRow(machine: twin)]).warnings.isEmpty)
    var smaller = testMachine
    smaller.memoryBytes = testMachine.memoryBytes / 4 * 3
    #expect(try compare([testRow()], [testRow(machine: smaller)]).warnings.contains { $0.contains("different machines") })
  }

  @Test func differentBuildConfigWarns() throws {
    var debug = testRow()
    debug.run.buildConfig = "debug"
    let c = try compare([testRow()], [debug])
    #expect(c.warnings.contains { $0.contains("build configurations") })
  }

  /// Two rows with one key in a report: which one is "the" row is not
  /// known, and comparing one would hide the other's regression. It fails,
  /// whichever side holds them, and whatever else is allowed.
  @Test func duplicateKeysFailTheComparison() throws {
    let regressedFirst = [testRow(median: 500), testRow(median: 100)]
    for (baseline, current) in [([testRow(median: 100)], regressedFirst), (regressedFirst, [testRow(median: 100)])] {
      let c = Comparison(baseline: baseline, current: current, allowsMissing: true)
      #expect(c.outcome == .duplicateRows)
      #expect(c.outcome.exitCode == 1)
      #expect(c.warnings.contains { $0.contains("2 rows for kdtree[capacity=16] uniform n=1000 viewport/buffer") })
      #expect(c.text().contains("Result: DUPLICATE ROWS"))
    }
  }

  /// Rows of one key whose data differ (the file at that path changed) are
  /// not the same row: not joined, listed on both sides, a warning names
  /// the dataset. Where it cannot be told, they join.
  @Test func rowsOfOtherDataAreNotJoined() throws {
    func row(_ origin: DatasetOrigin, median: Double = 100) -> ReportRow {
      var r = testRow(dataset: "paris.csv", median: median, checksum: 0xBAD)
      r.datasetOrigin = origin
      return r
    }
    let a = DatasetOrigin.file(FileFingerprint(size: 10, hash: 1))
    let b = DatasetOrigin.file(FileFingerprint(size: 10, hash: 2))
    let other = Comparison(baseline: [row(a)], current: [row(b)], allowsMissing: true)
    #expect(other.entries.isEmpty && other.onlyInBaseline.count == 1 && other.onlyInCurrent.count == 1)
    #expect(other.outcome == .nothingCompared)
    #expect(other.warnings == [
      "dataset paris.csv is other data in the two reports (baseline: the points file paris.csv (10 bytes,"
        + " fingerprint 10:0000000000000001); current: the points file paris.csv (10 bytes, fingerprint"
        + " 10:0000000000000002)): its rows are not compared"
    ])
    let mixed = Comparison(baseline: [row(a), testRow()], current: [row(b), testRow()])
    #expect(mixed.entries.count == 1 && mixed.outcome == .rowsMissing)
    #expect(try compare([row(a)], [row(.named)]).entries.isEmpty)

    // (`.unrecorded` is what a report of schema 3 reads as: it cannot be written)
    for (old, new) in [(a, a), (.unrecorded, a), (a, .unrecorded), (.named, .unrecorded), (.named, .named)] {
      let c = Comparison(baseline: [row(old)], current: [row(new, median: 300)])
      #expect(c.outcome == .regression, "\(old) \(new)")
    }
    let pipes = try compare([row(.file(nil))], [row(.file(nil))])
    #expect(pipes.entries.count == 1)
    #expect(pipes.warnings.contains { $0.contains("not a regular file in either run") })
  }

  /// A baseline that counted work against a current report that did not
  /// (a run without --counters) checks no counter: that fails unless
  /// missing figures are allowed. Counters only the current report has are
  /// new information, not a failure.
  @Test func countersOnlyTheBaselineHasFailUnlessAllowed() throws {
    let c = try compare([testRow()], [testRow(counters: .none)])
    #expect(c.entries.first?.figure("nodes_visited")?.verdict == .missing)
    #expect(c.outcome == .countersMissing)
    #expect(c.outcome.exitCode == 1)
    #expect(c.text().contains("Result: COUNTERS MISSING"))
    #expect(c.text().contains("Counters missing in current (1):"))
    #expect(c.markdown().hasPrefix("**Result: counters missing"))
    // one counter of three lost is as bad
    let partly = try compare([testRow()], [testRow(counters: ReportCounters(nodesVisited: 40, pointsTested: 900))])
    #expect(partly.outcome == .countersMissing)
    #expect(Comparison(baseline: [testRow()], current: [testRow(counters: .none)], allowsMissing: true).outcome
      == .noRegression)
    // a regression elsewhere is still the result
    #expect(try compare([testRow()], [testRow(median: 200, counters: .none)]).outcome == .regression)
  }

  @Test func zeroBaselineMedianIsNotComparable() {
    let zero = TimingSummary.zero
    let some = testRow(median: 10).timing
    #expect(Comparison.judgeTiming(old: zero, new: some).verdict == .notComparable)
    #expect(Comparison.judgeTiming(old: zero, new: zero).verdict == .same)
  }

  @Test func touchingIntervalsOverlap() {
    // [90, 110] and [110, 150]: they touch, so the change is within noise.
    let old = testRow(median: 100, halfWidth: 10).timing
    let new = testRow(median: 130, halfWidth: 20).timing
    #expect(Comparison.judgeTiming(old: old, new: new).verdict == .withinNoise)
  }

  @Test func tableIsAligned() throws {
    let c = try compare([testRow(median: 100)], [testRow(median: 130)])
    let lines = c.table().split(separator: "\n")
    #expect(lines.first?.hasPrefix("row") == true)
    #expect(lines.count == 1 + c.entries[0].figures.count)
    // Every ratio ends in the column where the header's "ratio" ends.
    let header = Array(try #require(lines.first))
    let start = try #require(
      (0...(header.count - 5)).first { String(header[$0..<$0 + 5]) == "ratio" })
    let end = start + 5
    for line in lines.dropFirst() {
      let chars = Array(line)
      if chars.count >= end, chars[end - 1] != " " {
        #expect(chars[end - 1] == "x")
      }
    }
  }
}
