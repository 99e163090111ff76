import SpatialIndexes
import _SeededRandom

/// Random build parameters for each index of the catalogue, drawn toward
/// the values that stress it: leaves of one point, depth caps of one level,
/// a quadtree's root box exactly the data's (so a move leaves it), grid
/// cells far smaller or larger than the data, any thread count.
///
/// Each key is drawn with even odds (else the default); a set the index
/// refuses for these points (a grid of more than 2^31 columns) falls back to
/// the defaults, so every case builds.
public enum IndexParameterDraws {
  /// Parameters for every index of the catalogue that has any, by name.
  package static func draw(for points: [Point], _ g: inout SplitMix64) -> [String: [ParameterSweep]] {
    var result: [String: [ParameterSweep]] = [:]
    for type in allIndexTypes {
      var sweeps: [ParameterSweep] = []
      for (key, values) in choices(for: type.name, points: points) where g.nextInt(below: 2) == 0 {
        sweeps.append(ParameterSweep(key: key, values: [HostileSpots.pick(values, &g)!]))
      }
      if !sweeps.isEmpty && builds(type.name, sweeps, points) { result[type.name] = sweeps }
    }
    return result
  }

  /// The values drawn from, by key, for the index called `name`.
  static func choices(for name: String, points: [Point]) -> [(String, [String])] {
    let threads = ["1", "2", "3", "4", "auto"]
    switch name {
    case BucketQuadtree.name:
      return [
        ("capacity", ["1", "2", "3", "4", "16", "64"]),
        ("maxDepth", ["1", "2", "3", "5", "\(BucketQuadtree.maxDepthLimit)"]),
        ("bounds", ["data", "world", mapBounds] + [0, 1e-9, 1e-3, 1].compactMap { explicitBounds(points, pad: $0) }),
        ("build", ["bulk", "inserts"]),
        ("threads", threads),
      ]
    case GridHashIndex.name:
      return [
        ("cellSize", ["auto", "1e-7", "0.0001", "0.01", "0.3", "1", "7", "90", "360", "10000"]),
        ("pointsPerCell", ["1", "2", "4", "16"]),
        ("storage", ["auto", "dense", "sparse"]),
        ("threads", threads),
      ]
    case KDTreeIndex.name:
      return [("nodeSize", ["1", "2", "3", "8", "64", "65536"]), ("threads", threads)]
    case HilbertRTree.name:
      return [("nodeSize", ["2", "3", "4", "16", "256"])]
    case CellTree.name:
      return [("leafSize", ["1", "2", "8", "64", "65536"]), ("threads", threads)]
    default:
      return []
    }
  }

  /// The Web Mercator map exactly, as the quadtree's `bounds` text: the
  /// smallest box the live workload accepts, which a point off the map
  /// (a pole, 89°) leaves.
  static var mapBounds: String {
    let m = WebMercator.maxLatitude
    return "-180.0:\(-m):180.0:\(m)"
  }

  /// The data's bounding box widened by `pad` on every side, as the
  /// quadtree's `bounds` text; nil for no points.
  static func explicitBounds(_ points: [Point], pad: Double) -> String? {
    guard let b = Rect(bounding: points) else { return nil }
    return "\(b.minX - pad):\(b.minY - pad):\(b.maxX + pad):\(b.maxY + pad)"
  }

  /// Whether index `name` builds over `points` with `sweeps`.
  static func builds(_ name: String, _ sweeps: [ParameterSweep], _ points: [Point]) -> Bool {
    struct Build: IndexTypeOperation {
      let sweeps: [ParameterSweep]
      let points: [Point]
      func run<I: DescribedIndex>(_ type: I.Type) throws -> Bool {
        _ = try I(points: points, parameters: try parameterSets(I.self, sweeps)[0])
        return true
      }
    }
    var build = Build(sweeps: sweeps, points: points)
    return (try? withIndexType(named: name, &build)) == true
  }
}
