import _SpatialIndexesShims

extension CellTree {
  /// Splits off the points a map never shows, codes the others by their
  /// deepest cell, sorts them by Morton code (a stable radix sort, so equal
  /// codes keep their id order and every build is the same), then cuts the
  /// sorted run into nodes, depth first.
  mutating func build(_ points: [Point]) throws(IndexError) {
    // Usually every point is on the map: then the points are used as given,
    // and the sorted order is the ids.
    var source = points
    var sourceIDs: [Int32] = []
    if !points.allSatisfy(Self.isOnMap) {
      var off: [Point] = []
      source = []
      source.reserveCapacity(points.count)
      for (i, p) in points.enumerated() {
        if Self.isOnMap(p) {
          source.append(p)
          sourceIDs.append(Int32(truncatingIfNeeded: i))
        } else {
          off.append(p)
          offMapIDs.append(Int32(truncatingIfNeeded: i))
        }
      }
      offMap = try KDTreeIndex(points: off)
    }

    let n = source.count
    // One pass projects each point (log and tan: the build's largest cost)
    // and codes it, in chunks on every core; the sort then permutes indexes.
    var projected = [Double](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
    var keys = [UInt64](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
    source.withUnsafeBufferPointer { source in
      projected.withUnsafeMutableBufferPointer { projected in
        keys.withUnsafeMutableBufferPointer { keys in
          let scale = WebMercator.scale(zoom: 23), inverse = 1.0 / 11
          _forEachChunk(of: n, threads: parameters.resolvedThreads) { chunk in
            for k in chunk {
              let p = source[k]
              let y = WebMercator.y(latitude: p.y)
              projected[k] = y
              let cx = MapCells.index(
                WebMercator.x(longitude: p.x), scale: scale, cellSize: 11, inverse: inverse)
              let cy = MapCells.index(y, scale: scale, cellSize: 11, inverse: inverse)
              keys[k] = Self.morton(UInt64(truncatingIfNeeded: cx), UInt64(truncatingIfNeeded: cy))
            }
          }
        }
      }
    }
    var order = [Int32](unsafeUninitializedCapacity: n) { order, initialized in
      for k in 0..<n { order[k] = Int32(truncatingIfNeeded: k) }
      initialized = n
    }
    // The gather's outputs, made before the sort so that it can use them as
    // scratch: fresh memory costs its page faults (about 75 ms for the 120 MB
    // the sort would take at 10M points), paid once this way.
    var outY = [Double](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
    var out = [Double](unsafeUninitializedCapacity: 2 * n) { _, initialized in initialized = 2 * n }
    if n > 1 {
      outY.withUnsafeMutableBufferPointer { y in
        out.withUnsafeMutableBufferPointer { c in
          y.withMemoryRebound(to: UInt64.self) { scratchKeys in
            c.withMemoryRebound(to: Int32.self) { scratchValues in
              Self.radixSort(
                &keys, &order, scratchKeys: scratchKeys.baseAddress!, scratchValues: scratchValues.baseAddress!,
                threads: parameters.resolvedThreads)
            }
          }
        }
      }
    }

    // The gather reads points in code order, at random in memory: each read
    // is prefetched a few ahead so the misses overlap (measured: most of
    // the build waited on them), in chunks on every core.
    source.withUnsafeBufferPointer { source in
      projected.withUnsafeBufferPointer { projected in
        order.withUnsafeBufferPointer { order in
          outY.withUnsafeMutableBufferPointer { outY in
            out.withUnsafeMutableBufferPointer { out in
              _forEachChunk(of: n, threads: parameters.resolvedThreads) { chunk in
                let ahead = 32
                for k in chunk {
                  if k &+ ahead < chunk.upperBound {
                    let j = Int(order[k &+ ahead])
                    _spatialPrefetch(source.baseAddress! + j)
                    _spatialPrefetch(projected.baseAddress! + j)
                  }
                  let j = Int(order[k])
                  let p = source[j]
                  out[2 &* k] = p.x
                  out[2 &* k &+ 1] = p.y
                  outY[k] = projected[j]
                }
              }
            }
          }
        }
      }
    }
    coords = out
    mapY = outY
    ids = sourceIDs.isEmpty ? order : order.map { sourceIDs[Int($0)] }
    nodes = n == 0 ? [] : Self.nodes(keys: keys, coords: coords, leafSize: parameters.leafSize, threads: parameters.resolvedThreads)
  }

  /// The nodes over `keys` (sorted), depth first: each node's children are
  /// made when it is split, side by side, so a node's subtree follows it.
  static func nodes(keys: [UInt64], coords: [Double], leafSize: Int, threads: Int) -> [_CellNode] {
    var nodes = [_CellNode(start: 0, count: Int32(truncatingIfNeeded: keys.count))]
    nodes.reserveCapacity(nodeCount(keys, leafSize: leafSize))
    var stack: [(node: Int, depth: Int)] = [(0, 0)]
    while let (i, depth) = stack.popLast() {
      let start = Int(nodes[i].start), end = start + Int(nodes[i].count)
      if end - start <= leafSize || depth == maxDepth { continue }
      var bounds = quadrants(keys, start, end, depth: depth)
      let first = nodes.count
      nodes[i].firstChild = Int32(truncatingIfNeeded: first)
      for q in 0..<4 where bounds[q + 1] > bounds[q] {
        nodes[i].childMask |= 1 << q
        nodes.append(_CellNode(
          start: Int32(truncatingIfNeeded: bounds[q]), count: Int32(truncatingIfNeeded: bounds[q + 1] - bounds[q])))
      }
      for c in (first..<nodes.count).reversed() { stack.append((c, depth + 1)) }
    }
    // the leaves' sums and boxes, from their points, in chunks on every core
    nodes.withUnsafeMutableBufferPointer { nodes in
      coords.withUnsafeBufferPointer { coords in
        _forEachChunk(of: nodes.count, minimum: 1 << 12, threads: threads) { chunk in
          for i in chunk where nodes[i].isLeaf {
            let start = Int(nodes[i].start), end = start + Int(nodes[i].count)
            var lon: Int64 = 0, lat: Int64 = 0
            var x0 = Double.infinity, x1 = -Double.infinity
            var y0 = Double.infinity, y1 = -Double.infinity
            for k in start..<end {
              let x = coords[2 &* k], y = coords[2 &* k &+ 1]
              lon &+= Int64(MapCells.units(x))
              lat &+= Int64(MapCells.units(y))
              x0 = min(x0, x)
              x1 = max(x1, x)
              y0 = min(y0, y)
              y1 = max(y1, y)
            }
            nodes[i].sumLon = lon
            nodes[i].sumLat = lat
            nodes[i].minLon = .below(x0)
            nodes[i].maxLon = .above(x1)
            nodes[i].minLat = .below(y0)
            nodes[i].maxLat = .above(y1)
          }
        }
      }
    }
    // children come after their parent: sum and box bottom-up in one backward pass
    for i in nodes.indices.reversed() where !nodes[i].isLeaf {
      var lon: Int64 = 0, lat: Int64 = 0
      var x0 = Float.infinity, x1 = -Float.infinity, y0 = Float.infinity, y1 = -Float.infinity
      let first = Int(nodes[i].firstChild)
      for c in first..<(first + nodes[i].childMask.nonzeroBitCount) {
        lon &+= nodes[c].sumLon
        lat &+= nodes[c].sumLat
        x0 = min(x0, nodes[c].minLon)
        x1 = max(x1, nodes[c].maxLon)
        y0 = min(y0, nodes[c].minLat)
        y1 = max(y1, nodes[c].maxLat)
      }
      nodes[i].sumLon = lon
      nodes[i].sumLat = lat
      nodes[i].minLon = x0
      nodes[i].maxLon = x1
      nodes[i].minLat = y0
      nodes[i].maxLat = y1
    }
    return nodes
  }

  /// Where the children of the node over `start..<end` at `depth` begin
  /// (and, last, where they end): the quadrant of a point is the next two
  /// bits of its code, so each boundary is a binary search.
  static func quadrants(_ keys: [UInt64], _ start: Int, _ end: Int, depth: Int) -> _Stack16<Int> {
    let shift = UInt64(2 * (maxDepth - 1 - depth))
    var bounds = _Stack16<Int>(repeating: start)
    bounds[4] = end
    for q in 1...3 {
      var lo = bounds[q - 1], hi = end
      while lo < hi {
        let mid = (lo + hi) / 2
        if Int((keys[mid] >> shift) & 3) < q { lo = mid + 1 } else { hi = mid }
      }
      bounds[q] = lo
    }
    return bounds
  }

  /// The number of nodes over `keys`, counted before they are made so that
  /// their array is allocated once at its size: grown by doubling, it was
  /// copied (up to 100 MB at 10M points) and kept a third of it unused.
  static func nodeCount(_ keys: [UInt64], leafSize: Int) -> Int {
    var count = 1
    var stack: [(start: Int, end: Int, depth: Int)] = [(0, keys.count, 0)]
    while let (start, end, depth) = stack.popLast() {
      if end - start <= leafSize || depth == maxDepth { continue }
      var bounds = quadrants(keys, start, end, depth: depth)
      for q in 0..<4 where bounds[q + 1] > bounds[q] {
        count += 1
        stack.append((bounds[q], bounds[q + 1], depth + 1))
      }
    }
    return count
  }

  /// `x` in the even bits and `y` in the odd bits (28 bits each).
  @inlinable @inline(__always)
  static func morton(_ x: UInt64, _ y: UInt64) -> UInt64 {
    spread(x) | spread(y) << 1
  }

  /// The low 32 bits of `v`, one zero bit between each.
  @inlinable @inline(__always)
  static func spread(_ v: UInt64) -> UInt64 {
    var x = v & 0xFFFF_FFFF
    x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
    x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
    x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F
    x = (x | (x << 2)) & 0x3333_3333_3333_3333
    x = (x | (x << 1)) & 0x5555_5555_5555_5555
    return x
  }
}
