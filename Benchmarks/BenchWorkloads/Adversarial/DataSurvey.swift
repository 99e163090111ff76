import BenchFormats
import MapClustering
import SpatialIndexes
import _SeededRandom

/// What the hostile spots are made from: a bounded look at a dataset.
///
/// One pass over the points keeps a seeded sample and, up to a cap each,
/// the points on the antimeridian and those off the Web Mercator map; the
/// sample, sorted, gives the places that hold duplicates. However large the
/// dataset, the survey keeps at most a few thousand points.
public struct DataSurvey: Sendable {
  /// At most ``sampleSize`` points, a uniform sample (all of them when fewer).
  public var sample: [Point]
  /// Points at exactly ±180° longitude, at most ``listSize``.
  public var onAntimeridian: [Point]
  /// Points whose latitude the map does not show, at most ``listSize``.
  public var offMap: [Point]
  /// Places that two or more points of the sample share, at most ``listSize``.
  public var duplicates: [Point]
  /// The points' bounding box; nil for none.
  public var bounds: Rect?
  /// How many points the dataset holds.
  public var count: Int

  /// About how many points lie in `box`, from the sample.
  public func estimatedCount(in box: GeoQuery) -> Double {
    guard !sample.isEmpty else { return 0 }
    let inside = sample.count { box.contains(lat: $0.y, lon: $0.x) }
    return Double(inside) / Double(sample.count) * Double(count)
  }

  public static let sampleSize = 4096
  public static let listSize = 64

  /// Surveys `points`; the sample is seeded by `seed`.
  ///
  /// - Complexity: O(*n*), plus sorting the sample.
  public init(points: [Point], seed: UInt64) {
    count = points.count
    bounds = Rect(bounding: points)
    var g = SplitMix64(seed: seed).fork(7)
    // Reservoir sampling (Vitter's algorithm R): one pass, a uniform sample.
    var sample: [Point] = []
    sample.reserveCapacity(min(points.count, Self.sampleSize))
    var onAntimeridian: [Point] = [], offMap: [Point] = []
    for (i, p) in points.enumerated() {
      if sample.count < Self.sampleSize {
        sample.append(p)
      } else {
        let j = g.nextInt(below: i + 1)
        if j < Self.sampleSize { sample[j] = p }
      }
      if abs(p.x) == 180 && onAntimeridian.count < Self.listSize { onAntimeridian.append(p) }
      if !WebMercator.latitudeRange.contains(p.y) && offMap.count < Self.listSize { offMap.append(p) }
    }
    self.sample = sample
    self.onAntimeridian = onAntimeridian
    self.offMap = offMap
    let sorted = sample.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
    var duplicates: [Point] = []
    for (a, b) in zip(sorted, sorted.dropFirst()) where a == b && duplicates.last != a {
      duplicates.append(a)
      if duplicates.count == Self.listSize { break }
    }
    self.duplicates = duplicates
  }
}
