import BenchHarness
import Testing
@testable import BenchCommands

/// The table's interval column gives the ends of the median's interval, so a
/// bimodal row reads as a range, not as "656199.0%".
@Suite struct ResultsTableTests {
  static func timing(median: Double, low: Double, high: Double, noisy: Bool) -> TimingSummary {
    TimingSummary(
      samples: 200, min: low, median: median, p90: high, p99: high, max: high, mean: median,
      stddev: 0, ciLow: low, ciHigh: high, noisy: noisy, batch: 1)
  }

  @Test func theIntervalIsItsTwoEnds() {
    #expect(ResultsTable.interval(Self.timing(median: 276, low: 270, high: 281, noisy: false)) == "270 ns–281 ns")
    #expect(ResultsTable.interval(Self.timing(median: 276, low: 268, high: 1.81e6, noisy: true))
            == "268 ns–1.81 ms noisy")
  }
}
