/// One colour per index name, the same in every chart of a run.
///
/// The four bundled indexes have fixed colours (`linear` a neutral grey, as
/// it is the reference); any other name takes the next colour of a second
/// list in sorted-name order, so it too keeps one colour across the charts
/// made from one set of reports. Colours are from the Okabe–Ito set, which
/// stays distinct for colour-blind readers.
public struct ChartPalette: Sendable, Equatable {
  /// Index names with a fixed colour, in legend order.
  public static let knownIndexes = ["linear", "quadtree", "grid", "kdtree"]
  static let knownColors = ["#7f7f7f", "#0072b2", "#e69f00", "#009e73"]
  static let otherColors = ["#cc79a7", "#d55e00", "#56b4e9", "#000000", "#8c564b", "#9467bd"]

  private var others: [String]

  /// A palette for the index names in `indexes` (order and repeats do not matter).
  public init(indexes: some Sequence<String>) {
    others = Set(indexes).subtracting(Self.knownIndexes).sorted()
  }

  /// The colour of `index`, as `#rrggbb`.
  public func color(for index: String) -> String {
    if let i = Self.knownIndexes.firstIndex(of: index) { return Self.knownColors[i] }
    let i = others.firstIndex(of: index) ?? others.count
    return Self.otherColors[i % Self.otherColors.count]
  }

  /// Orders index names the way legends list them: the known ones first, in
  /// `knownIndexes` order, then the others by name.
  public static func precedes(_ a: String, _ b: String) -> Bool {
    let ra = knownIndexes.firstIndex(of: a) ?? knownIndexes.count
    let rb = knownIndexes.firstIndex(of: b) ?? knownIndexes.count
    return ra != rb ? ra < rb : a < b
  }
}
