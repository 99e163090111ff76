import SpatialIndexes

/// How many points equal an earlier one (``DataWarnings``), counted in an
/// open-addressing table of point numbers, each with a 32-bit fingerprint
/// of its coordinates: 8 bytes a slot, at most three quarters full, so 11
/// to 21 bytes a point. A `Set<Point>` held about 27, and its hashing was
/// 40% of a 10M-point `bench run --workload build` (the page's warnings).
/// The slots of a block of points are asked for before they are probed,
/// and a point's coordinates are read only when a fingerprint matches.
enum DuplicateCount {
  static func of(_ points: [Point]) -> Int {
    let n = points.count
    guard n > 1 else { return 0 }
    var capacity = 16
    while capacity < n + n / 3 { capacity <<= 1 }
    let mask = UInt64(capacity - 1)
    // 0 is empty; else the fingerprint above the point's number plus one
    var table = [UInt64](repeating: 0, count: capacity)
    var duplicates = 0
    let block = 16
    table.withUnsafeMutableBufferPointer { table in
      points.withUnsafeBufferPointer { points in
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: block) { hashes in
          var start = 0
          while start < n {
            let end = min(n, start + block)
            for i in start..<end {
              let h = hash(points[i])
              hashes[i - start] = h
              _prefetchLine(table.baseAddress! + Int(h & mask))
            }
            for i in start..<end {
              let h = hashes[i - start], fingerprint = h >> 32
              var slot = Int(h & mask)
              while true {
                let entry = table[slot]
                if entry == 0 {
                  table[slot] = fingerprint << 32 | UInt64(i + 1)
                  break
                }
                if entry >> 32 == fingerprint && points[Int(entry & 0xFFFF_FFFF) - 1] == points[i] {
                  duplicates += 1
                  break
                }
                slot = (slot + 1) & Int(mask)
              }
            }
            start = end
          }
        }
      }
    }
    return duplicates
  }

  /// A 64-bit hash of the point's coordinates; −0 hashes as 0, which it
  /// equals. The finaliser of SplitMix64 spreads the bits.
  @inline(__always)
  static func hash(_ p: Point) -> UInt64 {
    let x = (p.x + 0).bitPattern, y = (p.y + 0).bitPattern
    var z = x &* 0x9E37_79B9_7F4A_7C15 ^ (y << 32 | y >> 32)
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
