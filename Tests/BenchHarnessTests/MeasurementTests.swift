import BenchHarness
import Testing

/// A clock that only moves when a step says it took time.
final class FakeTime {
  var now: UInt64 = 0
}

struct FakeClock: MeasureClock {
  let time: FakeTime
  mutating func now() -> UInt64 { time.now }
}

/// Steps that take known times: step `i` lasts `durations[i]` ns and answers
/// digest `i + 1` with `i` results.
struct FakeSteps: TimedSteps {
  let time: FakeTime
  let durations: [UInt64]
  var calls = 0
  /// Each call, in order: `p3` for a preparation of step 3, `r3` for a run.
  var log: [String] = []
  /// Nanoseconds a preparation takes (it must not be timed).
  var preparation: UInt64 = 0

  var stepCount: Int { durations.count }

  mutating func prepareSample(_ step: Int) {
    time.now += preparation
    log.append("p\(step)")
  }

  mutating func runStep(_ step: Int) -> StepOutcome {
    time.now += durations[step]
    calls += 1
    log.append("r\(step)")
    return StepOutcome(digest: UInt64(step + 1), count: step)
  }
}

/// The engine every command times with, on a fake clock: known answers for
/// batching, warm-up, the budget and the statistics.
@Suite struct MeasurementTests {
  func run(
    _ durations: [UInt64], _ options: MeasureOptions, progress: (Double) -> Void = { _ in }
  ) -> (Measurement, calls: Int) {
    let time = FakeTime()
    var steps = FakeSteps(time: time, durations: durations)
    var clock = FakeClock(time: time)
    let m = measure(&steps, options: options, clock: &clock, progress: progress)
    return (m, steps.calls)
  }

  @Test func shortStepsAreTimedInBatchesOfAPowerOfTwo() {
    // 20 readings of 30 ns: a sample must last 600 ns; 5 ns steps need 128 calls
    let options = MeasureOptions(repeats: 3, warmup: 2, budget: 0, clockOverhead: 30)
    let (m, calls) = run([5, 5, 5, 5], options)
    #expect(m.batch == 128)
    #expect(m.samples == Array(repeating: 5.0, count: 12))
    #expect(calls == 4 + 4 + 3 * 4 * 128, "pilot, one more warm-up pass, three timed passes")
  }

  /// A live workload works out its next frame, and waits for the frame's
  /// time, in `prepareSample`: once before each sample (a batch's calls
  /// share one), in the pilot and warm-up passes too, and never timed.
  @Test func eachSampleIsPreparedOnceAndUntimed() {
    let time = FakeTime()
    var steps = FakeSteps(time: time, durations: [5, 5])
    steps.preparation = 1_000_000
    var clock = FakeClock(time: time)
    let m = measure(
      &steps, options: MeasureOptions(repeats: 1, warmup: 2, budget: 0, clockOverhead: 1, maximumBatch: 4),
      clock: &clock)
    #expect(m.batch == 4 && m.samples == [5, 5], "the preparation's million ns are not in a sample")
    let pass = ["p0", "r0", "p1", "r1"]
    #expect(steps.log == pass + pass + ["p0", "r0", "r0", "r0", "r0", "p1", "r1", "r1", "r1", "r1"])
  }

  @Test func stepsLongEnoughAreTimedOneByOne() {
    let options = MeasureOptions(repeats: 2, warmup: 1, budget: 0, clockOverhead: 30)
    let (m, calls) = run([600, 1_000, 700], options)
    #expect(m.batch == 1)
    #expect(m.samples == [600, 1_000, 700, 600, 1_000, 700])
    #expect(calls == 3 + 2 * 3)
  }

  @Test func theBatchIsCapped() {
    let options = MeasureOptions(repeats: 1, budget: 0, clockOverhead: 1e9, maximumBatch: 8)
    #expect(run([1], options).0.batch == 8)
  }

  @Test func theBatchFollowsTheMedianStep() {
    // median of the pilot is 10 ns: 64 · 10 ≥ 600 > 32 · 10
    let options = MeasureOptions(repeats: 1, budget: 0, clockOverhead: 30)
    #expect(run([1, 10, 10_000], options).0.batch == 64)
  }

  @Test func theBudgetStopsFurtherPassesButOneTimedPassAlwaysRuns() {
    // 10 steps of 1 ms: 10 ms a pass. Budget 35 ms from the pilot's start:
    // pilot to 10, pass 1 to 20, pass 2 to 30; a third would end at 40.
    let ms: UInt64 = 1_000_000
    let tenSteps = Array(repeating: ms, count: 10)
    let options = MeasureOptions(repeats: 5, warmup: 1, budget: 35e6, clockOverhead: 30)
    let (m, _) = run(tenSteps, options)
    #expect(m.passes == 2 && m.samples.count == 20)

    // warm-up counts against it: pilot to 10, warm-up to 20 and 30 (a third
    // would end at 40); then the one timed pass that always runs
    let greedy = MeasureOptions(repeats: 5, warmup: 4, budget: 35e6, clockOverhead: 30)
    let (w, calls) = run(tenSteps, greedy)
    #expect(w.passes == 1 && w.samples.count == 10)
    #expect(calls == 10 * 3 + 10)

    // a budget of 0 is no limit
    let unlimited = MeasureOptions(repeats: 5, warmup: 1, budget: 0, clockOverhead: 30)
    #expect(run(tenSteps, unlimited).0.passes == 5)
  }

  /// A pilot pass that alone outlasts the budget is the row's timed pass:
  /// the steps run once, not twice, and their times are the pilot's.
  @Test func aPilotPastTheBudgetIsTheTimedPass() {
    let ms: UInt64 = 1_000_000
    let options = MeasureOptions(repeats: 5, warmup: 3, budget: 25e6, clockOverhead: 30)
    let (m, calls) = run(Array(repeating: 10 * ms, count: 4) + [2 * ms], options)
    #expect(m.passes == 1 && calls == 5)
    #expect(m.samples == [10e6, 10e6, 10e6, 10e6, 2e6])
    #expect(m.batch == 1 && m.checksum != 0 && m.resultsTotal == 0 + 1 + 2 + 3 + 4)
  }

  /// A pilot that leaves no room for a pass as long (15 ms of a 25 ms budget)
  /// is the timed pass too: a second would end past the budget. One that
  /// leaves room (10 ms) gets its timed pass, and no more.
  @Test func noPassStartsThatWouldEndPastTheBudget() {
    let ms: UInt64 = 1_000_000
    let options = MeasureOptions(repeats: 5, warmup: 1, budget: 25e6, clockOverhead: 30)
    let (slow, slowCalls) = run([15 * ms], options)
    #expect(slow.passes == 1 && slowCalls == 1 && slow.samples == [15e6])
    // pilot to 10, the timed pass to 20; another would end at 30
    let (fast, fastCalls) = run([10 * ms], options)
    #expect(fast.passes == 1 && fastCalls == 2 && fast.samples == [10e6])
  }

  @Test func percentilesOfKnownSamples() {
    let options = MeasureOptions(repeats: 1, budget: 0, clockOverhead: 0)
    let (m, _) = run((1...10).map { UInt64($0) * 1_000 }, options)
    let s = m.statistics
    #expect(s.median == 5_500)
    #expect(abs(s.p90 - 9_100) < 1e-9)
    #expect(abs(s.p99 - 9_910) < 1e-9)
    #expect(s.minimum == 1_000 && s.maximum == 10_000)
  }

  @Test func theChecksumAndTotalComeFromThePilotPass() {
    let options = MeasureOptions(repeats: 4, budget: 0, clockOverhead: 0)
    let (m, _) = run([100, 100, 100], options)
    let p: UInt64 = 0x100_0000_01B3
    #expect(m.checksum == (1 &* p &+ 2) &* p &+ 3)
    #expect(m.resultsTotal == 0 + 1 + 2)
  }

  @Test func progressHearsEachTimedPass() {
    var heard: [Double] = []
    let options = MeasureOptions(repeats: 4, budget: 0, clockOverhead: 0)
    _ = run([100], options) { heard.append($0) }
    #expect(heard == [0.25, 0.5, 0.75, 1])
  }

  @Test func nonsenseOptionsAreNormalised() {
    let o = MeasureOptions(
      repeats: -3, warmup: -1, budget: .nan, clockOverhead: -5, minimumSampleFactor: .infinity,
      maximumBatch: 0)
    #expect(o.repeats == 1 && o.warmup == 0 && o.budget == 0 && o.clockOverhead == 0)
    #expect(o.minimumSampleFactor == 0 && o.maximumBatch == 1)
    #expect(run([10, 20], o).0.samples == [10, 20])
  }
}
