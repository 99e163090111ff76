import Foundation

/// Maps values onto [0, 1] and chooses readable tick values.
///
/// Total on every input. The values come from reports, whose reader takes
/// any finite number (a subnormal latency, `build_ms=1e308`, a negative
/// figure in a hand-edited file: see ``ReportColumn/Kind/number``), and
/// from figures derived from them, which may overflow (build_ms × 10^6). So
/// every value is first clamped into ±``largest`` (on a log scale, up from
/// ``smallestPositive``), infinities included: spans, powers of ten and
/// tick counts then stay finite and small. A value beyond is drawn at the
/// axis' end; its label still gives the value itself. A span too narrow
/// for the doubles to hold ticks apart is widened around the values.
struct AxisScale {
  var low: Double
  var high: Double
  var log: Bool
  var ticks: [Double]

  /// The largest magnitude drawn where it lies: twice it is still finite.
  static let largest = 1e300
  /// The smallest positive value a log scale draws where it lies: its
  /// power of ten is a normal double, and so is the ratio to ``largest``.
  static let smallestPositive = 1e-300
  /// At most this many decades get a tick each; a wider log scale ticks
  /// every few decades.
  static let maximumDecadeTicks = 12

  init(values: [Double], log wantsLog: Bool, includeZero: Bool) {
    let drawn = values.filter { !$0.isNaN }.map(Self.clamped)
    let positive = drawn.filter { $0 > 0 }
    log = wantsLog && !positive.isEmpty && positive.count == drawn.count
    if log {
      let minimum = Swift.max(positive.min()!, Self.smallestPositive)
      let maximum = Swift.max(positive.max()!, minimum)
      let lowPower = Foundation.floor(Foundation.log10(minimum))
      var highPower = Foundation.ceil(Foundation.log10(maximum))
      if highPower <= lowPower { highPower = lowPower + 1 }
      // at most 601 decades here (10^-301 … 10^300), so the count is exact
      let decades = Int(highPower - lowPower)
      let every = (decades + Self.maximumDecadeTicks - 1) / Self.maximumDecadeTicks
      // Over a few decades, 2× and 5× ticks too, and the axis ends at the
      // nearest of them, not a whole decade away from the data.
      // (a wide scale ticks every few decades, and at its top one)
      var t: [Double] = []
      for k in Array(stride(from: 0, to: decades, by: every)) + [decades] {
        let p = Foundation.pow(10, lowPower + Double(k))
        t.append(p)
        if decades <= 2 && k < decades { t += [p * 2, p * 5] }
      }
      let tolerance = 1.000001
      let start = t.last { $0 <= minimum * tolerance } ?? t[0]
      let end = t.first { $0 * tolerance >= maximum } ?? t[t.count - 1]
      low = start
      high = end > start ? end : start * 10
      let (a, b) = (low, high)
      ticks = t.filter { $0 >= a / tolerance && $0 <= b * tolerance }
    } else {
      var lo = drawn.min() ?? 0
      var hi = drawn.max() ?? 1
      if includeZero { lo = Swift.min(lo, 0); hi = Swift.max(hi, 0) }
      // Equal values, or apart by less than the doubles near them resolve
      // into five ticks (1e16 and 1e16 + 2; 0 and 5e-324): a span of their
      // size, or 1 about 0.
      let size = Swift.max(abs(lo), abs(hi))
      if hi - lo <= size * 1e-9 || hi - lo < Self.smallestPositive {
        hi = lo + (lo == 0 ? 1 : abs(lo))
      }
      let step = AxisScale.niceStep((hi - lo) / 5)
      lo = Foundation.floor(lo / step) * step
      hi = Foundation.ceil(hi / step) * step
      low = lo
      high = hi
      // a handful: the step is at least a fifth of the span, rounded up
      let count = Swift.min(Int(((hi - lo) / step).rounded()), 20)
      ticks = (0...count).map { i in
        let v = lo + Double(i) * step
        return abs(v) < step / 1000 ? 0 : v
      }
    }
  }

  /// `value` within ±``largest``, infinities at the ends.
  static func clamped(_ value: Double) -> Double {
    Swift.min(Swift.max(value, -largest), largest)
  }

  /// Where `value` lies between `low` (0) and `high` (1), clamped to the
  /// axis (NaN at its start).
  func fraction(_ value: Double) -> Double {
    guard !value.isNaN else { return 0 }
    let v = Swift.min(Swift.max(Self.clamped(value), low), high)
    if log {
      return (Foundation.log10(v) - Foundation.log10(low)) / (Foundation.log10(high) - Foundation.log10(low))
    }
    return (v - low) / (high - low)
  }

  /// 1, 2 or 5 times a power of ten, at least `raw`.
  static func niceStep(_ raw: Double) -> Double {
    guard raw > 0, raw.isFinite else { return 1 }
    let power = Foundation.pow(10, Foundation.floor(Foundation.log10(raw)))
    for m in [1.0, 2, 5, 10] where m * power >= raw * 0.999 { return m * power }
    return 10 * power
  }
}
