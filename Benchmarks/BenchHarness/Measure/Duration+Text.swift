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

/// Nanoseconds to three significant digits in the largest unit under 1,000
/// (`999 ns`, `1.23 µs`, `13.1 µs`, `126 µs`, `1.13 ms`, `2.50 s`): what
/// `bench run`'s table and `bench table` print, since a table is read for
/// ratios and the report keeps the nanoseconds. A value that rounds up to
/// 1,000 of a unit is written in the next (`999.7 µs` is `1.00 ms`).
public func formatDurationShort(_ ns: Double) -> String {
  let units: [(scale: Double, name: String)] = [(1, "ns"), (1e3, "µs"), (1e6, "ms"), (1e9, "s")]
  var u = 0
  while u + 1 < units.count && abs(ns) >= units[u + 1].scale { u += 1 }
  var text = units[u].name == "ns" ? String(format: "%.0f", ns) : formatThreeDigits(ns / units[u].scale)
  if u + 1 < units.count, let shown = Double(text), abs(shown) >= 1_000 {
    u += 1
    text = formatThreeDigits(ns / units[u].scale)
  }
  return "\(text) \(units[u].name)"
}

/// `value` to three significant digits, without exponent: `41.2`, `119`,
/// `1.48`, `0.0241`; at least no decimals at 100 and above (`1234`).
/// Rounding is decided on the rounded value, so `9.996` is `10.0`, not
/// `10.00`.
public func formatThreeDigits(_ value: Double) -> String {
  guard value.isFinite, value != 0 else { return value.isFinite ? "0" : "\(value)" }
  func decimals(_ v: Double) -> Int { max(0, 2 - Int(log10(abs(v)).rounded(.down))) }
  var d = decimals(value)
  var text = String(format: "%.\(d)f", value)
  if let shown = Double(text), shown != 0, decimals(shown) < d {
    d = decimals(shown)
    text = String(format: "%.\(d)f", value)
  }
  return text
}
