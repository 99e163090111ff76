/// Why an index could not be built or changed. Thrown, never a crash.
public enum IndexError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A parameter value that makes no sense (capacity 0, a NaN cell size…).
  case invalidParameter(name: String, value: String, reason: String)
  /// A parameter name the index does not have.
  case unknownParameter(name: String, known: [String])
  /// A point with a NaN or infinite coordinate.
  case nonFinitePoint(id: Int, point: Point)
  /// A point outside the fixed bounds of an index (the quadtree's).
  case pointOutsideBounds(id: Int, point: Point, bounds: Rect)
  /// More points than 32-bit ids can name.
  case tooManyPoints(count: Int, limit: Int)

  /// The error as a sentence that names the value at fault.
  public var description: String {
    switch self {
    case let .invalidParameter(name, value, reason):
      return "parameter \(name)=\(value): \(reason)"
    case let .unknownParameter(name, known):
      let list = known.isEmpty ? "it takes no parameters" : "known: \(known.joined(separator: ", "))"
      return "unknown parameter \"\(name)\" (\(list))"
    case let .nonFinitePoint(id, point):
      return "point \(id) \(point) has a non-finite coordinate"
    case let .pointOutsideBounds(id, point, bounds):
      return "point \(id) \(point) lies outside the index bounds \(bounds)"
    case let .tooManyPoints(count, limit):
      return "\(count) points exceed the limit of \(limit) (32-bit ids)"
    }
  }
}

/// The largest number of points an index holds: ids are `Int32`.
package let maximumPointCount = Int(Int32.max)

/// Throws unless every point is finite and the count fits 32-bit ids.
func validate(_ points: [Point]) throws(IndexError) {
  guard points.count <= maximumPointCount else {
    throw .tooManyPoints(count: points.count, limit: maximumPointCount)
  }
  for (i, p) in points.enumerated() where !p.isFinite {
    throw .nonFinitePoint(id: i, point: p)
  }
}
