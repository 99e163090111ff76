/// Summary statistics of a set of latency samples, in the samples' unit.
///
/// - Percentiles (median, p90, p99) use linear interpolation between order
///   statistics: for sorted `x[0..<n]` and `p` in [0, 1], `h = (n − 1)·p` and the
///   value is `x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])` (Hyndman & Fan 1996,
///   type 7). It is the default of NumPy, pandas `quantile`, R and Excel's
///   `PERCENTILE.INC`, so a report can be checked in any of them, and it makes
///   the median of an even count the mean of the two middle values.
/// - `standardDeviation` is the sample one (divides by n − 1).
/// - The 95% confidence interval of the median is distribution-free, by order
///   statistics (see `medianConfidenceRanks(count:)`).
/// - `isNoisy`: the interval's half-width exceeds 5% of the median.
///
/// Edge cases: no samples gives all zeros (never NaN); one sample `v` gives `v`
/// for every location figure, a zero deviation and the interval `[v, v]`.
/// Non-finite samples (NaN, ±∞) are dropped and not counted.
public struct Statistics: Sendable, Equatable {
  /// Number of (finite) samples.
  public let count: Int
  public let minimum: Double
  public let maximum: Double
  public let mean: Double
  /// Sample standard deviation (n − 1); 0 when `count < 2`.
  public let standardDeviation: Double
  public let median: Double
  public let p90: Double
  public let p99: Double
  /// Lower end of the 95% confidence interval of the median.
  public let medianLowerBound: Double
  /// Upper end of the 95% confidence interval of the median.
  public let medianUpperBound: Double

  /// The half-width above which a median counts as noisy, relative to it.
  public static let noiseThreshold = 0.05

  /// Computes every figure from `samples` (any order).
  ///
  /// - Complexity: O(n log n) for the sort.
  public init<Samples: Sequence>(_ samples: Samples) where Samples.Element == Double {
    let sorted = samples.filter(\.isFinite).sorted()
    let n = sorted.count
    count = n
    guard n > 0 else {
      minimum = 0; maximum = 0; mean = 0; standardDeviation = 0
      median = 0; p90 = 0; p99 = 0; medianLowerBound = 0; medianUpperBound = 0
      return
    }
    minimum = sorted[0]
    maximum = sorted[n - 1]
    let mean = sorted.reduce(0, +) / Double(n)
    self.mean = mean
    if n > 1 {
      // Two passes: summing squared deviations from the mean avoids the
      // cancellation of the one-pass sum-of-squares formula.
      let squares = sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
      standardDeviation = (squares / Double(n - 1)).squareRoot()
    } else {
      standardDeviation = 0
    }
    median = Statistics.percentile(0.5, sorted: sorted)
    p90 = Statistics.percentile(0.9, sorted: sorted)
    p99 = Statistics.percentile(0.99, sorted: sorted)
    let ranks = Statistics.medianConfidenceRanks(count: n)
    medianLowerBound = sorted[ranks.lower - 1]
    medianUpperBound = sorted[ranks.upper - 1]
  }

  /// Half the width of the median's confidence interval.
  public var medianHalfWidth: Double {
    (medianUpperBound - medianLowerBound) / 2
  }

  /// True when the median's 95% interval is wider than ±5% of the median:
  /// the median should not be trusted to 5%. Never true for an empty set.
  public var isNoisy: Bool {
    medianHalfWidth > Statistics.noiseThreshold * abs(median)
  }

  /// The `p`-quantile (`p` in [0, 1], clamped) of an ascending array, by
  /// linear interpolation (type 7, see the type's notes); 0 for an empty array.
  ///
  /// - Complexity: O(1).
  public static func percentile(_ p: Double, sorted: [Double]) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let p = p.isNaN ? 0 : min(max(p, 0), 1)
    let h = Double(sorted.count - 1) * p
    let lower = Int(h.rounded(.down))
    let fraction = h - Double(lower)
    guard lower + 1 < sorted.count, fraction > 0 else { return sorted[lower] }
    return sorted[lower] + fraction * (sorted[lower + 1] - sorted[lower])
  }

  /// 1-based ranks `(j, k)` of the order statistics bounding a 95% confidence
  /// interval for the median of `count` samples.
  ///
  /// Distribution-free: the number of samples below the true median is
  /// Binomial(n, ½), approximated by a normal with sd √n/2, so
  /// `j = ⌊n/2 − 1.96·√n/2⌋` and `k = ⌈1 + n/2 + 1.96·√n/2⌉` (the large-sample
  /// quantile interval in Conover, *Practical Nonparametric Statistics*),
  /// clamped to [1, n].
  /// For n = 100 this gives the 40th and 61st values.
  ///
  /// The rounding makes it conservative: the exact binomial coverage of
  /// `[x(j), x(k)]` is at least 95% from n = 6 on (97.7% at n = 24).
  ///
  /// Tiny n: for n ≤ 10 the ranks clamp to (1, n), the whole range. For n ≤ 5
  /// even the whole range covers the median with less than 95% (1 − 2·½ⁿ: 50%
  /// at n = 2, 93.75% at n = 5); the interval is still reported as [min, max],
  /// and n = 1 gives [v, v]. For n = 0 it returns (1, 0): there is no interval.
  public static func medianConfidenceRanks(count n: Int) -> (lower: Int, upper: Int) {
    guard n > 0 else { return (1, 0) }
    let half = Double(n) / 2
    let spread = 1.96 * Double(n).squareRoot() / 2
    let j = Int((half - spread).rounded(.down))
    let k = Int((1 + half + spread).rounded(.up))
    return (min(max(j, 1), n), min(max(k, 1), n))
  }
}
