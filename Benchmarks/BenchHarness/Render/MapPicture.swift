import SpatialIndexes
import MapClustering

/// The cluster workload's markers for a viewport, drawn as a standalone SVG
/// 1.1 document in Web Mercator: one panel per viewport (one, or two side by
/// side for a pan), each the size of the screen in points, then caption
/// lines and a legend.
///
/// A panel draws, bottom to top: the map's background, a faint graticule,
/// the world's coastlines (when given: ``Coastlines``, thin, only the part in
/// view), the cell grid (optional), the antimeridian dashed, the area beyond
/// ±85.05° shaded, then the markers: a marker for one point as a small dot, a
/// cluster as a circle whose diameter is ``ClusterMarker/side`` (the original
/// formula), labelled with its count. A screen wider than the world (zoom 0 on
/// a phone) shows the map repeated, as map SDKs do, but each marker once, on
/// the copy centred on the screen (``Viewport/screenPosition(of:)``); the
/// other copies are veiled.
///
/// Elements tests count carry a class: every marker is a `circle` with
/// `class="marker point …"` or `class="marker cluster …"`, the role (`shown`,
/// `kept`, `added`, `removed`) as the class's last word; the clusters' labels
/// are `<text class="count">`, in the clusters' order. Panels are
/// `<g class="panel">` groups, caption and legend `g` of those classes; a
/// panel's coastlines are `<path>` elements in a `<g class="coastlines">`.
/// Text and attributes are escaped as in ``SVGChart``.
///
/// ```swift
/// let picture = MapPicture(
///   title: "places · z3", panels: [.init(viewport: v, markers: markers.map { .init($0) })],
///   cellSize: 88, caption: ["1,234 points in view"], legend: [])
/// let svg = picture.render()
/// ```
public struct MapPicture: Sendable {
  /// What a marker's colour says.
  public enum Role: String, Sendable, CaseIterable {
    /// A marker of a single view.
    case shown
    /// On screen before and after the pan, same cell and count.
    case kept
    /// New after the pan (or its count changed).
    case added
    /// Gone after the pan (or its count changed).
    case removed

    /// Okabe–Ito colours, as ``ChartPalette``: distinct for colour-blind readers.
    public var color: String {
      switch self {
      case .shown, .kept: "#0072b2"
      case .added: "#009e73"
      case .removed: "#d55e00"
      }
    }
  }

  /// A marker and how to colour it.
  public struct PlacedMarker: Sendable, Equatable {
    public var marker: ClusterMarker
    public var role: Role

    public init(_ marker: ClusterMarker, role: Role = .shown) {
      self.marker = marker
      self.role = role
    }
  }

  /// One screen.
  public struct Panel: Sendable {
    /// Text above the panel (`before`, `after …`); empty for none.
    public var heading: String
    public var viewport: Viewport
    public var markers: [PlacedMarker]
    /// Where the other panel's screen lies on this one, in points (its top
    /// left corner), drawn as a dashed outline: the screen before a pan.
    public var outline: ScreenPosition?

    public init(
      heading: String = "", viewport: Viewport, markers: [PlacedMarker],
      outline: ScreenPosition? = nil
    ) {
      self.heading = heading
      self.viewport = viewport
      self.markers = markers
      self.outline = outline
    }
  }

  /// One legend entry: a swatch and its text.
  public struct LegendEntry: Sendable, Equatable {
    public enum Swatch: Sendable, Equatable {
      case cluster(Role)
      case point(Role)
      case cellGrid
      case outline
      case coastline
    }

    public var swatch: Swatch
    public var label: String

    public init(_ swatch: Swatch, _ label: String) {
      self.swatch = swatch
      self.label = label
    }
  }

  public var title: String
  public var panels: [Panel]
  /// The side of a clustering cell at the panels' zoom, in points; the grid
  /// is drawn when set.
  public var cellSize: Double?
  /// Lines of text under the panels.
  public var caption: [String]
  public var legend: [LegendEntry]
  /// Drawn under the markers of every panel; none without.
  public var coastlines: Coastlines?

  public init(
    title: String, panels: [Panel], cellSize: Double? = nil, caption: [String] = [],
    legend: [LegendEntry] = [], coastlines: Coastlines? = nil
  ) {
    self.title = title
    self.panels = panels
    self.cellSize = cellSize
    self.caption = caption
    self.legend = legend
    self.coastlines = coastlines
  }

  /// `render-<dataset>-z<zoom>.svg`, `-pan` before `.svg` for a pan, unsafe
  /// characters as `-` (as ``ReportPlots`` names its charts); a points
  /// file's name without its folders (`render-paris.csv-z12.svg`).
  public static func defaultFileName(dataset: String, zoom: Int, panned: Bool) -> String {
    let name = dataset.split(separator: "/").last.map(String.init) ?? dataset
    return ReportPlots.fileName(["render", name, "z\(zoom)", panned ? "pan" : ""])
  }

  // MARK: - Layout

  static let margin = 20.0
  static let gap = 20.0
  /// Narrower documents get side margins, so the caption fits.
  static let minimumWidth = 460.0

  /// Title, caption and legend grow with the document past this width, so
  /// they stay legible when the picture is shown 800 pixels wide.
  static let textReferenceWidth = 840.0

  /// The whole SVG document.
  ///
  /// - Complexity: O(markers + grid lines + graticule lines + coastline vertices in view).
  public func render() -> String {
    let screenWidth = panels.map(\.viewport.width).max() ?? 0
    let screenHeight = panels.map(\.viewport.height).max() ?? 0
    let count = Double(panels.count)
    let content = count * screenWidth + max(0, count - 1) * Self.gap
    let width = max(content + 2 * Self.margin, Self.minimumWidth).rounded(.up)
    let t = max(1, width / Self.textReferenceWidth)  // text scale
    let hasHeadings = panels.contains { !$0.heading.isEmpty }
    let titleY = Self.margin + 16 * t
    let headingY = titleY + 24 * t
    let panelTop = (hasHeadings ? headingY : titleY) + 12 * t
    let captionTop = panelTop + screenHeight + 24 * t
    let lineHeight = 18 * t
    let legendLayout = legendRows(width: width, scale: t)
    let legendTop = captionTop + Double(caption.count) * lineHeight + 6 * t
    let bottom =
      legendLayout.isEmpty
      ? captionTop + Double(max(0, caption.count - 1)) * lineHeight
      : legendTop + Double(legendLayout.count - 1) * Self.legendRowHeight * t
    let height = (bottom + 6 * t + Self.margin).rounded(.up)

    var svg = SVGWriter()
    svg.open(
      "svg",
      [
        ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"), ("width", fmt(width)),
        ("height", fmt(height)), ("viewBox", "0 0 \(fmt(width)) \(fmt(height))"),
        ("font-family", "sans-serif"), ("font-size", "12"),
      ])
    svg.element(
      "rect",
      [("x", "0"), ("y", "0"), ("width", fmt(width)), ("height", fmt(height)), ("fill", "white")])
    svg.text(
      title, x: Self.margin, y: titleY,
      attributes: [("font-size", fmt(16 * t)), ("font-weight", "bold")])

    let left = (width - content) / 2
    for (i, panel) in panels.enumerated() {
      let x = left + Double(i) * (screenWidth + Self.gap)
      if !panel.heading.isEmpty {
        svg.text(
          panel.heading, x: x, y: headingY,
          attributes: [("font-size", fmt(13 * t)), ("font-weight", "bold"), ("fill", "#333333")])
      }
      drawPanel(panel, number: i, x: x, y: panelTop, into: &svg)
    }

    svg.open("g", [("class", "caption"), ("font-size", fmt(12.5 * t)), ("fill", "#222222")])
    for (i, line) in caption.enumerated() {
      svg.text(line, x: Self.margin, y: captionTop + Double(i) * lineHeight)
    }
    svg.close("g")
    if !legendLayout.isEmpty { drawLegend(legendLayout, top: legendTop, scale: t, into: &svg) }
    svg.close("svg")
    return svg.output
  }

  /// One screen at (`x`, `y`): clipped to its rectangle, framed.
  private func drawPanel(
    _ panel: Panel, number: Int, x: Double, y: Double, into svg: inout SVGWriter
  ) {
    let v = panel.viewport
    let clip = "panel-clip-\(number)"
    svg.open("defs", [])
    svg.open("clipPath", [("id", clip)])
    svg.element(
      "rect", [("x", "0"), ("y", "0"), ("width", fmt(v.width)), ("height", fmt(v.height))])
    svg.close("clipPath")
    svg.close("defs")
    svg.open("g", [("class", "panel"), ("transform", "translate(\(fmt(x)) \(fmt(y)))")])
    svg.open("g", [("clip-path", "url(#\(clip))")])
    drawBackground(v, into: &svg)
    if let o = panel.outline {
      svg.element(
        "rect",
        [
          ("class", "outline"), ("x", fmt(o.x)), ("y", fmt(o.y)), ("width", fmt(v.width)),
          ("height", fmt(v.height)), ("fill", "none"), ("stroke", "#555555"),
          ("stroke-width", "1.5"), ("stroke-dasharray", "6 4"),
        ])
    }
    drawMarkers(panel.markers, in: v, into: &svg)
    svg.close("g")
    svg.element(
      "rect",
      [
        ("x", "0"), ("y", "0"), ("width", fmt(v.width)), ("height", fmt(v.height)),
        ("fill", "none"), ("stroke", "#888888"), ("stroke-width", "1"),
      ])
    svg.close("g")
  }
}
