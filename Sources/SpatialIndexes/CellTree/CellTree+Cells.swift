import _SpatialIndexesShims

extension CellTree {
  /// Sums the points inside `rect` by cell of `window` (see the type's
  /// notes): a node inside the rectangle and inside one cell adds its
  /// totals; a node that straddles is split; a leaf is summed point by
  /// point, each point tested against the rectangle when its leaf is cut by
  /// an edge and binned into its own cell when its leaf spans cells.
  ///
  /// A point at +180° is binned in column 0 at −180°
  /// (``MapCells/isAntimeridian(_:)``), though its code lies in the world's
  /// last column: a node whose box reaches +180° is never taken as one
  /// cell, so such points are always binned one by one (the nodes along the
  /// east edge of the world; their sums count +180° as it is).
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

    let codes = Self.codeRange(of: rect)

    return nodes.withUnsafeBufferPointer { nodes in
      coords.withUnsafeBufferPointer { coords in
        rows.withUnsafeBufferPointer { rows in
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
                    MapCells.binX(longitude: lon), scale: scale, cellSize: size, inverse: inverse)
                  // the row from the point's zoom-26 row r: its map y lies in
                  // [11·r, 11·(r + 1)) / 2^23, so its row in the view's grid
                  // is between 11·r / D and (11·r + 10) / D; in the map's own
                  // 88-point grid (odd 11) both are r >> m. Only when they
                  // differ (a row's edge inside the point's zoom-26 row) is
                  // the point projected.
                  let r = Int(rows[i])
                  var row = 0
                  if fits && odd == 11 {
                    row = r &>> m
                  } else if fits && (11 &* r) / divisor == (11 &* r &+ 10) / divisor {
                    row = (11 &* r) / divisor
                  } else {
                    row = MapCells.index(
                      WebMercator.y(latitude: lat), scale: scale, cellSize: size, inverse: inverse)
                  }
                  if window.contains(col: col, row: row) {
                    s = window.slot(col: col, row: row)
                  } else {
                    // a point at +180° while column 0 lies elsewhere;
                    // otherwise never in practice: see "Which points" on Clusterer
                    s = col == 0 ? window.columnZeroSlot(row: row) : -1
                    if s < 0 { continue }
                  }
                }
                // the id only for a cell's first point (a marker of one point
                // names it): the ids are a cache line a leaf of their own,
                // and the leaf's first is in the node
                if cells[s].count == 0 { cells[s].anyID = i == start ? node.firstID : ids[i] }
                cells[s].count &+= 1
                cells[s].sumLon &+= Int64(MapCells.binUnits(longitude: lon))
                cells[s].sumLat &+= Int64(MapCells.units(lat))
                taken &+= 1
              }
              counters.reportPoints(taken)
            }

            // The frames wait in a ring, taken oldest first: a node's
            // children join the back of the queue and are prefetched then,
            // so every frame ahead of them hides their cache misses (depth
            // first, each level of a descent waited on the one above). When
            // the queue passes `breadthLimit`, frames are taken newest first
            // (depth first), which adds at most 3 · 28 + 1 frames above it,
            // so the ring never overflows.
            _withStackScratch(of: _CellFrame.self) { ring in
              // a power of two, so that a position in the ring is a mask
              let capacity = 1 << (Int.bitWidth &- 1 &- ring.count.leadingZeroBitCount)
              let breadthLimit = capacity &- 92
              ring[0] = _CellFrame(node: 0, cx: 0, cy: 0, depth: 0, inside: false, slot: -1)
              let base = nodes.baseAddress!
              var head = 0, tail = 1

              /// Adds the frame's node to its cell, scans it, or queues its children.
              func visit(_ frame: _CellFrame) {
                var f = frame
                let node = nodes[Int(f.node)]
                counters.visitNodes(1)
                let depth = Int(f.depth)
                if !f.inside {
                  switch node.relation(to: rect) {
                  case .outside: return
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
                  // a node that may hold points at +180° bins them one by one
                  if one && node.maxLon < 180 {
                    // the node lies in one cell; outside the window, none of
                    // its points inside the rectangle can be (see sumCells)
                    guard window.contains(col: col, row: row) else { return }
                    f.slot = Int32(truncatingIfNeeded: window.slot(col: col, row: row))
                  }
                }
                if f.slot >= 0 && f.inside {
                  counters.reportPoints(Int(node.count))
                  cells[Int(f.slot)].count &+= node.count
                  // the id matters only for a cell of one point, which a node
                  // of one point made: a leaf, which holds its first id
                  if node.count == 1 { cells[Int(f.slot)].anyID = node.firstID }
                  cells[Int(f.slot)].sumLon &+= node.sumLon
                  cells[Int(f.slot)].sumLat &+= node.sumLat
                  return
                }
                if node.isLeaf {
                  scan(node, inside: f.inside, slot: Int(f.slot))
                  return
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
                }
                // the children: a child whose cell lies beyond the
                // rectangle's codes is left unread; the others are queued,
                // and their lines prefetched
                let mask = node.childMask
                var child = node.firstChild
                let s = Self.maxDepth &- 1 &- depth
                for q in 0..<4 where mask & (1 << q) != 0 {
                  defer { child &+= 1 }
                  let cx = 2 &* Int(f.cx) &+ (q & 1), cy = 2 &* Int(f.cy) &+ (q >> 1)
                  if !f.inside
                    && ((cx &+ 1) << s <= codes.x0 || cx << s > codes.x1
                      || (cy &+ 1) << s <= codes.y0 || cy << s > codes.y1) {
                    continue
                  }
                  let address = UnsafeRawPointer(base + Int(child))
                  _spatialPrefetch(address)
                  _spatialPrefetch(address + (MemoryLayout<_CellNode>.size &- 1))
                  precondition(tail &- head < capacity, "cell walk queue overflow")
                  ring[tail & (capacity &- 1)] = _CellFrame(
                    node: child, cx: Int32(truncatingIfNeeded: cx), cy: Int32(truncatingIfNeeded: cy),
                    depth: f.depth &+ 1, inside: f.inside, slot: f.slot)
                  tail &+= 1
                }
              }

              while head < tail {
                if tail &- head <= breadthLimit {
                  let f = ring[head & (capacity &- 1)]
                  head &+= 1
                  visit(f)
                } else {
                  tail &-= 1
                  visit(ring[tail & (capacity &- 1)])
                }
              }
            }
            return true
          }
        }
      }
    }
  }

  /// The zoom-26 columns `x0...x1` and rows `y0...y1` that hold every
  /// point on the map inside `rect`: the codes of its corners, one more
  /// either side (the projection's rounding moves a point's map position by
  /// far less than a code). A node whose cell lies beyond them holds no
  /// point inside, and the walk leaves it unread: on 960 views of 10M hotels
  /// at zooms 0–3 the nodes found outside were 30% of those visited.
  @inlinable
  static func codeRange(of rect: Rect) -> (x0: Int, x1: Int, y0: Int, y1: Int) {
    let scale = WebMercator.scale(zoom: 23), inverse = 1.0 / 11
    let lat = WebMercator.latitudeRange
    func column(_ lon: Double) -> Int {
      MapCells.index(WebMercator.x(longitude: min(180, max(-180, lon))), scale: scale, cellSize: 11, inverse: inverse)
    }
    func row(_ latitude: Double) -> Int {
      MapCells.index(
        WebMercator.y(latitude: min(lat.upperBound, max(lat.lowerBound, latitude))), scale: scale, cellSize: 11,
        inverse: inverse)
    }
    // map y grows southward: the top edge gives the first row
    return (column(rect.minX) &- 1, column(rect.maxX) &+ 1, row(rect.maxY) &- 1, row(rect.minY) &+ 1)
  }
}
