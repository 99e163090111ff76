import _SpatialIndexesShims

/// Why a saved index's contents, their checksums correct, are still not an
/// index a build could make: the reason, for ``SavedIndexError/Problem/structureInvalid(_:)``.
package struct SavedStructureProblem: Error {
  package var reason: String
  package init(_ reason: String) { self.reason = reason }
}

enum SavedStructure {
  /// Throws unless `parts`, one after another, hold each of `0..<count`
  /// once (a walk hands ids to callers that index their own arrays with them).
  static func checkPermutation(_ parts: [[Int32]], of count: Int, _ what: String) throws(SavedStructureProblem) {
    let total = parts.reduce(0) { $0 + $1.count }
    guard total == count else { throw .init("\(total) \(what) for \(count) points") }
    var seen = [UInt64](repeating: 0, count: (count + 63) / 64)
    var repeated: Int32? = nil
    seen.withUnsafeMutableBufferPointer { seen in
      let words = seen.count
      for part in parts where repeated == nil {
        repeated = part.withUnsafeBufferPointer { ids in
          // the words are hit at random: each is asked for a few ids
          // ahead, so the cache misses overlap (an id out of range is
          // not asked for, and is reported below)
          let ahead = 16
          for k in 0..<ids.count {
            if k &+ ahead < ids.count {
              let w = Int(UInt32(bitPattern: ids[k &+ ahead]) &>> 6)
              if w < words { _spatialPrefetch(seen.baseAddress! + w) }
            }
            let id = ids[k]
            guard id >= 0, Int(id) < count else { return id }
            let word = Int(id) &>> 6, bit = UInt64(1) &<< UInt64(id & 63)
            if seen[word] & bit != 0 { return id }
            seen[word] |= bit
          }
          return nil
        }
      }
    }
    if let repeated {
      throw .init(repeated < 0 || Int(repeated) >= count
        ? "\(what): id \(repeated) out of range 0..<\(count)" : "\(what): id \(repeated) appears twice")
    }
  }

  /// ``checkPermutation(_:of:_:)`` of one array.
  static func checkPermutation(_ ids: [Int32], of count: Int, _ what: String) throws(SavedStructureProblem) {
    try checkPermutation([ids], of: count, what)
  }

  /// Throws unless every coordinate is finite.
  static func checkFinite(_ coords: _FlatArray<Double>, _ what: String) throws(SavedStructureProblem) {
    let bad = coords.withUnsafeBufferPointer { xy in
      // a sum over the whole array is NaN or infinite when any element is
      // not finite (or when finite ones overflow: then the slow look finds none)
      var sum = 0.0
      for v in xy { sum += v * 0 }
      return !sum.isFinite ? xy.firstIndex(where: { !$0.isFinite }) : nil
    }
    if let bad { throw .init("\(what): coordinate \(bad) is not finite") }
  }

  /// Throws unless `coords` and `ids` are `pointCount` points a build
  /// could have ordered: two coordinates a point, none NaN or infinite,
  /// each id once.
  static func checkPoints(_ coords: _FlatArray<Double>, _ ids: [Int32], pointCount: Int) throws(SavedStructureProblem) {
    guard coords.count == 2 * pointCount else {
      throw .init("\(coords.count) coordinates for \(pointCount) points")
    }
    try checkPermutation(ids, of: pointCount, "ids")
    try checkFinite(coords, "points")
  }

  /// Throws unless the unused parameters (after the first `used`) are zero.
  static func checkUnusedParameters(_ parameters: [UInt32], used: Int) throws(SavedStructureProblem) {
    if let k = parameters.indices.first(where: { $0 >= used && parameters[$0] != 0 }) {
      throw .init("parameter \(k + 1) is \(parameters[k]), unused and so zero")
    }
  }
}

extension SavedFileReader {
  /// Runs `check`, turning its problem into this file's error.
  func structure<R>(_ check: () throws(SavedStructureProblem) -> R) throws(SavedIndexError) -> R {
    do { return try check() } catch { throw self.error(.structureInvalid(error.reason)) }
  }
}
