import BenchHarness
import Testing

@Suite struct StopwatchTests {
  @Test func clockIsMonotonic() {
    var last = Stopwatch.now()
    for _ in 0..<10_000 {
      let t = Stopwatch.now()
      #expect(t >= last)
      last = t
    }
  }

  @Test func overheadIsPositiveAndSmall() {
    let overhead = Stopwatch.measureOverhead(reads: 1_001)
    #expect(overhead > 0)
    #expect(overhead < 10_000)  // a read costs tens of ns, not microseconds
  }

  @Test func timeReturnsResultAndDuration() {
    let (result, ns) = Stopwatch.time { (0..<1_000).reduce(0, +) }
    #expect(result == 499_500)
    #expect(ns >= 0)
  }

  @Test func tinyOperationsAreBatched() {
    // A fixed 50 ns overhead makes the target 1 µs: an empty body needs k > 1.
    let timer = SampleTimer(clockOverhead: 50)
    var calls = 0
    let k = timer.batchSize { calls += 1 }
    #expect(k > 1)
    #expect(k.nonzeroBitCount == 1)  // a power of two
    #expect(calls > 0)
  }

  @Test func longOperationsAreTimedSingly() {
    // With a zero overhead every batch meets the target at once.
    let timer = SampleTimer(clockOverhead: 0)
    #expect(timer.batchSize { blackHole(1) } == 1)
  }

  @Test func batchIsCapped() {
    let timer = SampleTimer(clockOverhead: 1e12, maximumBatch: 8)
    #expect(timer.batchSize { blackHole(1) } == 8)
  }

  @Test func measureReturnsOneLatencyPerSample() {
    let timer = SampleTimer(clockOverhead: 50)
    var calls = 0
    let result = timer.measure(samples: 25, warmup: 3, batch: 4) { calls += 1 }
    #expect(result.nanoseconds.count == 25)
    #expect(result.batch == 4)
    #expect(calls == 3 + 25 * 4)
    #expect(result.nanoseconds.allSatisfy { $0 >= 0 && $0.isFinite })
    #expect(result.statistics.count == 25)
  }

  @Test func measureChoosesBatchWhenNotGiven() {
    let timer = SampleTimer()
    let result = timer.measure(samples: 5) { blackHole(0) }
    #expect(result.batch >= 1)
    #expect(result.nanoseconds.count == 5)
    #expect(result.clockOverhead == timer.clockOverhead)
  }
}
