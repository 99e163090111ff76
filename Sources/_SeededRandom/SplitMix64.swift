/// A small, fast, seeded random generator (Steele, Lea & Flood, "Fast
/// splittable pseudorandom number generators", OOPSLA 2014).
///
/// Every random choice in SpatialBench comes from one of these. The helpers
/// below turn its bits into numbers with arithmetic we own, not through the
/// standard library's `random(in:using:)`, whose algorithm may change between
/// Swift releases: the same seed gives the same workloads on every machine.
///
/// A module of its own, below both the bench and the libraries' tests, so
/// those tests need no bench module; `package`, so no app sees it.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  @usableFromInline var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  @inlinable
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform double in [0, 1) with 53 random bits.
  @inlinable
  package mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  /// A uniform double in [lower, upper).
  @inlinable
  package mutating func nextDouble(in lower: Double, _ upper: Double) -> Double {
    lower + (upper - lower) * nextUnit()
  }

  /// A uniform integer in 0..<bound (Lemire's multiply-shift, with rejection).
  @inlinable
  package mutating func nextInt(below bound: Int) -> Int {
    precondition(bound > 0, "bound must be positive")
    let b = UInt64(bound)
    var m = next().multipliedFullWidth(by: b)
    if m.low < b {
      let threshold = (0 &- b) % b
      while m.low < threshold { m = next().multipliedFullWidth(by: b) }
    }
    return Int(m.high)
  }

  /// A standard normal deviate (Box–Muller; one of the pair is discarded so
  /// the generator's state depends only on how many draws were made).
  @inlinable
  package mutating func nextGaussian() -> Double {
    let u1 = 1 - nextUnit()  // (0, 1]: log is finite
    let u2 = nextUnit()
    return (-2 * _log(u1)).squareRoot() * _cos(2 * Double.pi * u2)
  }

  /// Two independent standard normal deviates (Marsaglia's polar method,
  /// "A convenient method for generating normal variables", SIAM Review 1964).
  ///
  /// For point generators that need an x and a y offset: one logarithm and
  /// no trigonometry per pair, where two ``nextGaussian()`` calls cost two
  /// logarithms and two cosines (≈3× slower measured). Draws pairs of units
  /// until one lands inside the unit disc (on average 1.27 pairs), so the
  /// number of draws depends on the values, but the same state always gives
  /// the same pair and leaves the same state.
  @inlinable
  package mutating func nextGaussianPair() -> (Double, Double) {
    while true {
      let u = 2 * nextUnit() - 1
      let v = 2 * nextUnit() - 1
      let s = u * u + v * v
      if s > 0 && s < 1 {
        let f = (-2 * _log(s) / s).squareRoot()
        return (u * f, v * f)
      }
    }
  }

  /// A derived generator for a named sub-stream, so adding draws to one part
  /// of a workload does not shift the numbers of another.
  package func fork(_ stream: UInt64) -> SplitMix64 {
    var g = SplitMix64(seed: state ^ (stream &* 0xD1B5_4A32_D192_ED03))
    _ = g.next()
    return g
  }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@usableFromInline func _log(_ x: Double) -> Double { log(x) }
@usableFromInline func _cos(_ x: Double) -> Double { cos(x) }
