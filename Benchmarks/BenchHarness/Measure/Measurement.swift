/// Work the measurement engine times: a fixed sequence of steps (frames a
/// user waits for), each timed on its own. `bench run` times a workload's
/// steps, `bench speed` a batch of queries as one step, `bench render` one
/// clustering.
public protocol TimedSteps {
  /// The number of steps in one pass.
  var stepCount: Int { get }
  /// Runs step `step` and says what it answered.
  mutating func runStep(_ step: Int) -> StepOutcome
  /// Called, untimed, before each sample of step `step` (a batch's calls
  /// share one): where a live workload works out what moves next, and
  /// waits for the frame's time when it runs in real time. Default: nothing.
  mutating func prepareSample(_ step: Int)
}

extension TimedSteps {
  @inlinable public mutating func prepareSample(_ step: Int) {}
}

/// What one step answered: a digest of its answer that does not depend on
/// the order results came in, and how many results.
@frozen
public struct StepOutcome: Sendable, Equatable {
  public var digest: UInt64
  public var count: Int

  @inlinable
  public init(digest: UInt64, count: Int) {
    self.digest = digest
    self.count = count
  }
}

/// How the engine measures: passes, warm-up, the time budget and batching.
public struct MeasureOptions: Sendable, Equatable {
  /// Timed passes over the steps (fewer when the budget runs out, one at least).
  public var repeats: Int
  /// Passes before timing, the pilot pass included (0 and 1 both mean the
  /// pilot alone): they fill caches and fault pages in.
  public var warmup: Int
  /// Nanoseconds from the start of the pilot after which no further pass
  /// starts, warm-up or timed (0: no limit). One timed pass always runs.
  public var budget: Double
  /// The cost of one clock reading, ns (``Stopwatch/measureOverhead(reads:)``).
  public var clockOverhead: Double
  /// A sample lasts at least this many clock readings: steps shorter than
  /// that are timed in batches of identical repetitions.
  public var minimumSampleFactor: Double
  /// The largest batch.
  public var maximumBatch: Int

  public init(
    repeats: Int = 5, warmup: Int = 1, budget: Double = 2e9, clockOverhead: Double,
    minimumSampleFactor: Double = 20, maximumBatch: Int = 1024
  ) {
    self.repeats = max(1, repeats)
    self.warmup = max(0, warmup)
    self.budget = budget.isFinite ? max(0, budget) : 0
    self.clockOverhead = clockOverhead.isFinite ? max(0, clockOverhead) : 0
    self.minimumSampleFactor = minimumSampleFactor.isFinite ? max(0, minimumSampleFactor) : 0
    self.maximumBatch = max(1, maximumBatch)
  }
}

/// What timing produced.
public struct Measurement: Sendable, Equatable {
  /// Nanoseconds per step call, one per step per timed pass, in pass order.
  public var samples: [Double]
  /// Calls per sample (1: each step timed on its own).
  public var batch: Int
  /// Timed passes run.
  public var passes: Int
  /// The pilot pass's digests folded in step order: equal answers, equal checksums.
  public var checksum: UInt64
  /// Results over one pass.
  public var resultsTotal: UInt64

  public init(samples: [Double], batch: Int, passes: Int, checksum: UInt64, resultsTotal: UInt64) {
    self.samples = samples
    self.batch = batch
    self.passes = passes
    self.checksum = checksum
    self.resultsTotal = resultsTotal
  }

  /// The summary statistics of ``samples``.
  public var statistics: Statistics { Statistics(samples) }
}

/// A source of nanosecond timestamps: the monotonic clock, or a test's own.
public protocol MeasureClock {
  mutating func now() -> UInt64
}

/// `CLOCK_MONOTONIC` (``Stopwatch/now()``).
@frozen
public struct MonotonicClock: MeasureClock {
  @inlinable public init() {}
  @inlinable @inline(__always) public mutating func now() -> UInt64 { Stopwatch.now() }
}

/// Times every step of `steps`, the one timing loop every command uses.
///
/// 1. A **pilot** pass times each step once and gives the checksum and the
///    results total (every later pass repeats the same answers).
/// 2. **Warm-up**: `warmup − 1` more untimed passes.
/// 3. **Batch**: when the pilot's median step is shorter than
///    `minimumSampleFactor` clock readings, each sample times `k` identical
///    calls of a step, `k` the smallest power of two that makes the median
///    long enough (at most `maximumBatch`), the same `k` for every step; a
///    sample is the batch's time over `k`.
/// 4. **Timed passes**: `repeats` of them, each step once per pass.
///
/// The **budget** counts from the pilot's start: a pass (warm-up or timed)
/// starts only when one as long as the last would end within it, but every
/// row gets one timed pass, so one very slow combination cannot hold up a
/// run and every row has samples. When the pilot leaves no room for another
/// pass, its times are that pass: a row whose pass takes minutes (a scan
/// per cell over a million points) then costs one pass, not two. A row
/// takes about the budget, or one pass when a pass is longer. Samples are
/// stored pass by pass, never reserved for passes the budget may cut.
/// `progress` hears the fraction of timed passes done.
///
/// - Complexity: O(`steps.stepCount` · (`warmup` + `repeats` · `k`)) steps run.
///
/// `pilot`, when given, runs each step of the pilot pass in place of
/// `runStep`: the run engine counts a workload's work there, on the first
/// pass from a fresh state, so a workload whose state moves from pass to
/// pass (a fleet) counts the same work however many passes the budget
/// allows.
@inlinable
public func measure<Steps: TimedSteps, Clock: MeasureClock>(
  _ steps: inout Steps, options: MeasureOptions, clock: inout Clock,
  pilot: ((inout Steps, Int) -> StepOutcome)? = nil,
  progress: (Double) -> Void = { _ in }
) -> Measurement {
  let n = steps.stepCount
  let started = clock.now()
  // The last pass's duration: a pass starts only when one as long would
  // end within the budget.
  var lastPass = 0.0
  func roomFor(_ pass: Double, _ clock: inout Clock) -> Bool {
    options.budget <= 0 || Double(clock.now() &- started) + pass <= options.budget
  }

  var checksum: UInt64 = 0
  var total: UInt64 = 0
  let pilotStep = pilot
  var pilotTimes: [Double] = []
  pilotTimes.reserveCapacity(n)
  for step in 0..<n {
    steps.prepareSample(step)
    let t0 = clock.now()
    let outcome = pilotStep.map { $0(&steps, step) } ?? steps.runStep(step)
    pilotTimes.append(Double(clock.now() &- t0))
    checksum = checksum &* 0x100_0000_01B3 &+ outcome.digest
    total &+= UInt64(truncatingIfNeeded: max(0, outcome.count))
  }
  lastPass = Double(clock.now() &- started)
  let pilotIsThePass = !roomFor(lastPass, &clock)
  var warmed = 1
  while warmed < options.warmup && !pilotIsThePass && roomFor(lastPass, &clock) {
    let t0 = clock.now()
    for step in 0..<n {
      steps.prepareSample(step)
      blackHole(steps.runStep(step).digest)
    }
    lastPass = Double(clock.now() &- t0)
    warmed += 1
  }

  let typical = Statistics.percentile(0.5, sorted: pilotTimes.sorted())
  let floor = options.minimumSampleFactor * options.clockOverhead
  var batch = 1
  while Double(batch) * typical < floor && batch < options.maximumBatch { batch *= 2 }
  batch = min(batch, options.maximumBatch)

  var samples: [Double] = []
  var passes = 0
  if pilotIsThePass {
    samples = pilotTimes
    passes = 1
    batch = 1
    progress(1)
  }
  samples.reserveCapacity(n)
  let perCall = 1 / Double(batch)
  lastPass *= Double(batch)
  while passes < options.repeats && (passes == 0 || roomFor(lastPass, &clock)) {
    let passStart = clock.now()
    for step in 0..<n {
      steps.prepareSample(step)
      let t0 = clock.now()
      for _ in 0..<batch { blackHole(steps.runStep(step).digest) }
      samples.append(Double(clock.now() &- t0) * perCall)
    }
    lastPass = Double(clock.now() &- passStart)
    passes += 1
    progress(Double(passes) / Double(options.repeats))
  }
  return Measurement(
    samples: samples, batch: batch, passes: passes, checksum: checksum, resultsTotal: total)
}

/// ``measure(_:options:clock:progress:)`` on the monotonic clock.
@inlinable
public func measure<Steps: TimedSteps>(
  _ steps: inout Steps, options: MeasureOptions, pilot: ((inout Steps, Int) -> StepOutcome)? = nil,
  progress: (Double) -> Void = { _ in }
) -> Measurement {
  var clock = MonotonicClock()
  return measure(&steps, options: options, clock: &clock, pilot: pilot, progress: progress)
}

/// One operation as a one-step ``TimedSteps``: a build, a clustering, a batch
/// of queries. `body` returns its digest and result count.
public struct TimedOperation: TimedSteps {
  @usableFromInline let body: () -> StepOutcome

  public init(_ body: @escaping () -> StepOutcome) { self.body = body }

  public var stepCount: Int { 1 }
  @inlinable public mutating func runStep(_ step: Int) -> StepOutcome { body() }
}
