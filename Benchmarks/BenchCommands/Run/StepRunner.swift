import SpatialIndexes

/// One workload bound to one index: a fixed sequence of steps (frames the
/// user waits for), each timed on its own.
///
/// Runners are generic over the index so every query specialises; each keeps
/// its scratch buffers between steps, so a step allocates nothing once warm.
protocol StepRunner {
  /// The number of steps in one pass of the workload.
  var stepCount: Int { get }

  /// Runs step `step` and returns a digest of its answer that does not depend
  /// on the order in which the index reported ids, and the number of results.
  mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepResult

  /// The answer of step `step` in a canonical form (sorted ids, markers in
  /// cell order…), for `bench verify` to compare index against index.
  mutating func canonicalAnswer(step: Int) -> [Int64]

  /// Cluster markers added plus removed over the last pass; `nil` for
  /// workloads without markers.
  var churn: Int? { get }
}

extension StepRunner {
  var churn: Int? { nil }
}

/// What a step returns to the harness.
struct StepResult {
  var digest: UInt64
  var count: Int
}

/// A 64-bit mix (the SplitMix64 finaliser): sums of mixed ids make an
/// order-independent digest of a set of ids.
@inline(__always)
func mix64(_ x: UInt64) -> UInt64 {
  var z = x &+ 0x9E37_79B9_7F4A_7C15
  z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
  z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
  return z ^ (z >> 31)
}
