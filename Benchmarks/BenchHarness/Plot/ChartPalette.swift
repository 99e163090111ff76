import SpatialIndexes

/// One colour per index name, the same in every chart of a run.
///
/// The catalogue's indexes (``allIndexTypes``) take the colours in its
/// order (`linear` first, a neutral grey, as it is the reference), so a new
/// index gets one with its registry line; any other name (a database
/// engine's rows, an index of a test) takes the next colour after them in
/// sorted-name order, so it too keeps one colour across the charts made
/// from one set of reports. Colours are from the Okabe–Ito set, which stays
/// distinct for colour-blind readers, then three more.
public struct ChartPalette: Sendable, Equatable {
  /// Index names with a fixed colour, in legend order: the catalogue's.
  public static let knownIndexes = allIndexTypes.map { $0.name }
  static let colors = [
    "#7f7f7f", "#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#000000", "#8c564b", "#9467bd",
  ]

  private var others: [String]

  /// A palette for the index names in `indexes` (order and repeats do not matter).
  public init(indexes: some Sequence<String>) {
    others = Set(indexes).subtracting(Self.knownIndexes).sorted()
  }

  /// The colour of `index`, as `#rrggbb`.
  public func color(for index: String) -> String {
    let i = Self.knownIndexes.firstIndex(of: index) ?? Self.knownIndexes.count + (others.firstIndex(of: index) ?? others.count)
    return Self.colors[i % Self.colors.count]
  }

  /// Orders index names the way legends list them: the known ones first, in
  /// `knownIndexes` order, then the others by name.
  public static func precedes(_ a: String, _ b: String) -> Bool {
    let ra = knownIndexes.firstIndex(of: a) ?? knownIndexes.count
    let rb = knownIndexes.firstIndex(of: b) ?? knownIndexes.count
    return ra != rb ? ra < rb : a < b
  }
}
