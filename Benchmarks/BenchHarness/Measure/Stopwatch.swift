#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A monotonic nanosecond clock and a start mark.
///
/// Reads `clock_gettime(CLOCK_MONOTONIC)` because it was the cheaper of the two
/// monotonic clocks here: ≈31 ns a read against ≈50 ns for `ContinuousClock.now`
/// (2 M back-to-back reads each, `-O`, 2-core EPYC VM, Swift 6.3.1), both with
/// 1 ns resolution. Monotonic, so a clock step (NTP) never makes an interval
/// negative. It is wall time: it keeps counting while the thread is descheduled.
///
/// ```swift
/// let watch = Stopwatch()
/// buildIndex()
/// let ns = watch.elapsedNanoseconds
/// ```
public struct Stopwatch: Sendable {
  /// The clock reading when the stopwatch was created, in nanoseconds.
  public let startNanoseconds: UInt64

  /// Starts a stopwatch now.
  @inlinable
  public init() {
    startNanoseconds = Stopwatch.now()
  }

  /// Nanoseconds since `init`.
  @inlinable
  public var elapsedNanoseconds: UInt64 {
    Stopwatch.now() &- startNanoseconds
  }

  /// The monotonic clock, in nanoseconds since an arbitrary fixed origin.
  /// Only differences between two readings mean anything.
  @inlinable @inline(__always)
  public static func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }

  /// Waits `nanoseconds` (a live workload's frames in real time).
  public static func sleep(nanoseconds: UInt64) {
    var ts = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    var left = timespec()
    while nanosleep(&ts, &left) != 0 && errno == EINTR { ts = left }
  }

  /// Runs `body` once and returns its result with the elapsed nanoseconds.
  /// For long single operations such as building an index.
  @inlinable
  public static func time<Result>(
    _ body: () throws -> Result
  ) rethrows -> (result: Result, nanoseconds: Double) {
    let start = now()
    let result = try body()
    let end = now()
    return (result, Double(end &- start))
  }

  /// The cost of one clock reading as seen by a measurement: the median of
  /// `reads` back-to-back differences `now() - now()`, in nanoseconds.
  ///
  /// The median, not the mean, so that a preemption during calibration does not
  /// inflate it. This is what timing an empty operation would report.
  ///
  /// - Complexity: O(`reads` log `reads`).
  public static func measureOverhead(reads: Int = 10_001) -> Double {
    precondition(reads > 0, "reads must be positive")
    var deltas = [Double]()
    deltas.reserveCapacity(reads)
    for _ in 0..<reads {
      let a = now()
      let b = now()
      deltas.append(Double(b &- a))
    }
    return Statistics.percentile(0.5, sorted: deltas.sorted())
  }
}
