import _SpatialIndexesShims

extension CellTree {
  /// Sums the points inside `rect` by cell of `window` (see the type's
  /// notes): a node inside the rectangle and inside one cell adds its
  /// totals; a node that straddles is split; a leaf is summed point by
  /// point, each point tested against the rectangle when its leaf is cut by
  /// an edge and binned into its own cell when its leaf spans cells.
  ///
  /// - Complexity: O(cells in view + nodes along the rectangle's edges +
  ///   points in the leaves those edges cut); a node of the view's own zoom
  ///   is one cell, so the points of a cell inside the view are never read.
  @inlinable
  public func sumCells<C: QueryCounters>(
    in rect: Rect, window: CellWindow, into cells: UnsafeMutableBufferPointer<CellTotals>,
    counters: inout C
  ) -> Bool {
    guard rect.isValid, !nodes.isEmpty, window.cellSize >= 1 else { return true }
    let scale = window.scale, size = window.cellSize, inverse = 1 / size
    // A node's code range [q0, q1) lies in the cells (11·q0) / D ... (11·q1 − 1) / D
    // of a grid of side odd · 2^e at zoom z, D = odd · 2^(e + 23 − z); when
    // e + 23 − z < 0 a cell is finer than a code and no node lies in one.
    let whole = Int(size)
    let e = whole.trailingZeroBitCount, odd = whole >> e
    let m = e &+ 23 &- window.zoom
    let fits = m >= 0 && m <= 40 && Double(whole) == size
    let divisor = fits ? odd << m : 1

    return nodes.withUnsafeBufferPointer { nodes in
      coords.withUnsafeBufferPointer { coords in
        mapY.withUnsafeBufferPointer { mapY in
          ids.withUnsafeBufferPointer { ids in
            /// Adds the points of `node` inside the rectangle (all, when
            /// `inside`) to `slot`, or to their own cells when `slot` < 0.
            func scan(_ node: _CellNode, inside: Bool, slot: Int) {
              let start = Int(node.start), end = start &+ Int(node.count)
              if !inside { counters.testPoints(end &- start) }
              var taken = 0
              for i in start..<end {
                let lon = coords[2 &* i], lat = coords[2 &* i &+ 1]
                if !inside && !rect.contains(x: lon, y: lat) { continue }
                var s = slot
                if s < 0 {
                  let col = MapCells.index(
                    WebMercator.x(longitude: lon), scale: scale, cellSize: size, inverse: inverse)
                  let row = MapCells.index(mapY[i], scale: scale, cellSize: size, inverse: inverse)
                  // never false in practice: see "Which points" on Clusterer
                  guard window.contains(col: col, row: row) else { continue }
                  s = window.slot(col: col, row: row)
                }
                cells[s].add(ids[i], lonE7: MapCells.units(lon), latE7: MapCells.units(lat))
                taken &+= 1
              }
              counters.reportPoints(taken)
            }

            var stack = _Stack96<_CellFrame>(
              repeating: _CellFrame(node: 0, cx: 0, cy: 0, depth: 0, inside: false, slot: -1))
            var top = 1
            while top > 0 {
              top &-= 1
              var f = stack[top]
              let node = nodes[Int(f.node)]
              counters.visitNodes(1)
              let depth = Int(f.depth)
              if !f.inside {
                switch node.relation(to: rect) {
                case .outside: continue
                case .inside: f.inside = true
                case .cut: break
                }
              }
              if f.slot < 0 && fits {
                let s = Self.maxDepth &- depth
                var col = 0, row = 0, one = false
                if odd == 11 {
                  // the map's own 88-point grid: a node of depth ≥ z + 2 is
                  // in one cell, found by a shift (no division on this path)
                  if s <= m {
                    col = Int(f.cx) &>> (m &- s)
                    row = Int(f.cy) &>> (m &- s)
                    one = true
                  }
                } else {
                  let x0 = Int(f.cx) << s, x1 = Int(f.cx &+ 1) << s
                  let y0 = Int(f.cy) << s, y1 = Int(f.cy &+ 1) << s
                  if odd == 1 {
                    col = 11 &* x0 &>> m
                    row = 11 &* y0 &>> m
                    one = col == (11 &* x1 &- 1) &>> m && row == (11 &* y1 &- 1) &>> m
                  } else {
                    col = 11 &* x0 / divisor
                    row = 11 &* y0 / divisor
                    one = col == (11 &* x1 &- 1) / divisor && row == (11 &* y1 &- 1) / divisor
                  }
                }
                if one {
                  // the node lies in one cell; outside the window, none of
                  // its points inside the rectangle can be (see sumCells)
                  guard window.contains(col: col, row: row) else { continue }
                  f.slot = Int32(truncatingIfNeeded: window.slot(col: col, row: row))
                }
              }
              if f.slot >= 0 && f.inside {
                counters.reportPoints(Int(node.count))
                cells[Int(f.slot)].count &+= node.count
                // the id matters only for a cell of one point, which a node
                // of one point made: other nodes skip the load (a cache miss)
                if node.count == 1 { cells[Int(f.slot)].anyID = ids[Int(node.start)] }
                cells[Int(f.slot)].sumLon &+= node.sumLon
                cells[Int(f.slot)].sumLat &+= node.sumLat
                continue
              }
              if node.isLeaf {
                scan(node, inside: f.inside, slot: Int(f.slot))
                continue
              }
              if !f.inside && node.count <= 64 {
                // a small node cut by an edge: its leaves will be scanned
                // soon, so ask for their points now (a line holds four)
                let start = Int(node.start), end = start &+ Int(node.count)
                var k = start
                while k < end {
                  _spatialPrefetch(coords.baseAddress! + 2 &* k)
                  k &+= 4
                }
                _spatialPrefetch(ids.baseAddress! + start)
              }
              top = Self.pushChildren(of: node, f, inside: f.inside, slot: f.slot, &stack, top)
            }
            return true
          }
        }
      }
    }
  }
}
