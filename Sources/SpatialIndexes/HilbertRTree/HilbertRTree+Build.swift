extension HilbertRTree {
  /// Keys every point by its Hilbert value, sorts the keys, copies the
  /// points in that order and computes the boxes level by level. The first
  /// pass also checks that the points are finite: false, and nothing built,
  /// when one is not.
  mutating func build(_ points: [Point]) -> Bool {
    let n = points.count
    guard let bounds = Rect(bounding: points) else { return true }
    guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite,
          points.allSatisfy({ $0.isFinite }) else { return false }
    let order = Self.hilbertOrder(points, bounds: bounds)
    var xy = [Double](repeating: 0, count: 2 * n)
    var sortedIDs = [Int32](repeating: 0, count: n)
    xy.withUnsafeMutableBufferPointer { xy in
      sortedIDs.withUnsafeMutableBufferPointer { out in
        for (k, id) in order.enumerated() {
          let p = points[Int(id)]
          xy[2 &* k] = p.x
          xy[2 &* k &+ 1] = p.y
          out[k] = id
        }
      }
    }
    coords = _FlatArray(xy)
    ids = sortedIDs
    packBoxes()
    return true
  }

  /// The ids in Hilbert order of their points, ties by id: keys of 32 bits
  /// (16 a coordinate over `bounds`) above the id in one 64-bit word, sorted
  /// by an LSD radix sort of the key's four bytes (stable, so ids stay in
  /// order within a key; a byte every key shares is skipped).
  static func hilbertOrder(_ points: [Point], bounds: Rect) -> [Int32] {
    let n = points.count
    let sx = bounds.width > 0 ? 65535 / bounds.width : 0
    let sy = bounds.height > 0 ? 65535 / bounds.height : 0
    var words = [UInt64](repeating: 0, count: n)
    var histogram = [Int](repeating: 0, count: 4 * 256)
    for (i, p) in points.enumerated() {
      // in 0...65535: the offset over the width is at most 1 (rounding
      // can not push it past, and min guards it anyway)
      let x = UInt32(min(65535, max(0, ((p.x - bounds.minX) * sx).rounded(.down))))
      let y = UInt32(min(65535, max(0, ((p.y - bounds.minY) * sy).rounded(.down))))
      let h = hilbertValue(x: x, y: y)
      words[i] = UInt64(h) << 32 | UInt64(i)
      for b in 0..<4 { histogram[b &* 256 &+ Int((h >> (8 &* UInt32(b))) & 255)] &+= 1 }
    }
    var other = [UInt64](repeating: 0, count: n)
    for b in 0..<4 where !histogram[(b * 256)..<(b * 256 + 256)].contains(n) {
      var offsets = [Int](repeating: 0, count: 256)
      var sum = 0
      for v in 0..<256 {
        offsets[v] = sum
        sum += histogram[b * 256 + v]
      }
      let shift = UInt64(32 + 8 * b)
      words.withUnsafeBufferPointer { from in
        other.withUnsafeMutableBufferPointer { to in
          for w in from {
            let v = Int((w >> shift) & 255)
            to[offsets[v]] = w
            offsets[v] &+= 1
          }
        }
      }
      swap(&words, &other)
    }
    return words.map { Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
  }

  /// The position of cell (`x`, `y`) of a 2^16 × 2^16 grid along the Hilbert
  /// curve that fills it. From the top bit down, each bit pair picks one of
  /// four quadrants, in the curve's order for the current orientation; the
  /// lower bits are then turned into that quadrant's own orientation (a
  /// transpose, and a reflection in two of the four), without branches.
  @inline(__always)
  package static func hilbertValue(x: UInt32, y: UInt32) -> UInt32 {
    var x = x, y = y, d: UInt32 = 0
    var bit: UInt32 = 15
    while true {
      let rx = (x >> bit) & 1, ry = (y >> bit) & 1
      d |= ((3 &* rx) ^ ry) << (2 &* bit)
      let low: UInt32 = (1 << bit) &- 1
      let reflect = (0 &- (rx & (ry ^ 1))) & low  // all ones when rx = 1, ry = 0
      x ^= reflect
      y ^= reflect
      let transpose = (0 &- (ry ^ 1)) & (x ^ y)  // swap when ry = 0
      x ^= transpose
      y ^= transpose
      if bit == 0 { return d }
      bit &-= 1
    }
  }

  /// The leaves' boxes from their points, then each level's from the one
  /// below, until one node is left.
  mutating func packBoxes() {
    let n = ids.count
    let s = parameters.nodeSize
    var starts = [0]
    var spanList: [Int] = []
    var nodes = (n + s - 1) / s
    var total = 0
    var span = s
    while true {
      total += nodes
      starts.append(total)
      spanList.append(min(span, n))
      if nodes == 1 { break }
      nodes = (nodes + s - 1) / s
      span = span > n / s ? n : span * s  // capped: no overflow
    }
    var out = [Double](repeating: 0, count: 4 * total)
    coords.withUnsafeBufferPointer { xy in
      out.withUnsafeMutableBufferPointer { out in
        for leaf in 0..<starts[1] {
          var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
          for i in (leaf * s)..<min(n, leaf * s + s) {
            minX = min(minX, xy[2 &* i]); maxX = max(maxX, xy[2 &* i])
            minY = min(minY, xy[2 &* i &+ 1]); maxY = max(maxY, xy[2 &* i &+ 1])
          }
          out[4 &* leaf] = minX; out[4 &* leaf &+ 1] = minY
          out[4 &* leaf &+ 2] = maxX; out[4 &* leaf &+ 3] = maxY
        }
        for level in 1..<(starts.count - 1) {
          let below = starts[level - 1], belowCount = starts[level] - below
          for j in 0..<(starts[level + 1] - starts[level]) {
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for c in (j * s)..<min(belowCount, j * s + s) {
              let b = 4 &* (below &+ c)
              minX = min(minX, out[b]); minY = min(minY, out[b &+ 1])
              maxX = max(maxX, out[b &+ 2]); maxY = max(maxY, out[b &+ 3])
            }
            let o = 4 &* (starts[level] &+ j)
            out[o] = minX; out[o &+ 1] = minY; out[o &+ 2] = maxX; out[o &+ 3] = maxY
          }
        }
      }
    }
    boxes = out
    levelStarts = starts
    spans = spanList
  }
}
