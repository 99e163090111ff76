import BenchHarness
import Testing

/// True when `a` and `b` agree to a few ulps of their size.
func close(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
  abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

@Suite struct StatisticsTests {
  @Test func oneToHundred() {
    let s = Statistics((1...100).map(Double.init).shuffled())
    #expect(s.count == 100)
    #expect(s.minimum == 1)
    #expect(s.maximum == 100)
    #expect(s.mean == 50.5)
    #expect(s.median == 50.5)
    // h = 99 · 0.9 = 89.1 → x[89] + 0.1 · (x[90] − x[89]) = 90 + 0.1
    #expect(close(s.p90, 90.1))
    // h = 99 · 0.99 = 98.01 → 99 + 0.01
    #expect(close(s.p99, 99.01))
    // Σ(i − 50.5)² = n(n² − 1)/12 = 83 325; / 99 = 841.666…
    #expect(close(s.standardDeviation, (83_325.0 / 99).squareRoot()))
    // Ranks ⌊50 − 9.8⌋ = 40 and ⌈51 + 9.8⌉ = 61.
    #expect(s.medianLowerBound == 40)
    #expect(s.medianUpperBound == 61)
    #expect(s.medianHalfWidth == 10.5)
    #expect(s.isNoisy)  // 10.5 > 5% of 50.5
  }

  @Test func oddCount() {
    let s = Statistics([5, 1, 3])
    #expect(s.median == 3)
    #expect(s.mean == 3)
    #expect(s.standardDeviation == 2)
    #expect(close(s.p90, 4.6))  // h = 1.8 → 3 + 0.8 · 2
    #expect(close(s.p99, 4.96))
    #expect(s.medianLowerBound == 1 && s.medianUpperBound == 5)
  }

  @Test func evenCount() {
    let s = Statistics([4, 1, 3, 2])
    #expect(s.median == 2.5)
    #expect(s.mean == 2.5)
    #expect(close(s.p90, 3.7))  // h = 2.7 → 3 + 0.7
    #expect(close(s.standardDeviation, (5.0 / 3).squareRoot()))
  }

  @Test func duplicates() {
    let same = Statistics([7, 7, 7, 7, 7])
    #expect(same.median == 7 && same.p90 == 7 && same.p99 == 7)
    #expect(same.standardDeviation == 0)
    #expect(same.medianLowerBound == 7 && same.medianUpperBound == 7)
    #expect(!same.isNoisy)
    let mixed = Statistics([2, 1, 2, 3, 2])
    #expect(mixed.median == 2)
    #expect(mixed.mean == 2)
  }

  @Test func emptyIsAllZeros() {
    let s = Statistics([])
    #expect(s.count == 0)
    for v in [
      s.minimum, s.maximum, s.mean, s.standardDeviation, s.median, s.p90, s.p99,
      s.medianLowerBound, s.medianUpperBound, s.medianHalfWidth,
    ] {
      #expect(v == 0)
    }
    #expect(!s.isNoisy)
  }

  @Test func oneValue() {
    let s = Statistics([42])
    #expect(s.count == 1)
    #expect(s.minimum == 42 && s.maximum == 42 && s.mean == 42)
    #expect(s.median == 42 && s.p90 == 42 && s.p99 == 42)
    #expect(s.standardDeviation == 0)
    #expect(s.medianLowerBound == 42 && s.medianUpperBound == 42)
    #expect(!s.isNoisy)
  }

  @Test func twoValues() {
    let s = Statistics([20, 10])
    #expect(s.median == 15)
    #expect(s.mean == 15)
    #expect(close(s.standardDeviation, 50.0.squareRoot()))
    #expect(close(s.p90, 19))
    #expect(close(s.p99, 19.9))
    #expect(s.medianLowerBound == 10 && s.medianUpperBound == 20)
    #expect(s.isNoisy)
  }

  @Test func nonFiniteSamplesAreDropped() {
    let s = Statistics([1, .nan, 3, .infinity, -.infinity])
    #expect(s.count == 2)
    #expect(s.median == 2)
    #expect(s.mean.isFinite && s.standardDeviation.isFinite)
  }

  @Test func quietSamplesAreNotNoisy() {
    // 100 samples within ±1% of 1000: the interval is far inside ±5%.
    let s = Statistics((0..<100).map { 990 + Double($0) * 0.2 })
    #expect(!s.isNoisy)
  }

  @Test(arguments: [
    (0, 1, 0), (1, 1, 1), (2, 1, 2), (5, 1, 5), (10, 1, 10), (11, 2, 10),
    (24, 7, 18), (100, 40, 61),
  ])
  func medianConfidenceRanks(n: Int, lower: Int, upper: Int) {
    let ranks = Statistics.medianConfidenceRanks(count: n)
    #expect(ranks.lower == lower && ranks.upper == upper)
  }

  @Test func percentileEnds() {
    let x: [Double] = [1, 2, 3]
    #expect(Statistics.percentile(0, sorted: x) == 1)
    #expect(Statistics.percentile(1, sorted: x) == 3)
    #expect(Statistics.percentile(2, sorted: x) == 3)  // clamped
    #expect(Statistics.percentile(0.5, sorted: []) == 0)
  }
}
