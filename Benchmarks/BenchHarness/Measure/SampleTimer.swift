/// Times an operation repeatedly and returns one per-call latency per sample.
///
/// An operation much shorter than the clock's own cost cannot be timed one call
/// at a time: the reading would be mostly clock. So a sample times a batch of
/// `k` back-to-back calls and reports `elapsed / k`. How `k` is chosen:
///
/// - `k` is the smallest power of two (1, 2, 4, …) for which the fastest of
///   three timed batches of `k` calls lasts at least `minimumSampleFactor`
///   (default 20) clock overheads. So the clock costs at most ~5% of a sample,
///   and an operation already that long is timed singly (`k = 1`).
/// - The fastest of three, so a preemption during calibration cannot end it
///   early with too small a `k`; `k` never exceeds `maximumBatch`.
///
/// The clock overhead is not subtracted from samples: subtraction can make tiny
/// operations read zero or negative and adds the overhead's own noise, while the
/// batching above already bounds its share. Each sample includes the cost of
/// one closure call (an empty body measured ≈1.6 ns a call, `k` = 512, with a
/// 30 ns clock overhead, `-O`). Feed results to `blackHole` inside `body` so
/// the optimiser keeps the work. `body` may carry state (e.g. step through a
/// query list); calibration calls it too.
public struct SampleTimer: Sendable {
  /// Cost of one clock reading, in nanoseconds (see `Stopwatch.measureOverhead`).
  public let clockOverhead: Double
  /// A sample must last at least this many clock overheads; shorter calls are batched.
  public let minimumSampleFactor: Double
  /// Upper bound on the batch size.
  public let maximumBatch: Int

  /// A timer; by default measures the clock overhead now.
  public init(
    clockOverhead: Double = Stopwatch.measureOverhead(),
    minimumSampleFactor: Double = 20,
    maximumBatch: Int = 1 << 20
  ) {
    precondition(maximumBatch >= 1, "maximumBatch must be at least 1")
    self.clockOverhead = max(0, clockOverhead)
    self.minimumSampleFactor = minimumSampleFactor
    self.maximumBatch = maximumBatch
  }

  /// The shortest sample worth taking, in nanoseconds.
  public var minimumSampleNanoseconds: Double {
    clockOverhead * minimumSampleFactor
  }

  /// Chooses the batch size `k` for `body` as described on the type.
  ///
  /// - Complexity: O(log `maximumBatch`) rounds of 3 batches.
  public func batchSize(for body: () -> Void) -> Int {
    var k = 1
    while k < maximumBatch {
      var fastest = UInt64.max
      for _ in 0..<3 {
        fastest = min(fastest, timeBatch(k, body))
      }
      if Double(fastest) >= minimumSampleNanoseconds { return k }
      k *= 2
    }
    return maximumBatch
  }

  /// Calls `body` `warmup` times untimed, then takes `samples` samples.
  ///
  /// - Parameters:
  ///   - samples: number of latencies returned.
  ///   - warmup: untimed calls first, to fill caches and fault pages in.
  ///   - batch: a fixed `k`, or `nil` to choose it with `batchSize(for:)`.
  /// - Returns: per-call nanoseconds for each sample and the `k` used.
  public func measure(
    samples: Int, warmup: Int = 1, batch: Int? = nil, _ body: () -> Void
  ) -> TimedSamples {
    precondition(samples >= 0 && warmup >= 0, "counts must not be negative")
    for _ in 0..<warmup { body() }
    let k = batch ?? batchSize(for: body)
    precondition(k >= 1, "batch must be at least 1")
    var latencies = [Double]()
    latencies.reserveCapacity(samples)
    let perCall = 1 / Double(k)
    for _ in 0..<samples {
      latencies.append(Double(timeBatch(k, body)) * perCall)
    }
    return TimedSamples(nanoseconds: latencies, batch: k, clockOverhead: clockOverhead)
  }

  /// Elapsed nanoseconds for `k` back-to-back calls.
  private func timeBatch(_ k: Int, _ body: () -> Void) -> UInt64 {
    let start = Stopwatch.now()
    for _ in 0..<k { body() }
    return Stopwatch.now() &- start
  }
}

/// Per-call latencies from `SampleTimer.measure`.
public struct TimedSamples: Sendable, Equatable {
  /// One per-call latency per sample, in nanoseconds.
  public var nanoseconds: [Double]
  /// Calls per sample (`k`); 1 when each call was timed on its own.
  public var batch: Int
  /// The clock overhead the timer was calibrated with, in nanoseconds.
  public var clockOverhead: Double

  public init(nanoseconds: [Double], batch: Int, clockOverhead: Double) {
    self.nanoseconds = nanoseconds
    self.batch = batch
    self.clockOverhead = clockOverhead
  }

  /// Summary statistics of `nanoseconds`.
  public var statistics: Statistics { Statistics(nanoseconds) }
}
