import _SeededRandom

/// Picks index *i* with probability `weights[i] / sum(weights)` in O(1) per
/// draw: Walker's alias method ("An efficient method for generating discrete
/// random variables with general distributions", ACM TOMS 1977), built with
/// Vose's stable construction (IEEE TSE 1991).
///
/// Each of the *n* columns holds its own index with probability
/// `probability[i]` and `alias[i]` otherwise. A binary search over cumulative
/// weights cost ten unpredictable branches a point for 1,000 Zipf blobs.
struct AliasTable {
  private var probability: [Double]
  private var alias: [Int]

  /// - Precondition: at least one weight; every weight finite and `>= 0`,
  ///   and their sum positive.
  /// - Complexity: O(*n*).
  init(weights: [Double]) {
    let n = weights.count
    precondition(n > 0, "an alias table needs at least one weight")
    precondition(weights.allSatisfy { $0 >= 0 && $0.isFinite }, "weights must be finite, >= 0")
    let total = weights.reduce(0, +)
    precondition(total > 0 && total.isFinite, "the weights must have a positive finite sum")
    var scaled = weights.map { $0 * Double(n) / total }
    probability = [Double](repeating: 1, count: n)
    alias = Array(0..<n)
    var small: [Int] = [], large: [Int] = []
    for i in 0..<n {
      if scaled[i] < 1 { small.append(i) } else { large.append(i) }
    }
    while let s = small.popLast(), let l = large.popLast() {
      probability[s] = scaled[s]
      alias[s] = l
      scaled[l] = (scaled[l] + scaled[s]) - 1
      if scaled[l] < 1 { small.append(l) } else { large.append(l) }
    }
    // Columns left in either list (one may have been popped as the loop
    // ended) hold, up to rounding, exactly one column's worth: they keep
    // probability 1 and never use their alias.
  }

  /// One index, from a single draw: the integer part of `n · u` picks the
  /// column and the fraction decides between it and its alias.
  @inline(__always)
  func pick(_ g: inout SplitMix64) -> Int {
    let u = g.nextUnit() * Double(probability.count)
    let column = Swift.min(Int(u), probability.count - 1)
    return u - Double(column) < probability[column] ? column : alias[column]
  }
}
