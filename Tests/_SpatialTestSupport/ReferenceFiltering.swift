import MapClustering
import SpatialIndexes

/// Point properties as a test writes them: category values as strings
/// (`nil` missing) and numbers as units at a scale (`Int64.min` missing).
package struct ReferenceProperties: Sendable {
  package var categories: [(name: String, values: [String?])] = []
  package var numbers: [(name: String, units: [Int64], scale: Int)] = []

  package init() {}

  /// The library's form of the same columns (categories coded by the
  /// library).
  package func pointProperties() throws -> PointProperties {
    var p = PointProperties()
    for c in categories { try p.addCategory(c.name, values: c.values) }
    for n in numbers { try p.addNumber(n.name, units: n.units, scale: n.scale) }
    return p
  }

  func category(_ name: String) -> [String?]? { categories.first { $0.name == name }?.values }
  func number(_ name: String) -> (units: [Int64], scale: Int)? {
    numbers.first { $0.name == name }.map { ($0.units, $0.scale) }
  }
}

/// A filter clause as a test writes it, and its text.
package enum ReferenceClause: Sendable, CustomStringConvertible {
  case oneOf(String, [String])
  case atLeast(String, String)
  case atMost(String, String)

  /// The clause in the filter's text form: values quoted when they must
  /// be (or at random, `quoteAll`), `""` for a quote.
  package func text(quoteAll: Bool = false) -> String {
    func q(_ v: String) -> String {
      let bare = !v.isEmpty && v.allSatisfy { !" \t\r\n,()\"".contains($0) }
      return bare && !quoteAll ? v : "\"" + v.map { $0 == "\"" ? "\"\"" : String($0) }.joined() + "\""
    }
    switch self {
    case .oneOf(let f, let vs) where vs.count == 1: return "\(q(f)) = \(q(vs[0]))"
    case .oneOf(let f, let vs): return "\(q(f)) in (\(vs.map(q).joined(separator: ", ")))"
    case .atLeast(let f, let x): return "\(q(f)) >= \(x)"
    case .atMost(let f, let x): return "\(q(f)) <= \(x)"
    }
  }

  /// The same clause built in code.
  package var filter: PointFilter {
    switch self {
    case .oneOf(let f, let vs): .field(f, in: vs)
    case .atLeast(let f, let x): .field(f, atLeast: x)
    case .atMost(let f, let x): .field(f, atMost: x)
    }
  }

  package var description: String { text() }
}

/// Filters and aggregates worked out from the documented rules alone, point
/// by point, with none of the library's compiled tests: categories compare
/// as strings, numbers as decimal digits, sums in 128 bits. The markers are
/// those of a linear scan clustering the passing points alone, ids mapped
/// back; every index and strategy must give them, and these aggregates.
package enum ReferenceFiltering {
  /// Whether point `i` passes every clause: a missing value fails, a
  /// category compares exact strings, a number compares by value.
  package static func passes(_ i: Int, _ clauses: [ReferenceClause], _ p: ReferenceProperties) -> Bool {
    clauses.allSatisfy { clause in
      switch clause {
      case .oneOf(let f, let values):
        if let column = p.category(f) {
          guard let v = column[i], !v.isEmpty else { return false }
          return values.contains(v)
        }
        guard let (units, scale) = p.number(f), units[i] != .min else { return false }
        return values.contains { compare(units[i], scale, $0) == 0 }
      case .atLeast(let f, let x):
        guard let (units, scale) = p.number(f), units[i] != .min else { return false }
        return compare(units[i], scale, x) >= 0
      case .atMost(let f, let x):
        guard let (units, scale) = p.number(f), units[i] != .min else { return false }
        return compare(units[i], scale, x) <= 0
      }
    }
  }

  /// The markers of the points `passing` (ids into `points`) in `area`: a
  /// linear scan over those points alone, ids mapped back.
  package static func markers(_ points: [Point], passing: [Int], area: VisibleArea) throws -> [ClusterMarker] {
    var scan = try Clusterer<LinearScanIndex>(points: passing.map { points[$0] })
    return scan.markers(for: area).map { m in
      var m = m
      if let id = m.id { m.id = Int32(passing[Int(id)]) }
      return m
    }
  }

  /// The linear scan's answer over the passing points in `area`: its
  /// markers, and each marker's aggregates as printed (``aggregates``).
  package static func answer(
    _ points: [Point], passing: [Int], area: VisibleArea, asked: [ClusterAggregate], _ p: ReferenceProperties
  ) throws -> (markers: [ClusterMarker], aggregates: [String]) {
    let markers = try markers(points, passing: passing, area: area)
    return (markers, aggregates(points, passing: passing, area: area, markers: markers, asked: asked, p))
  }

  /// The aggregates of each of `markers` (in order), in `asked` order: of
  /// the points `passing` shown in `area` in the marker's cell, written with
  /// the column's scale, empty when none has a value.
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  package static func aggregates(
    _ points: [Point], passing: [Int], area: VisibleArea, markers: [ClusterMarker],
    asked: [ClusterAggregate], _ p: ReferenceProperties
  ) -> [String] {
    let zoom = min(WebMercator.zoomRange.upperBound, max(WebMercator.zoomRange.lowerBound, area.zoom))
    let rects = area.isEmpty ? [] : area.rects
    var byCell: [[Int]: [Int]] = [:]  // [column, row]: the points
    for i in passing {
      let q = points[i]
      let shown = q.x >= -180 && q.x <= 180 && WebMercator.latitudeRange.contains(q.y)
      guard shown, rects.contains(where: { $0.contains(q) }) else { continue }
      let cell = ReferenceClustering.cell(of: q, zoom: zoom)
      byCell[[cell.column, cell.row], default: []].append(i)
    }
    var texts: [String] = []
    for m in markers {
      let ids = byCell[[m.key.column, m.key.row]] ?? []
      for a in asked {
        let field: String, kind: String
        switch a {
        case .sum(let f): (field, kind) = (f, "sum")
        case .min(let f): (field, kind) = (f, "min")
        case .max(let f): (field, kind) = (f, "max")
        }
        let (units, scale) = p.number(field)!
        let values = ids.map { units[$0] }.filter { $0 != .min }
        guard !values.isEmpty else {
          texts.append("")
          continue
        }
        let v: Int128 = switch kind {
        case "sum": values.reduce(Int128(0)) { $0 + Int128($1) }
        case "min": Int128(values.min()!)
        default: Int128(values.max()!)
        }
        texts.append(text(v, scale: scale))
      }
    }
    return texts
  }

  /// `v` × 10^-`scale` with `scale` fractional digits, zero without a sign.
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  static func text(_ v: Int128, scale: Int) -> String {
    var digits = String(v.magnitude)
    if digits.count <= scale { digits = String(repeating: "0", count: scale + 1 - digits.count) + digits }
    let sign = v < 0 ? "-" : ""
    return scale == 0 ? sign + digits : sign + digits.dropLast(scale) + "." + digits.suffix(scale)
  }

  /// The sign of `units` × 10^-`scale` − `x` (`x` a decimal's text),
  /// by comparing digits.
  static func compare(_ units: Int64, _ scale: Int, _ x: String) -> Int {
    var text = String(units.magnitude)
    if text.count <= scale { text = String(repeating: "0", count: scale + 1 - text.count) + text }
    let a = Decimal(negative: units < 0, text: scale == 0 ? text : text.dropLast(scale) + "." + text.suffix(scale))
    let b = Decimal(negative: x.hasPrefix("-"), text: x.hasPrefix("-") ? String(x.dropFirst()) : x)
    return a.compare(b)
  }

  /// A decimal as digits: the whole part without leading zeros, the
  /// fraction without trailing zeros.
  struct Decimal {
    var negative: Bool
    var whole: String
    var fraction: String

    init(negative: Bool, text: String) {
      let parts = text.split(separator: ".", omittingEmptySubsequences: false)
      whole = String(parts[0].drop { $0 == "0" })
      var f = parts.count > 1 ? String(parts[1]) : ""
      while f.hasSuffix("0") { f.removeLast() }
      fraction = f
      self.negative = negative && !(whole.isEmpty && fraction.isEmpty)
    }

    /// -1, 0 or 1.
    func compare(_ o: Decimal) -> Int {
      if negative != o.negative { return negative ? -1 : 1 }
      let m: Int
      if whole.count != o.whole.count {
        m = whole.count < o.whole.count ? -1 : 1
      } else if whole != o.whole {
        m = whole < o.whole ? -1 : 1
      } else {
        let n = max(fraction.count, o.fraction.count)
        let a = fraction + String(repeating: "0", count: n - fraction.count)
        let b = o.fraction + String(repeating: "0", count: n - o.fraction.count)
        m = a == b ? 0 : a < b ? -1 : 1
      }
      return negative ? -m : m
    }
  }
}
