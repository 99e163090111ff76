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
}
