import MapClustering

// The markers and the legend.

extension MapPicture {
  /// Radius of the dot for a marker of one point.
  static let pointRadius = 3.5

  /// Dots first, then the clusters' circles, then their counts, so no dot
  /// hides a circle and no circle hides a count (circles of neighbouring
  /// cells can overlap: a marker sits at its points' mean, which may lie
  /// near its cell's edge). Each layer in the clusterer's order.
  func drawMarkers(_ markers: [PlacedMarker], in v: Viewport, into svg: inout SVGWriter) {
    svg.open("g", [("class", "markers")])
    for m in markers where m.marker.count == 1 {
      let p = v.screenPosition(of: m.marker.coordinate)
      svg.element("circle", Self.dot(x: p.x, y: p.y, m.role))
    }
    let clusters = markers.filter { $0.marker.count != 1 }
    let positions = clusters.map { v.screenPosition(of: $0.marker.coordinate) }
    for (m, p) in zip(clusters, positions) {
      svg.element("circle", Self.disc(x: p.x, y: p.y, side: Double(m.marker.side), m.role))
    }
    for (m, p) in zip(clusters, positions) {
      let label = String(m.marker.count)
      let size = Self.labelSize(label, side: Double(m.marker.side))
      svg.text(
        label, x: p.x, y: p.y + 0.36 * size,
        attributes: [
          ("class", "count"), ("text-anchor", "middle"), ("font-size", fmt(size)),
          ("font-weight", "bold"), ("fill", "white"),
        ])
    }
    svg.close("g")
  }

  static func dot(
    x: Double, y: Double, _ role: Role, class name: String? = nil
  ) -> [(String, String)] {
    [
      ("class", name ?? "marker point \(role.rawValue)"), ("cx", fmt(x)), ("cy", fmt(y)),
      ("r", fmt(pointRadius)), ("fill", role.color), ("stroke", "white"), ("stroke-width", "1"),
    ]
  }

  static func disc(
    x: Double, y: Double, side: Double, _ role: Role, class name: String? = nil
  ) -> [(String, String)] {
    [
      ("class", name ?? "marker cluster \(role.rawValue)"), ("cx", fmt(x)), ("cy", fmt(y)),
      ("r", fmt(side / 2)), ("fill", role.color), ("fill-opacity", "0.88"), ("stroke", "white"),
      ("stroke-width", "1.5"),
    ]
  }

  /// At most 12 points, smaller for long counts so the label fits the circle.
  static func labelSize(_ label: String, side: Double) -> Double {
    min(12, (side - 5) / (0.62 * Double(max(1, label.count))))
  }

  // MARK: - Legend

  /// The legend's entries in rows that fit `width`, with each entry's x.
  func legendRows(width: Double, scale t: Double) -> [[(entry: LegendEntry, x: Double)]] {
    var rows: [[(entry: LegendEntry, x: Double)]] = [[]]
    var x = Self.margin
    for entry in legend {
      // 12.5-point sans-serif averages about 6 points a character
      let w = (30 + 6.4 * Double(entry.label.count)) * t
      if x + w > width - Self.margin && !rows[rows.count - 1].isEmpty {
        rows.append([])
        x = Self.margin
      }
      rows[rows.count - 1].append((entry, x))
      x += w + 14 * t
    }
    return legend.isEmpty ? [] : rows
  }

  func drawLegend(
    _ rows: [[(entry: LegendEntry, x: Double)]], top: Double, scale t: Double,
    into svg: inout SVGWriter
  ) {
    svg.open("g", [("class", "legend"), ("font-size", fmt(12.5 * t)), ("fill", "#222222")])
    for (i, row) in rows.enumerated() {
      let y = top + Double(i) * Self.legendRowHeight * t
      for (entry, x) in row {
        let cx = x + 9 * t
        let cy = y - 4 * t
        switch entry.swatch {
        case .cluster(let role):
          svg.element("circle", Self.disc(x: cx, y: cy, side: 18 * t, role, class: "swatch"))
        case .point(let role):
          svg.element("circle", Self.dot(x: cx, y: cy, role, class: "swatch"))
        case .cellGrid:
          svg.element(
            "rect",
            [
              ("class", "swatch"), ("x", fmt(x)), ("y", fmt(cy - 9 * t)), ("width", fmt(18 * t)),
              ("height", fmt(18 * t)), ("fill", Self.paper), ("stroke", Self.gridColor),
              ("stroke-opacity", "0.6"), ("stroke-width", "1"), ("stroke-dasharray", "4 3"),
            ])
        case .coastline:
          svg.element(
            "path",
            [
              ("class", "swatch"),
              // a short wavy line
              (
                "d",
                "M\(fmt(x)) \(fmt(cy + 3 * t)) "
                  + "q\(fmt(6 * t)) \(fmt(-9 * t)) \(fmt(18 * t)) \(fmt(-6 * t))"
              ),
              ("fill", "none"), ("stroke", Self.coastColor), ("stroke-width", fmt(1.2 * t)),
            ])
        case .outline:
          svg.element(
            "rect",
            [
              ("class", "swatch"), ("x", fmt(x)), ("y", fmt(cy - 7 * t)), ("width", fmt(18 * t)),
              ("height", fmt(14 * t)), ("fill", "none"), ("stroke", "#555555"),
              ("stroke-width", "1.5"), ("stroke-dasharray", "4 3"),
            ])
        }
        svg.text(entry.label, x: x + 26 * t, y: y)
      }
    }
    svg.close("g")
  }

  static let legendRowHeight = 24.0
}
