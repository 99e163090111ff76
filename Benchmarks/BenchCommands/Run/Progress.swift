import BenchHarness
import BenchWorkloads
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress on stderr for long runs: index, workload, percent done and an
/// estimate of the time left. A live line on a terminal; elsewhere (CI logs,
/// a file, a pipe) a line every 5 s. `--quiet` silences it.
///
/// The engine tells it when a unit starts and after each timed pass; a
/// ticker on another thread repeats the line when nothing was said for an
/// interval, so a long pass, a long build or a long status still shows
/// every 5 s that the run goes on. Copies share one ``ProgressLine``, and
/// the ticker stops at ``finish()`` or when the last copy goes away.
struct Progress: RunObserver {
  private let line: ProgressLine

  /// - Parameters:
  ///   - isTerminal: a live line redrawn in place (default: stderr is a terminal).
  ///   - interval: seconds between lines (default 0.2 on a terminal, 5 elsewhere).
  ///   - write: where lines go: stderr, or a test's buffer.
  init(
    quiet: Bool, totalUnits: Int, prefix: String = "", isTerminal: Bool = isatty(2) != 0,
    interval: Double? = nil, write: @escaping @Sendable (String) -> Void = writeStandardError
  ) {
    line = ProgressLine(
      enabled: !quiet, totalUnits: totalUnits, prefix: prefix, isTerminal: isTerminal,
      interval: interval ?? (isTerminal ? 0.2 : 5), write: write)
    line.startTicking()
  }

  mutating func start(_ label: String) { line.start(label) }
  mutating func update(_ fraction: Double) { line.update(fraction) }
  mutating func status(_ text: String) { line.status(text) }
  mutating func finish() { line.finish() }
}

/// The state of one run's progress, shared by ``Progress``'s copies and its
/// ticker, behind a lock.
final class ProgressLine: @unchecked Sendable {
  private let enabled: Bool
  private let isTerminal: Bool
  /// Said before every line (`recommend 1/2: `).
  private let prefix: String
  private let interval: Double
  private let write: @Sendable (String) -> Void
  private let lock = NSLock()
  private var timer: DispatchSourceTimer?

  /// Units of work in the whole run (see ``RunObserver``), and those finished.
  private let totalUnits: Int
  private var doneUnits = 0
  private var label = ""
  private var fraction = 0.0
  /// A status shown in place of the unit's line, and when it was first shown.
  private var statusText: (text: String, since: UInt64)?
  private let started = Stopwatch.now()
  private var lastPrinted: UInt64 = 0
  private var finished = false

  init(
    enabled: Bool, totalUnits: Int, prefix: String, isTerminal: Bool, interval: Double,
    write: @escaping @Sendable (String) -> Void
  ) {
    self.enabled = enabled
    self.totalUnits = max(1, totalUnits)
    self.prefix = prefix
    self.isTerminal = isTerminal
    self.interval = interval
    self.write = write
  }

  deinit { timer?.cancel() }

  /// Repeats the line when nothing was written for an interval: it looks
  /// five times an interval, so a line is never more than 1.2 intervals
  /// after the last (on a terminal, whose line every update redraws, once a
  /// second).
  func startTicking() {
    guard enabled else { return }
    let every = isTerminal ? 1 : interval / 5
    let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    timer.schedule(
      deadline: .now() + every, repeating: every, leeway: .nanoseconds(Int(every * 1e8)))
    timer.setEventHandler { [weak self] in self?.tick() }
    timer.resume()
    self.timer = timer
  }

  func start(_ label: String) {
    lock.lock()
    defer { lock.unlock() }
    if !self.label.isEmpty { doneUnits += 1 }
    self.label = label
    statusText = nil
    fraction = 0
    show(force: false)
  }

  func update(_ fraction: Double) {
    lock.lock()
    defer { lock.unlock() }
    self.fraction = fraction
    statusText = nil
    show(force: false)
  }

  /// Shows `text` at once, in place of the unit's line until the next
  /// update or unit.
  func status(_ text: String) {
    lock.lock()
    defer { lock.unlock() }
    statusText = (text, Stopwatch.now())
    show(force: true)
  }

  /// Clears the live line, and stops the ticker.
  func finish() {
    lock.lock()
    defer { lock.unlock() }
    guard !finished else { return }
    finished = true
    timer?.cancel()
    if enabled && isTerminal { write("\r\u{1B}[K") }
  }

  private func tick() {
    lock.lock()
    defer { lock.unlock() }
    guard !label.isEmpty || statusText != nil else { return }
    show(force: false)
  }

  /// Writes the current line, when the last was an interval ago (or
  /// `force`). Called with the lock held.
  private func show(force: Bool) {
    guard enabled && !finished else { return }
    let now = Stopwatch.now()
    guard force || lastPrinted == 0 || Double(now &- lastPrinted) >= interval * 1e9 else { return }
    lastPrinted = now
    let text: String
    if let (status, since) = statusText {
      let seconds = Double(now &- since) / 1e9
      text = prefix + status + (seconds >= 1 ? String(format: " (%.0f s)", seconds) : "")
    } else {
      let overall = min(1, (Double(doneUnits) + fraction) / Double(totalUnits))
      let elapsed = Double(now &- started) / 1e9
      var eta = ""
      if overall > 0.02 {
        eta = String(format: ", about %.0f s left", elapsed / overall * (1 - overall))
      }
      text = prefix + String(format: "%@: %3.0f%% of this, %3.0f%% overall%@", label, fraction * 100, overall * 100, eta)
    }
    write(isTerminal ? "\r\u{1B}[K" + text : text + "\n")
  }
}
