import SpatialIndexes

/// What about a dataset changes the answer or surprises a map: exact
/// duplicates (markers that never split, taps with ties), points beyond Web
/// Mercator's latitude range (drawn on its edge), and an extent so small or
/// so wide that the session's zooms say little about the app's.
public enum DataWarnings {
  /// An extent narrower than this (degrees, both ways) is one street: about
  /// 100 m, a zoom-17 screen.
  public static let tinyExtent = 0.001

  /// The warnings for `points`, one line each; none for clean data.
  public static func check(_ points: [Point]) -> [String] {
    guard !points.isEmpty else { return ["no points: every answer is empty"] }
    var warnings: [String] = []
    let duplicates = DuplicateCount.of(points)
    var outside = 0
    var minY = Double.infinity, maxY = -Double.infinity
    for p in points {
      if abs(p.y) > WebMercator.maxLatitude { outside += 1 }
      minY = min(minY, p.y); maxY = max(maxY, p.y)
    }
    // at a pole every longitude is the same place
    let lonSpan = longitudeSpan(points.lazy.filter { abs($0.y) < 90 }.map(\.x))
    if duplicates > 0 {
      warnings.append(
        "\(duplicates) points (\(share(duplicates, points.count))) repeat an earlier point exactly: "
          + "their marker never splits, and a tap there has ties (the point earlier in the file wins)")
    }
    if outside > 0 {
      warnings.append(
        "\(outside) points (\(share(outside, points.count))) lie beyond the Web Mercator latitude "
          + "±85.0511°: the map draws them on its top or bottom edge")
    }
    if lonSpan < tinyExtent && maxY - minY < tinyExtent {
      warnings.append(
        "the points span less than \(tinyExtent)° each way (about 100 m): below zoom 17 they are one marker")
    } else if lonSpan > 180 {
      warnings.append(
        String(format: "the points span %.0f° of longitude: a world-wide map, whose low zooms have every point in view", lonSpan))
    }
    return warnings
  }

  /// The narrowest band of longitudes, going east, that holds every one of
  /// `longitudes`: 360° less the widest gap between neighbours around the
  /// circle, where -180° and +180° are one meridian. 0 for none.
  ///
  /// Neighbours are found in one pass over 360 one-degree buckets (each
  /// keeps its least and greatest longitude): a gap of 1° or more spans
  /// buckets and is measured exactly; smaller gaps inside a bucket are not
  /// seen, which matters only when every gap is under 1° (a span over 359°).
  ///
  /// - Complexity: O(*n*).
  static func longitudeSpan<S: Sequence<Double>>(_ longitudes: S) -> Double {
    var low = [Double](repeating: .infinity, count: 360)
    var high = [Double](repeating: -.infinity, count: 360)
    for lon in longitudes {
      let x = lon >= 180 ? lon - 360 : lon  // +180° is -180°
      let b = min(359, max(0, Int((x + 180).rounded(.down))))
      low[b] = min(low[b], x)
      high[b] = max(high[b], x)
    }
    let filled = (0..<360).filter { low[$0] <= high[$0] }
    guard let first = filled.first, let last = filled.last else { return 0 }
    var widestGap = low[first] + 360 - high[last]  // across the antimeridian
    for (a, b) in zip(filled, filled.dropFirst()) { widestGap = max(widestGap, low[b] - high[a]) }
    return 360 - widestGap
  }

  static func share(_ part: Int, _ whole: Int) -> String {
    let p = Double(part) / Double(whole) * 100
    return p < 0.1 ? "<0.1%" : String(format: "%.1f%%", p)
  }
}
