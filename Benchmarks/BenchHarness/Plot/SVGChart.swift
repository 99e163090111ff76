import BenchFormats
import Foundation

/// A chart drawn as a standalone SVG 1.1 document, 800 × 500 units: a title,
/// a subtitle, one y axis, bars or lines, and a legend on the right.
///
/// Only plain elements (`rect`, `line`, `polyline`, `circle`, `text`, `g`)
/// and presentation attributes are used, so browsers, `rsvg-convert` and
/// image viewers all render it the same. Elements tests count carry a class:
/// `<rect class="bar"`, `<polyline class="series"`, `<line class="whisker"`;
/// the y axis group is `class="axis-y log"` or `class="axis-y linear"`.
public struct SVGChart: Sendable {
  /// One bar: a median, with optional p90 and p99 whiskers.
  public struct Bar: Sendable, Equatable {
    public var label: String
    /// The legend entry (index name) whose colour the bar takes.
    public var series: String
    public var value: Double
    public var p90: Double?
    public var p99: Double?

    public init(label: String, series: String, value: Double, p90: Double? = nil, p99: Double? = nil) {
      self.label = label
      self.series = series
      self.value = value
      self.p90 = p90
      self.p99 = p99
    }
  }

  /// One line: points in x order. With a category x axis, `x` is the
  /// category's position (0, 1, 2…).
  public struct Series: Sendable, Equatable {
    public var name: String
    /// The index name whose colour the line takes.
    public var colorKey: String
    public var points: [(x: Double, y: Double)]

    public init(name: String, colorKey: String, points: [(x: Double, y: Double)]) {
      self.name = name
      self.colorKey = colorKey
      self.points = points
    }

    public static func == (a: Series, b: Series) -> Bool {
      a.name == b.name && a.colorKey == b.colorKey
        && a.points.map(\.x) == b.points.map(\.x) && a.points.map(\.y) == b.points.map(\.y)
    }
  }

  /// How axis values read: durations given in nanoseconds (ticks say `ns`,
  /// `µs`, `ms` or `s`), counts (`10k`, `1M`) or plain numbers.
  public enum ValueKind: Sendable, Equatable {
    case nanoseconds
    case count
    case plain
  }

  /// The x axis of a line chart.
  public enum XAxis: Sendable, Equatable {
    /// Named positions, evenly spaced (zoom bands).
    case categories([String])
    /// Numbers, on a log scale when `log` is true.
    case numeric(kind: ValueKind, log: Bool)
  }

  public enum Content: Sendable, Equatable {
    case bars([Bar])
    case lines(x: XAxis, xLabel: String, series: [Series])
  }

  public var title: String
  public var subtitle: String
  public var yLabel: String
  public var yKind: ValueKind
  public var yLog: Bool
  public var content: Content
  /// Colours by index name; see `ChartPalette`.
  public var palette: ChartPalette
  /// A value drawn across the plot as a dashed red line (a frame budget's
  /// share), with its label; the axis always reaches it.
  public var limit: (value: Double, label: String)? = nil

  public init(
    title: String, subtitle: String, yLabel: String, yKind: ValueKind, yLog: Bool,
    content: Content, palette: ChartPalette
  ) {
    self.title = title
    self.subtitle = subtitle
    self.yLabel = yLabel
    self.yKind = yKind
    self.yLog = yLog
    self.content = content
    self.palette = palette
  }

  /// True when positive `values` span more than `ratio` times (the point
  /// where a linear axis squashes the small ones flat). A zero or negative
  /// value rules a log scale out.
  public static func wantsLogScale(_ values: [Double], ratio: Double = 20) -> Bool {
    guard let low = values.min(), let high = values.max(), low > 0 else { return false }
    return high / low > ratio
  }

  // MARK: - Layout

  static let width = 800.0
  static let height = 500.0
  static let plotLeft = 90.0
  static let plotRight = 600.0
  static let plotTop = 70.0
  static let plotBottom = 400.0
  static let legendLeft = 615.0

  /// The whole SVG document.
  public func render() -> String {
    var svg = SVGWriter()
    svg.open(
      "svg",
      [
        ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"), ("width", "800"),
        ("height", "500"), ("viewBox", "0 0 800 500"), ("font-family", "sans-serif"),
        ("font-size", "12"),
      ])
    svg.element("rect", [("x", "0"), ("y", "0"), ("width", "800"), ("height", "500"), ("fill", "white")])
    svg.text(title, x: 20, y: 28, attributes: [("font-size", "17"), ("font-weight", "bold")])
    svg.text(subtitle, x: 20, y: 50, attributes: [("font-size", "13"), ("fill", "#444444")])

    let yValues: [Double]
    switch content {
    case .bars(let bars): yValues = bars.flatMap { [$0.value, $0.p90, $0.p99].compactMap { $0 } }
    case .lines(_, _, let series): yValues = series.flatMap { $0.points.map(\.y) }
    }
    let yScale = AxisScale(values: yValues + (limit.map { [$0.value] } ?? []), log: yLog, includeZero: !yLog)
    drawYAxis(yScale, into: &svg)

    switch content {
    case .bars(let bars): drawBars(bars, yScale: yScale, into: &svg)
    case .lines(let x, let xLabel, let series):
      drawLines(series, x: x, xLabel: xLabel, yScale: yScale, into: &svg)
    }
    if let limit { drawLimit(limit, yScale: yScale, into: &svg) }
    drawLegend(into: &svg)
    svg.close("svg")
    return svg.output
  }

  private func drawLimit(_ limit: (value: Double, label: String), yScale: AxisScale, into svg: inout SVGWriter) {
    let y = yPosition(limit.value, yScale)
    svg.element(
      "line",
      [
        ("class", "limit"), ("x1", fmt(Self.plotLeft)), ("y1", fmt(y)), ("x2", fmt(Self.plotRight)),
        ("y2", fmt(y)), ("stroke", "#d62728"), ("stroke-width", "2"), ("stroke-dasharray", "6 4"),
      ])
    svg.text(
      limit.label, x: Self.plotRight - 4, y: y - 6,
      attributes: [("text-anchor", "end"), ("fill", "#d62728"), ("font-weight", "bold")])
  }

  private func yPosition(_ value: Double, _ scale: AxisScale) -> Double {
    Self.plotBottom - scale.fraction(value) * (Self.plotBottom - Self.plotTop)
  }

  private func drawYAxis(_ scale: AxisScale, into svg: inout SVGWriter) {
    svg.open("g", [("class", "axis-y \(scale.log ? "log" : "linear")")])
    for tick in scale.ticks {
      let y = yPosition(tick, scale)
      svg.element(
        "line",
        [
          ("x1", fmt(Self.plotLeft)), ("y1", fmt(y)), ("x2", fmt(Self.plotRight)), ("y2", fmt(y)),
          ("stroke", "#dddddd"), ("stroke-width", "1"),
        ])
      svg.text(
        formatValue(tick, yKind), x: Self.plotLeft - 6, y: y + 4,
        attributes: [("text-anchor", "end")])
    }
    svg.element(
      "line",
      [
        ("x1", fmt(Self.plotLeft)), ("y1", fmt(Self.plotTop)), ("x2", fmt(Self.plotLeft)),
        ("y2", fmt(Self.plotBottom)), ("stroke", "#333333"), ("stroke-width", "1"),
      ])
    let middle = (Self.plotTop + Self.plotBottom) / 2
    let label = yLabel + (scale.log ? " (log scale)" : "")
    svg.text(
      label, x: 22, y: middle,
      attributes: [("text-anchor", "middle"), ("transform", "rotate(-90 22 \(fmt(middle)))"), ("font-size", "13")])
    svg.close("g")
  }

  private func drawXBaseline(into svg: inout SVGWriter) {
    svg.element(
      "line",
      [
        ("x1", fmt(Self.plotLeft)), ("y1", fmt(Self.plotBottom)), ("x2", fmt(Self.plotRight)),
        ("y2", fmt(Self.plotBottom)), ("stroke", "#333333"), ("stroke-width", "1"),
      ])
  }

  private func drawBars(_ bars: [Bar], yScale: AxisScale, into svg: inout SVGWriter) {
    drawXBaseline(into: &svg)
    guard !bars.isEmpty else { return }
    let slot = (Self.plotRight - Self.plotLeft) / Double(bars.count)
    let barWidth = min(slot * 0.6, 60)
    let rotate = bars.count > 5 || bars.contains { $0.label.count > 12 }
    for (i, bar) in bars.enumerated() {
      let center = Self.plotLeft + slot * (Double(i) + 0.5)
      let top = yPosition(bar.value, yScale)
      let base = yPosition(yScale.low, yScale)
      svg.element(
        "rect",
        [
          ("class", "bar"), ("x", fmt(center - barWidth / 2)), ("y", fmt(min(top, base))),
          ("width", fmt(barWidth)), ("height", fmt(abs(base - top))),
          ("fill", palette.color(for: bar.series)),
        ])
      var labelTop = top
      if let p90 = bar.p90, let p99 = bar.p99 {
        let y90 = yPosition(p90, yScale), y99 = yPosition(p99, yScale)
        svg.element(
          "line",
          [
            ("class", "whisker"), ("x1", fmt(center)), ("y1", fmt(top)), ("x2", fmt(center)),
            ("y2", fmt(y99)), ("stroke", "#222222"), ("stroke-width", "1.5"),
          ])
        for (y, half) in [(y90, barWidth / 3), (y99, barWidth / 6)] {
          svg.element(
            "line",
            [
              ("x1", fmt(center - half)), ("y1", fmt(y)), ("x2", fmt(center + half)),
              ("y2", fmt(y)), ("stroke", "#222222"), ("stroke-width", "1.5"),
            ])
        }
        labelTop = min(top, y99)
      }
      if bars.count <= 12 {
        svg.text(
          formatValue(bar.value, yKind), x: center, y: labelTop - 5,
          attributes: [("text-anchor", "middle")])
      }
      let label = truncated(bar.label, 30)
      if rotate {
        let y = Self.plotBottom + 16
        svg.text(
          label, x: center, y: y,
          attributes: [("text-anchor", "end"), ("transform", "rotate(-30 \(fmt(center)) \(fmt(y)))")])
      } else {
        svg.text(label, x: center, y: Self.plotBottom + 18, attributes: [("text-anchor", "middle")])
      }
    }
  }

  private func drawLines(
    _ series: [Series], x: XAxis, xLabel: String, yScale: AxisScale, into svg: inout SVGWriter
  ) {
    drawXBaseline(into: &svg)
    let width = Self.plotRight - Self.plotLeft
    let xPosition: (Double) -> Double
    switch x {
    case .categories(let names):
      let slot = width / Double(max(names.count, 1))
      xPosition = { Self.plotLeft + slot * ($0 + 0.5) }
      svg.open("g", [("class", "axis-x categories")])
      for (i, name) in names.enumerated() {
        svg.text(
          name, x: xPosition(Double(i)), y: Self.plotBottom + 18, attributes: [("text-anchor", "middle")])
      }
      svg.close("g")
    case .numeric(let kind, let log):
      let scale = AxisScale(values: series.flatMap { $0.points.map(\.x) }, log: log, includeZero: false)
      xPosition = { Self.plotLeft + scale.fraction($0) * width }
      svg.open("g", [("class", "axis-x \(log ? "log" : "linear")")])
      for tick in scale.ticks {
        let px = xPosition(tick)
        svg.element(
          "line",
          [
            ("x1", fmt(px)), ("y1", fmt(Self.plotTop)), ("x2", fmt(px)), ("y2", fmt(Self.plotBottom)),
            ("stroke", "#eeeeee"), ("stroke-width", "1"),
          ])
        svg.text(
          formatValue(tick, kind), x: px, y: Self.plotBottom + 18, attributes: [("text-anchor", "middle")])
      }
      svg.close("g")
    }
    let xTitle = xLabel + (x == .numeric(kind: .count, log: true) || x == .numeric(kind: .plain, log: true) ? " (log scale)" : "")
    svg.text(
      xTitle, x: (Self.plotLeft + Self.plotRight) / 2, y: Self.plotBottom + 48,
      attributes: [("text-anchor", "middle"), ("font-size", "13")])

    let dashes = Self.dashes(series)
    for (line, dash) in zip(series, dashes) {
      let color = palette.color(for: line.colorKey)
      let points = line.points.map { "\(fmt(xPosition($0.x))),\(fmt(yPosition($0.y, yScale)))" }
      svg.element(
        "polyline",
        [
          ("class", "series"), ("points", points.joined(separator: " ")), ("fill", "none"),
          ("stroke", color), ("stroke-width", "2.5"),
        ] + (dash.isEmpty ? [] : [("stroke-dasharray", dash)]))
      for p in line.points {
        svg.element(
          "circle",
          [("cx", fmt(xPosition(p.x))), ("cy", fmt(yPosition(p.y, yScale))), ("r", "3.5"), ("fill", color)])
      }
    }
  }

  /// A dash pattern per series: solid for an index's first line, then
  /// dashed and dotted ones, so lines sharing an index's colour stay apart.
  static func dashes(_ series: [Series]) -> [String] {
    let patterns = ["", "8 4", "2 4", "10 4 2 4"]
    var seen: [String: Int] = [:]
    return series.map { line in
      let k = seen[line.colorKey, default: 0]
      seen[line.colorKey] = k + 1
      return patterns[k % patterns.count]
    }
  }

  /// One entry per series (lines) or per index (bars), in order of first appearance.
  private func drawLegend(into svg: inout SVGWriter) {
    var entries: [(name: String, colorKey: String, dash: String?)] = []
    switch content {
    case .bars(let bars):
      for bar in bars where !entries.contains(where: { $0.colorKey == bar.series }) {
        entries.append((bar.series, bar.series, nil))
      }
    case .lines(_, _, let series):
      for (line, dash) in zip(series, Self.dashes(series))
      where !entries.contains(where: { $0.name == line.name }) {
        entries.append((line.name, line.colorKey, dash))
      }
    }
    svg.open("g", [("class", "legend")])
    var y = Self.plotTop + 6
    for entry in entries {
      let color = palette.color(for: entry.colorKey)
      if let dash = entry.dash {
        svg.element(
          "line",
          [
            ("class", "swatch"), ("x1", fmt(Self.legendLeft)), ("y1", fmt(y - 3)),
            ("x2", fmt(Self.legendLeft + 22)), ("y2", fmt(y - 3)), ("stroke", color),
            ("stroke-width", "2.5"),
          ] + (dash.isEmpty ? [] : [("stroke-dasharray", dash)]))
      } else {
        svg.element(
          "rect",
          [
            ("class", "swatch"), ("x", fmt(Self.legendLeft)), ("y", fmt(y - 10)), ("width", "14"),
            ("height", "14"), ("fill", color),
          ])
      }
      svg.text(truncated(entry.name, 24), x: Self.legendLeft + 28, y: y + 2)
      y += 22
    }
    if case .bars(let bars) = content, bars.contains(where: { $0.p99 != nil }) {
      y += 8
      svg.text("bar: median", x: Self.legendLeft, y: y, attributes: [("fill", "#444444")])
      svg.text("whiskers: p90 (wide cap),", x: Self.legendLeft, y: y + 18, attributes: [("fill", "#444444")])
      svg.text("p99 (narrow cap)", x: Self.legendLeft, y: y + 36, attributes: [("fill", "#444444")])
    }
    svg.close("g")
  }
}

// MARK: - Numbers

/// At most three significant digits, no exponent, no trailing zeros:
/// `0.00123`, `12.5`, `850`. Beyond what reads well that way (under 10^-6 or
/// from 10^15) the exponent form, `5e-324`, `1.8e+308`; never a trap, for
/// any double (a report may hold a subnormal latency, and a derived figure
/// such as build_ms × 10^6 may overflow): `∞`, `-∞`, `NaN`.
func shortNumber(_ value: Double) -> String {
  if value.isNaN { return "NaN" }
  if value.isInfinite { return value < 0 ? "-∞" : "∞" }
  if value == 0 { return "0" }
  let magnitude = Foundation.floor(Foundation.log10(abs(value)))
  if magnitude < -6 || magnitude >= 15 { return String(format: "%.3g", value) }
  let decimals = max(0, 2 - Int(magnitude))
  var s = String(format: "%.\(decimals)f", value)
  if s.contains(".") {
    while s.hasSuffix("0") { s.removeLast() }
    if s.hasSuffix(".") { s.removeLast() }
  }
  return s
}

/// A duration given in milliseconds as ``formatValue(_:_:)`` writes
/// nanoseconds, without the overflow of multiplying a huge one by 10^6.
func formatMilliseconds(_ ms: Double) -> String {
  abs(ms) < 1e6 ? formatValue(ms * 1e6, .nanoseconds) : shortNumber(ms / 1e3) + " s"
}

/// A tick or bar label: `850 ns`, `1.2 µs`, `3 ms`; `20k`, `1M`; `16.5`.
func formatValue(_ value: Double, _ kind: SVGChart.ValueKind) -> String {
  switch kind {
  case .nanoseconds:
    if value == 0 { return "0" }
    let a = abs(value)
    if a < 1e3 { return shortNumber(value) + " ns" }
    if a < 1e6 { return shortNumber(value / 1e3) + " µs" }
    if a < 1e9 { return shortNumber(value / 1e6) + " ms" }
    return shortNumber(value / 1e9) + " s"
  case .count:
    let a = abs(value)
    if a >= 1e6 { return shortNumber(value / 1e6) + "M" }
    if a >= 1e3 { return shortNumber(value / 1e3) + "k" }
    return shortNumber(value)
  case .plain:
    return shortNumber(value)
  }
}

/// Coordinates with at most two decimals. The chart's arithmetic keeps
/// them finite (``AxisScale`` clamps what it maps); should one not be, it is
/// written as 0 rather than `nan`, which no SVG reader takes.
func fmt(_ value: Double) -> String {
  value.isFinite ? shortCoordinate(value) : "0"
}

private func shortCoordinate(_ value: Double) -> String {
  var s = String(format: "%.2f", value)
  while s.hasSuffix("0") { s.removeLast() }
  if s.hasSuffix(".") { s.removeLast() }
  return s == "-0" ? "0" : s
}

func truncated(_ text: String, _ limit: Int) -> String {
  text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
}

// MARK: - Writer

/// Appends SVG elements to a string, escaping every attribute value and text.
struct SVGWriter {
  private(set) var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
  private var depth = 0

  /// `&`, `<`, `>`, `"` and `'` as entities and control characters written
  /// out (XML 1.0 allows almost none), so any label is safe as text or attribute.
  static func escape(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for c in escapingControls(s, keeping: ["\n"]) {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.append(c)
      }
    }
    return out
  }

  private func tag(_ name: String, _ attributes: [(String, String)]) -> String {
    var s = "<\(name)"
    for (key, value) in attributes { s += " \(key)=\"\(Self.escape(value))\"" }
    return s
  }

  private var indent: String { String(repeating: "  ", count: depth) }

  mutating func open(_ name: String, _ attributes: [(String, String)]) {
    output += indent + tag(name, attributes) + ">\n"
    depth += 1
  }

  mutating func close(_ name: String) {
    depth -= 1
    output += indent + "</\(name)>\n"
  }

  mutating func element(_ name: String, _ attributes: [(String, String)]) {
    output += indent + tag(name, attributes) + "/>\n"
  }

  mutating func text(
    _ content: String, x: Double, y: Double, attributes: [(String, String)] = []
  ) {
    output += indent + tag("text", [("x", fmt(x)), ("y", fmt(y))] + attributes) + ">"
      + Self.escape(content) + "</text>\n"
  }
}
