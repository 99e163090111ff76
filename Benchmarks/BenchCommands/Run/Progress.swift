import BenchHarness
import BenchWorkloads
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress on stderr for long runs: index, workload, percent done and an
/// estimate of the time left. A live line on a terminal; elsewhere (CI logs)
/// a line every few seconds. `--quiet` silences it.
struct Progress: RunObserver {
  let enabled: Bool
  let isTerminal: Bool
  /// Units of work in the whole run (see ``RunObserver``), and those finished.
  var totalUnits: Int
  var doneUnits = 0
  var label = ""
  let started = Stopwatch.now()
  var lastPrinted: UInt64 = 0

  /// Said before every line (`recommend 1/2: `).
  let prefix: String

  init(quiet: Bool, totalUnits: Int, prefix: String = "") {
    enabled = !quiet
    self.prefix = prefix
    isTerminal = isatty(2) != 0
    self.totalUnits = max(1, totalUnits)
  }

  mutating func start(_ label: String) {
    if !self.label.isEmpty { doneUnits += 1 }
    self.label = label
    update(0)
  }

  mutating func update(_ fraction: Double) {
    guard enabled else { return }
    let now = Stopwatch.now()
    let interval: UInt64 = isTerminal ? 200_000_000 : 5_000_000_000
    guard now &- lastPrinted >= interval || lastPrinted == 0 else { return }
    lastPrinted = now
    let overall = min(1, (Double(doneUnits) + fraction) / Double(totalUnits))
    let elapsed = Double(now &- started) / 1e9
    var eta = ""
    if overall > 0.02 {
      eta = String(format: ", about %.0f s left", elapsed / overall * (1 - overall))
    }
    let text = prefix + String(format: "%@: %3.0f%% of this, %3.0f%% overall%@", label, fraction * 100, overall * 100, eta)
    if isTerminal {
      writeStandardError("\r\u{1B}[K" + text)
    } else {
      writeStandardError(text + "\n")
    }
  }

  /// Shows `text` at once, in place of the unit's line until the next update.
  mutating func status(_ text: String) {
    guard enabled else { return }
    lastPrinted = Stopwatch.now()
    writeStandardError(isTerminal ? "\r\u{1B}[K" + prefix + text : prefix + text + "\n")
  }

  /// Clears the live line at the end.
  mutating func finish() {
    if enabled && isTerminal { writeStandardError("\r\u{1B}[K") }
  }
}
