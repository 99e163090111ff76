import _SpatialIndexesShims

extension CellTree {
  /// Splits off the points a map never shows, codes the others by their
  /// deepest cell, sorts them by Morton code (a stable radix sort, so equal
  /// codes keep their id order and every build is the same), then cuts the
  /// sorted run into nodes: the top of the tree, then its subtrees on the
  /// threads.
  mutating func build(_ points: [Point]) throws(IndexError) {
    // Usually every point is on the map: then the points are used as given,
    // and the sorted order is the ids. One pass codes each point and checks
    // that, in chunks on every core; the sort then permutes indexes.
    var source = points
    var sourceIDs: [Int32] = []
    var keys: [UInt64], allOnMap: Bool
    (keys, allOnMap) = Self.codes(of: source, threads: parameters.resolvedThreads)
    if !allOnMap {
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
      offMapPoints = off
      keys = Self.codes(of: source, threads: parameters.resolvedThreads).keys
    }
    let n = source.count
    var order = [Int32](_uninitializedLarge: n)
    order.withUnsafeMutableBufferPointer { order in
      for k in 0..<n { order[k] = Int32(truncatingIfNeeded: k) }
    }
    // The gather's output, made before the sort so that it can lend it as
    // scratch (keys in its first half, values after): fresh memory costs its
    // page faults (about 75 ms for the 120 MB the sort would take at 10M
    // points), paid once this way.
    var out = [Double](_uninitializedLarge: 2 * n)
    if n > 1 {
      out.withUnsafeMutableBytes { scratch in
        let keyBytes = n * MemoryLayout<UInt64>.stride
        Self.radixSort(
          &keys, &order,
          scratchKeys: scratch.baseAddress!.assumingMemoryBound(to: UInt64.self),
          scratchValues: (scratch.baseAddress! + keyBytes).assumingMemoryBound(to: Int32.self),
          threads: parameters.resolvedThreads)
      }
    }

    // The gather reads points in code order, at random in memory: each read
    // is prefetched a few ahead so the misses overlap (measured: most of
    // the build waited on them), in chunks on every core. Each point's row
    // comes from its code, in order.
    var rows = [UInt32](_uninitializedLarge: n)
    source.withUnsafeBufferPointer { source in
      order.withUnsafeBufferPointer { order in
        keys.withUnsafeBufferPointer { keys in
          rows.withUnsafeMutableBufferPointer { rows in
            out.withUnsafeMutableBufferPointer { out in
              _forEachChunk(of: n, threads: parameters.resolvedThreads) { chunk in
                let ahead = 32
                for k in chunk {
                  if k &+ ahead < chunk.upperBound {
                    _spatialPrefetch(source.baseAddress! + Int(order[k &+ ahead]))
                  }
                  let p = source[Int(order[k])]
                  out[2 &* k] = p.x
                  out[2 &* k &+ 1] = p.y
                  rows[k] = UInt32(truncatingIfNeeded: Self.compact(keys[k] >> 1))
                }
              }
            }
          }
        }
      }
    }
    var coords = out
    self.rows = _FlatArray(rows)
    if sourceIDs.isEmpty {
      ids = order
    } else {
      // the input's ids of the sorted points: a gather at random, on the threads
      var mapped = [Int32](_uninitializedLarge: n)
      sourceIDs.withUnsafeBufferPointer { sourceIDs in
        order.withUnsafeBufferPointer { order in
          mapped.withUnsafeMutableBufferPointer { mapped in
            _forEachChunk(of: n, threads: parameters.resolvedThreads) { chunk in
              for k in chunk { mapped[k] = sourceIDs[Int(order[k])] }
            }
          }
        }
      }
      ids = mapped
    }
    nodes = n == 0 ? [] : Self.nodes(keys: keys, coords: coords, ids: ids, leafSize: parameters.leafSize, threads: parameters.resolvedThreads)
    sortCrowdedLeaves(&coords)
    self.coords = _FlatArray(coords)
  }

  /// Sorts the points of each leaf that holds more than `leafSize` by
  /// position, then id: such a leaf is a deepest cell (about 20 cm), its
  /// points copies of a few places, and a k-nearest search then takes each
  /// place's first ids instead of every copy (``_NearestSearch/considerSortedLeaf(_:_:_:)``).
  /// Within a deepest cell every point has the same code and row, so the
  /// order there is free; sums and box do not depend on it.
  mutating func sortCrowdedLeaves(_ coords: inout [Double]) {
    let leafSize = parameters.leafSize
    let crowded = nodes.indices.filter { nodes[$0].isLeaf && Int(nodes[$0].count) > leafSize }
    guard !crowded.isEmpty else { return }
    var order: [Int] = []
    for i in crowded {
      let start = Int(nodes[i].start), end = start + Int(nodes[i].count)
      _sortByPosition(start..<end, coords: &coords, ids: &ids, order: &order)
      nodes[i].link = ids[start]
    }
  }

  /// The codes of `points` (``codes(_:into:)``), in chunks on `threads`
  /// threads, and whether every point is on the map.
  static func codes(of points: [Point], threads: Int) -> (keys: [UInt64], allOnMap: Bool) {
    let n = points.count
    var keys = [UInt64](_uninitializedLarge: n)
    let onMap = points.withUnsafeBufferPointer { points in
      keys.withUnsafeMutableBufferPointer { keys in
        _mapChunks(of: n, threads: threads) { chunk in
          Self.codes(UnsafeBufferPointer(rebasing: points[chunk]), into: keys.baseAddress! + chunk.lowerBound)
        }
      }
    }
    return (keys, !onMap.contains(false))
  }

  /// Points of a subtree that the build splits on a thread of its own: the
  /// top of the tree down to nodes this size is split first, in one pass,
  /// then each node left is split apart, in parallel.
  static var subtreePoints: Int { 1 << 14 }

  /// The nodes over `keys` (sorted). A node's children are side by side,
  /// after it: the top of the tree first, then each subtree below it in
  /// turn, so the layout depends on the points and `leafSize` alone, never
  /// on the threads.
  static func nodes(keys: [UInt64], coords: [Double], ids: [Int32], leafSize: Int, threads: Int) -> [_CellNode] {
    keys.withUnsafeBufferPointer { keys in
      // the top: nodes of more than `subtreePoints` points, split in order
      var top = [_CellNode(start: 0, count: Int32(truncatingIfNeeded: keys.count))]
      var roots: [(node: Int, depth: Int)] = []
      var pending = [(node: 0, depth: 0)]
      while let (i, depth) = pending.popLast() {
        let start = Int(top[i].start), end = start + Int(top[i].count)
        if end - start <= leafSize || depth == maxDepth { continue }
        if end - start <= subtreePoints {
          roots.append((i, depth))
          continue
        }
        let first = top.count
        top[i].firstChild = Int32(truncatingIfNeeded: first)
        top[i].childMask = split(keys, start, end, depth: depth) { start, count in
          top.append(_CellNode(start: Int32(truncatingIfNeeded: start), count: Int32(truncatingIfNeeded: count)))
        }
        for c in (first..<top.count).reversed() { pending.append((c, depth + 1)) }
      }
      // each subtree's nodes, built and summed on the threads (its keys,
      // points and nodes fit in a core's cache), then copied into its range.
      // (Counting them first, to write them in place, split every node
      // twice, and the sums were two more passes over the whole tree.)
      var subtrees = [(mask: UInt8, nodes: [_CellNode])](repeating: (0, []), count: roots.count)
      coords.withUnsafeBufferPointer { coords in
        ids.withUnsafeBufferPointer { ids in
          subtrees.withUnsafeMutableBufferPointer { subtrees in
            _forEachChunk(of: roots.count, parts: 64, minimum: 1, threads: threads) { chunk in
              for r in chunk {
                let node = top[roots[r].node]
                subtrees[r] = subtree(
                  keys, coords, ids, Int(node.start), Int(node.start + node.count), depth: roots[r].depth,
                  leafSize: leafSize)
              }
            }
          }
        }
      }
      var offsets = [Int](repeating: top.count, count: roots.count + 1)
      for r in roots.indices { offsets[r + 1] = offsets[r] + subtrees[r].nodes.count }
      var nodes = [_CellNode](_uninitializedLarge: offsets[roots.count])
      nodes.withUnsafeMutableBufferPointer { nodes in
        for i in top.indices { nodes[i] = top[i] }
        for r in roots.indices {
          nodes[roots[r].node].firstChild = Int32(truncatingIfNeeded: offsets[r])
          nodes[roots[r].node].childMask = subtrees[r].mask
        }
        subtrees.withUnsafeBufferPointer { subtrees in
          _forEachChunk(of: roots.count, parts: 64, minimum: 1, threads: threads) { chunk in
            for r in chunk {
              let shift = Int32(truncatingIfNeeded: offsets[r])
              for (k, var node) in subtrees[r].nodes.enumerated() {
                if !node.isLeaf { node.firstChild &+= shift }
                nodes[offsets[r] + k] = node
              }
            }
          }
        }
        // the top's leaves (few, but one may hold many duplicates), then
        // its inner nodes from their children, which come after them
        coords.withUnsafeBufferPointer { coords in
          ids.withUnsafeBufferPointer { ids in
            for i in top.indices where nodes[i].isLeaf { sumLeaf(&nodes[i], coords, ids) }
          }
        }
        for i in top.indices.reversed() where !nodes[i].isLeaf { sumChildren(nodes, i) }
      }
      return nodes
    }
  }

  /// Reports each non-empty quadrant of the node over `start..<end` at
  /// `depth` (its first point and count, in Morton order) and returns the
  /// mask of them: the quadrant of a point is the next two bits of its
  /// code, so each boundary is a binary search.
  @inline(__always)
  static func split(
    _ keys: UnsafeBufferPointer<UInt64>, _ start: Int, _ end: Int, depth: Int,
    _ child: (Int, Int) -> Void
  ) -> UInt8 {
    let shift = UInt64(2 * (maxDepth - 1 - depth))
    var mask: UInt8 = 0
    var lower = start
    for q in 0..<4 {
      var upper = end
      if q < 3 {
        var lo = lower, hi = end
        while lo < hi {
          let mid = (lo + hi) / 2
          if Int((keys[mid] >> shift) & 3) <= q { lo = mid + 1 } else { hi = mid }
        }
        upper = lo
      }
      if upper > lower {
        mask |= 1 << q
        child(lower, upper - lower)
      }
      lower = upper
    }
    return mask
  }

  /// The nodes below the node over `start..<end` at `depth`, in their
  /// order in the tree (the node's children first) with their sums and
  /// boxes, each inner node's first child counted from the first of them;
  /// and the node's child mask.
  static func subtree(
    _ keys: UnsafeBufferPointer<UInt64>, _ coords: UnsafeBufferPointer<Double>, _ ids: UnsafeBufferPointer<Int32>,
    _ start: Int, _ end: Int, depth: Int, leafSize: Int
  ) -> (mask: UInt8, nodes: [_CellNode]) {
    var nodes: [_CellNode] = []
    func add(_ start: Int, _ count: Int) {
      nodes.append(_CellNode(start: Int32(truncatingIfNeeded: start), count: Int32(truncatingIfNeeded: count)))
    }
    let mask = split(keys, start, end, depth: depth, add)
    var stack = nodes.indices.reversed().map { (node: $0, depth: depth + 1) }
    while let (i, depth) = stack.popLast() {
      let start = Int(nodes[i].start), end = start + Int(nodes[i].count)
      if end - start <= leafSize || depth == maxDepth { continue }
      let first = nodes.count
      nodes[i].firstChild = Int32(truncatingIfNeeded: first)
      nodes[i].childMask = split(keys, start, end, depth: depth, add)
      for c in (first..<nodes.count).reversed() { stack.append((c, depth + 1)) }
    }
    nodes.withUnsafeMutableBufferPointer { nodes in
      // children come after their parent: backwards, each inner node's are summed
      for i in nodes.indices.reversed() {
        if nodes[i].isLeaf { sumLeaf(&nodes[i], coords, ids) } else { sumChildren(nodes, i) }
      }
    }
    return (mask, nodes)
  }

  /// A leaf's sums, box and first id, from its points.
  @inline(__always)
  static func sumLeaf(_ node: inout _CellNode, _ coords: UnsafeBufferPointer<Double>, _ ids: UnsafeBufferPointer<Int32>) {
    let start = Int(node.start), end = start + Int(node.count)
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
    node.sumLon = lon
    node.sumLat = lat
    node.minLon = .below(x0)
    node.maxLon = .above(x1)
    node.minLat = .below(y0)
    node.maxLat = .above(y1)
    node.link = ids[start]
  }

  /// An inner node's sums and box, from its children's.
  @inline(__always)
  static func sumChildren(_ nodes: UnsafeMutableBufferPointer<_CellNode>, _ i: Int) {
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

  /// `x` in the even bits and `y` in the odd bits (28 bits each).
  @inlinable @inline(__always)
  static func morton(_ x: UInt64, _ y: UInt64) -> UInt64 {
    spread(x) | spread(y) << 1
  }

  /// The even bits of `v`, side by side: `spread` undone.
  @inlinable @inline(__always)
  package static func compact(_ v: UInt64) -> UInt64 {
    var x = v & 0x5555_5555_5555_5555
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333
    x = (x | (x >> 2)) & 0x0F0F_0F0F_0F0F_0F0F
    x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF
    x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF
    x = (x | (x >> 16)) & 0x0000_0000_FFFF_FFFF
    return x
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
