import Foundation

/// Nanoseconds in the unit that keeps three significant digits readable:
/// `812 ns`, `1.46 µs`, `17.45 ms`, `2.10 s`. The tables of `bench run` and
/// `bench compare --markdown` print durations this way. Any double: past
/// 10^15 s (a report may hold any finite number) in exponent form, and
/// `n/a` for NaN.
public func formatDuration(_ ns: Double) -> String {
  if ns.isNaN { return "n/a" }
  if abs(ns) >= 1e24 { return String(format: "%.3g s", ns / 1e9) }
  return switch ns {
  case ..<1_000: String(format: "%.0f ns", ns)
  case ..<1_000_000: String(format: "%.2f µs", ns / 1e3)
  case ..<1_000_000_000: String(format: "%.2f ms", ns / 1e6)
  default: String(format: "%.2f s", ns / 1e9)
  }
}
