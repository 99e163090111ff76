@testable import BenchWorkloads

/// How the fuzz tests find a planted wrong index: the first of a seed's
/// cases on which the check fails, and the shrunk case of that failure.
extension FuzzCheck {
  /// The first of `seed`'s first 200 cases that fails, with its failure,
  /// and the same failure shrunk; nil when none of them fails.
  func firstFailureShrunk(seed: UInt64) -> (found: (FuzzCase, FuzzFailure), small: (FuzzCase, FuzzFailure))? {
    var check = self
    for number in 0..<200 {
      let c = FuzzCaseGenerator.fuzzCase(seed: seed, number: number)
      if let f = check.failures(of: c).first {
        var shrinker = FuzzShrinker(check: check, signature: f.signature, seconds: 0)
        return ((c, f), shrinker.shrink(c, f))
      }
    }
    return nil
  }
}
