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
    var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
    for p in points {
      if abs(p.y) > WebMercator.maxLatitude { outside += 1 }
      minX = min(minX, p.x); maxX = max(maxX, p.x)
      minY = min(minY, p.y); maxY = max(maxY, p.y)
    }
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
    if maxX - minX < tinyExtent && maxY - minY < tinyExtent {
      warnings.append(
        "the points span less than \(tinyExtent)° each way (about 100 m): below zoom 17 they are one marker")
    } else if maxX - minX > 180 {
      warnings.append(
        String(format: "the points span %.0f° of longitude: a world-wide map, whose low zooms have every point in view", maxX - minX))
    }
    return warnings
  }

  static func share(_ part: Int, _ whole: Int) -> String {
    let p = Double(part) / Double(whole) * 100
    return p < 0.1 ? "<0.1%" : String(format: "%.1f%%", p)
  }
}
