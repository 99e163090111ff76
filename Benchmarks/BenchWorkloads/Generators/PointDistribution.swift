import SpatialIndexes

/// A seeded point set shape: each case stresses a different weakness of a
/// spatial index.
///
/// Every point comes from ``SplitMix64`` and its own helpers, so the same
/// distribution, count and seed give the same points, in the same order, on
/// every machine. Outputs are always finite, with longitude in [-180, 180] and
/// latitude in [-90, 90].
///
/// ```swift
/// let points = PointDistribution.clustered().points(count: 1_000_000, seed: 42)
/// let hotels = PointDistribution.hotels(around: cities).points(
///   count: PointDistribution.defaultHotelCount, seed: 1)
/// ```
///
/// Each generator draws its layout (blob centres, locations) from one
/// sub-stream of the seed and the points from another, so the layout does not
/// depend on the count: 1,000 and 1,000,000 points of one seed share their blobs.
public enum PointDistribution: Hashable, Sendable {
  /// Uniform over the world box (longitude −180…180, latitude −90…90).
  ///
  /// The easy case and the baseline: every cell of a grid or quadtree gets
  /// about the same load, so it shows an index's best-case speed. About 5.5%
  /// of the points lie beyond the Web Mercator map (|latitude| > 85.05), where
  /// no viewport ever looks: they cost build time and nothing at query time.
  case uniform

  /// Gaussian blobs of varied width, clamped to the world box.
  ///
  /// Dense and empty areas side by side: a fixed grid gets overfull cells next
  /// to empty ones, and adaptive trees (quadtree, k-d tree, R-tree) have to go
  /// deep in the blobs. Each point picks one of `blobs` blobs with equal
  /// probability; blob centres are uniform in longitude −180…180 and latitude
  /// −80…80, and each blob's sigma (in degrees, on both axes) is log-uniform in
  /// `sigma`, so a few blobs are a city wide and a few a country wide.
  /// Defaults: 100 blobs, sigma 0.05°…5°.
  case clustered(blobs: Int = 100, sigma: ClosedRange<Double> = 0.05...5)

  /// The original's case: hotels a few kilometres around real places.
  ///
  /// Each point picks one of `places` with equal probability (the world places
  /// dataset, so density follows where people live) and lies a Gaussian offset
  /// away from it, with sigma `sigmaKilometres` on both axes (kilometres turned
  /// into degrees with ``kilometresPerDegree``; the longitude offset is scaled
  /// by 1/cos(latitude), capped at 1/cos(89°), so the spread is round on the
  /// ground). Latitude is clamped to [-90, 90]; longitude wraps around the
  /// antimeridian into [-180, 180), as hotels near Fiji do. Stresses an index
  /// with realistic, very uneven density: tens of thousands of tight clusters,
  /// most of the world empty. Default sigma 3 km; default count
  /// ``defaultHotelCount``.
  ///
  /// Generating points needs at least one place (a precondition).
  case hotels(around: [Point], sigmaKilometres: Double = 3)

  /// Gaussian blobs whose sizes follow Zipf's law.
  ///
  /// Blob *k* (1-based) gets each point with probability proportional to
  /// 1/*k*^`exponent`, so one blob holds a large share of the data and most
  /// hold very little: a few cells or leaves overflow far more than in
  /// ``clustered(blobs:sigma:)``, which tests bucket splitting and the
  /// worst-case query. All blobs share one sigma (degrees, both axes) so only
  /// the sizes differ; centres as in `clustered`, points clamped to the world.
  /// Defaults: 1,000 blobs, exponent 1 (the largest blob gets about 13% of the
  /// points, the smallest about 0.013%), sigma 0.5°.
  case skewed(blobs: Int = 1000, exponent: Double = 1, sigma: Double = 0.5)

  /// Every point on one of `locations` distinct places (uniform over the world).
  ///
  /// Exact duplicates break indexes that split a full bucket in two: identical
  /// points never separate, so a naive quadtree recurses without end and a
  /// k-d tree median split is degenerate. When the count is at least
  /// `locations`, every location is used: the first `locations` points visit
  /// each once in a random order, the rest pick uniformly. Default 100 locations.
  case duplicates(locations: Int = 100)

  /// Every point on one line: a meridian or the world box's diagonal.
  ///
  /// Zero-area data: the bounding box has zero width (meridian), so a grid
  /// sized from it collapses and a k-d tree splits on one axis only; on the
  /// diagonal every quadtree split cuts the data and R-tree boxes overlap.
  /// Default: the meridian at longitude 13.4 (Berlin).
  case line(LineShape = .meridian(longitude: 13.4))

  /// The line that ``PointDistribution/line(_:)`` puts points on.
  public enum LineShape: Hashable, Sendable {
    /// Longitude fixed, latitude uniform in [-90, 90).
    case meridian(longitude: Double)
    /// From (−180, −90) towards (180, 90): each point has `x == 2 * y` exactly.
    case diagonal
  }

  /// The count of the original's hotel dataset.
  public static let defaultHotelCount = 87_000

  /// Kilometres per degree of latitude on a sphere of the Earth's mean radius
  /// (6,371.0088 km, IUGG): 2πR / 360.
  public static let kilometresPerDegree = 2 * Double.pi * 6_371.0088 / 360

  /// The name the command line uses for this case (see ``catalog``).
  public var name: String {
    switch self {
    case .uniform: "uniform"
    case .clustered: "clustered"
    case .hotels: "hotels"
    case .skewed: "skewed"
    case .duplicates: "duplicates"
    case .line(.diagonal): "diagonal"
    case .line(.meridian): "meridian"
    }
  }
}

// MARK: - Lookup by name

extension PointDistribution {
  /// One row of the ``catalog``: what the command line lists under `--dataset`.
  public struct Entry: Sendable {
    /// The name `--dataset` takes.
    public var name: String
    /// What the points look like and what they stress.
    public var summary: String
    /// The parameters and their defaults, as text.
    public var parameters: String
    /// The case needs the world places dataset (`around places:`).
    public var needsPlaces: Bool
  }

  /// Every distribution the command line offers, with its default parameters.
  public static let catalog: [Entry] = [
    Entry(name: "uniform", summary: "uniform over the world box; the baseline",
          parameters: "none", needsPlaces: false),
    Entry(name: "clustered", summary: "Gaussian blobs of varied width, clamped to the world",
          parameters: "blobs 100, sigma log-uniform 0.05°…5°", needsPlaces: false),
    Entry(name: "hotels", summary: "points a few km around real places (the original's case)",
          parameters: "sigma 3 km, count 87,000 by default; needs the places dataset",
          needsPlaces: true),
    Entry(name: "skewed", summary: "Gaussian blobs with Zipf-distributed sizes",
          parameters: "blobs 1,000, Zipf exponent 1, sigma 0.5°", needsPlaces: false),
    Entry(name: "duplicates", summary: "every point on one of k distinct locations",
          parameters: "k = 100 locations", needsPlaces: false),
    Entry(name: "meridian", summary: "every point on one meridian (zero-width data)",
          parameters: "longitude 13.4°", needsPlaces: false),
    Entry(name: "diagonal", summary: "every point on the world box's diagonal",
          parameters: "from (-180, -90) to (180, 90)", needsPlaces: false),
  ]

  /// Why a name did not give a distribution.
  public enum LookupError: Error, Equatable, CustomStringConvertible {
    case unknownName(String)
    case needsPlaces(String)

    public var description: String {
      switch self {
      case .unknownName(let name):
        "unknown dataset '\(name)'; known: "
          + PointDistribution.catalog.map(\.name).joined(separator: ", ")
      case .needsPlaces(let name):
        "dataset '\(name)' needs the world places dataset, and none was given"
      }
    }
  }

  /// The distribution called `name` in the ``catalog`` (case-insensitive),
  /// with its default parameters; `places` is used by `hotels` only.
  ///
  /// `"line"` is accepted as another name for `meridian`.
  public init(name: String, places: [Point] = []) throws(LookupError) {
    switch name.lowercased() {
    case "uniform": self = .uniform
    case "clustered": self = .clustered()
    case "hotels":
      guard !places.isEmpty else { throw .needsPlaces(name) }
      self = .hotels(around: places)
    case "skewed": self = .skewed()
    case "duplicates": self = .duplicates()
    case "meridian", "line": self = .line()
    case "diagonal": self = .line(.diagonal)
    default: throw .unknownName(name)
    }
  }
}
