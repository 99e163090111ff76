import Testing
import BenchWorkloads
import _SeededRandom

@Suite struct SplitMix64Tests {
  /// Pinned outputs: a change here changes every workload on every machine.
  @Test func firstOutputsArePinned() {
    var g = SplitMix64(seed: 0)
    #expect(g.next() == 0xE220_A839_7B1D_CDAF)
    #expect(g.next() == 0x6E78_9E6A_A1B9_65F4)
    var h = SplitMix64(seed: 42)
    #expect(h.next() == 0xBDD7_3226_2FEB_6E95)
  }

  @Test func unitIsInHalfOpenRange() {
    var g = SplitMix64(seed: 7)
    for _ in 0..<10_000 {
      let u = g.nextUnit()
      #expect(u >= 0 && u < 1)
    }
  }

  @Test func boundedIntsCoverTheRangeUniformly() {
    var g = SplitMix64(seed: 9)
    var hist = [Int](repeating: 0, count: 7)
    for _ in 0..<70_000 { hist[g.nextInt(below: 7)] += 1 }
    for h in hist { #expect(abs(h - 10_000) < 500) }
  }

  @Test func gaussianHasUnitSpread() {
    var g = SplitMix64(seed: 11)
    let xs = (0..<50_000).map { _ in g.nextGaussian() }
    let mean = xs.reduce(0, +) / Double(xs.count)
    let variance = xs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(xs.count)
    #expect(abs(mean) < 0.02)
    #expect(abs(variance - 1) < 0.03)
  }
}
