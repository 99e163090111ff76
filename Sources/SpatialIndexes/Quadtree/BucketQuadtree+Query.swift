extension BucketQuadtree {
  /// A node waiting on the query stack: its box and a copy of its record,
  /// read with its three siblings' (one or two cache lines) when it was pushed,
  /// so popping it goes straight to its bucket.
  @usableFromInline
  struct Frame {
    @usableFromInline var box: Rect
    @usableFromInline var firstChild: Int32
    @usableFromInline var start: Int32
    @usableFromInline var count: Int32
    /// Where the node's subtree ends in a packed pool.
    @usableFromInline var end: Int32
    /// The box lies inside the query rectangle: report the subtree untested.
    @usableFromInline var inside: Bool

    /// A placeholder that fills the unused part of the stack.
    @inlinable @inline(__always)
    init() {
      box = Rect(minX: 0, minY: 0, maxX: 0, maxY: 0)
      firstChild = -1
      start = 0
      count = 0
      end = 0
      inside = false
    }

    @inlinable @inline(__always)
    init(box: Rect, record: UnsafePointer<Int32>, end: Int32, inside: Bool) {
      self.box = box
      firstChild = record[Field.firstChild]
      start = record[Field.bucketStart]
      count = record[Field.bucketCount]
      self.end = end
      self.inside = inside
    }
  }

  /// Frames a query needs at most: when a node at level `L` is expanded, at
  /// most three siblings wait at each level from 2 to `L`, and four children
  /// are pushed; nodes at the depth cap (≤ 32) have no children, so
  /// 3 · 30 + 4 = 94 suffice: the stack holds 96 frames (``_FixedStack``)
  /// on the call stack (5.4 KB). `withUnsafeTemporaryAllocation` would take
  /// the heap above 1 KB on this toolchain (valgrind counted one allocation a
  /// query), and a query allocates nothing.
  @usableFromInline typealias _Stack = _Stack96<Frame>

  /// The depth-first walk every query form shares, with a fixed-size stack.
  ///
  /// Calls `whole` with ids to report untested: on a packed tree, those of a
  /// whole subtree whose root's box lies inside `rect` and that `group`
  /// accepts (its nodes below are not visited; the last argument is `true`);
  /// otherwise those of each non-empty bucket inside `rect` (`false`).
  /// Calls `test` with the coordinates (`x, y` pairs) and ids of each other
  /// non-empty bucket whose box meets `rect`. Both also get the slot of the
  /// first id. Each returns `false` to stop the walk, which then returns
  /// `false`. Empty leaves are skipped; every other node reached counts as
  /// one visited node. A plain query's `group` always says yes.
  @inlinable @inline(__always)
  func walk<C: QueryCounters>(
    _ rect: Rect, _ counters: inout C,
    group: (Rect) -> Bool = { _ in true },
    whole: (inout C, UnsafePointer<Int32>, _ slot: Int, _ n: Int, _ subtree: Bool) -> Bool,
    test: (inout C, UnsafePointer<Double>, UnsafePointer<Int32>, _ slot: Int, _ n: Int) -> Bool
  ) -> Bool {
    // an inverted or NaN rectangle matches nothing; so does one beside the root
    guard liveCount > 0, rect.isValid, rect.intersects(bounds) else { return true }
    let packed = self.packed
    var stack = _Stack(repeating: Frame())
    return nodes.withUnsafeBufferPointer { nodes in
      coords.withUnsafeBufferPointer { coords in
        ids.withUnsafeBufferPointer { ids in
          // non-empty: liveCount > 0 means a bucket holds a slot
          let nodeBase = nodes.baseAddress!
          let coordBase = coords.baseAddress!
          let idBase = ids.baseAddress!
          stack[0] = Frame(
            box: bounds, record: nodeBase, end: Int32(truncatingIfNeeded: ids.count),
            inside: rect.contains(bounds))
          var top = 1
          while top > 0 {
            top &-= 1
            let frame = stack[top]
            counters.visitNodes(1)
            let start = Int(frame.start)
            let n = Int(frame.count)
            if frame.inside {
              if packed && group(frame.box) {
                let m = Int(frame.end) &- start
                if !whole(&counters, idBase + start, start, m, true) { return false }
                continue
              }
              if n > 0, !whole(&counters, idBase + start, start, n, false) { return false }
            } else if n > 0,
                      !test(&counters, coordBase + 2 &* start, idBase + start, start, n) {
              return false
            }
            guard frame.firstChild >= 0 else { continue }
            let children = nodeBase + Int(frame.firstChild) &* Field.stride
            let c = Self.center(of: frame.box)
            var end = frame.end
            // pushed last-first, so quadrant 0 (stored first) pops first
            for q in (0..<4).reversed() {
              let record = children + q &* Field.stride
              // packed: child q's subtree ends where child q + 1's starts
              let childEnd = end
              end = record[Field.bucketStart]
              if record[Field.bucketCount] == 0 && record[Field.firstChild] < 0 { continue }
              let box = Self.quadrantBox(frame.box, c, q)
              if frame.inside {
                stack[top] = Frame(box: box, record: record, end: childEnd, inside: true)
                top &+= 1
              } else if rect.intersects(box) {
                stack[top] = Frame(
                  box: box, record: record, end: childEnd, inside: rect.contains(box))
                top &+= 1
              }
            }
          }
          return true
        }
      }
    }
  }

  /// `rect.contains(x: xy[2j], y: xy[2j + 1])`, for `lo`, `hi` the corners
  /// of `rect`: one vector comparison and no branch.
  @inlinable @inline(__always)
  static func contains(
    _ lo: SIMD2<Double>, _ hi: SIMD2<Double>, _ xy: UnsafePointer<Double>, _ j: Int
  ) -> Bool {
    let p = UnsafeRawPointer(xy + 2 &* j).loadUnaligned(as: SIMD2<Double>.self)
    return all((p .>= lo) .& (p .<= hi))
  }

  /// Ids in a scratch block between the branch-free filter and the caller.
  @inlinable @inline(__always)
  static var scratchCapacity: Int { 64 }

  /// Calls `report` with the ids among the first `n` points of `xy` and `ids`
  /// that lie in the rectangle with corners `lo`, `hi`, a block at a time.
  ///
  /// The filter writes every id to `scratch` and advances by 0 or 1, so no
  /// branch depends on the coordinates. Why it matters: a cold query waits on
  /// memory, and a mispredicted branch per point would stop the processor
  /// from running ahead to the next node's loads.
  @inlinable @inline(__always)
  static func filter(
    _ lo: SIMD2<Double>, _ hi: SIMD2<Double>,
    _ xy: UnsafePointer<Double>, _ ids: UnsafePointer<Int32>, _ n: Int,
    _ scratch: UnsafeMutablePointer<Int32>,
    _ report: (UnsafeBufferPointer<Int32>) -> Bool
  ) -> Bool {
    var base = 0
    while base < n {
      let m = Swift.min(n &- base, scratchCapacity)
      var k = 0
      for j in base..<(base &+ m) {
        scratch[k] = ids[j]
        k &+= contains(lo, hi, xy, j) ? 1 : 0
      }
      if k > 0, !report(UnsafeBufferPointer(start: scratch, count: k)) { return false }
      base &+= m
    }
    return true
  }

  /// Walks the nodes whose boxes meet `rect`; the points of a node whose box
  /// lies inside `rect` are reported without being tested (on a packed tree,
  /// its whole subtree as one run, without visiting the nodes below).
  ///
  /// - Complexity: O(depth + nodes met + *k*) for *k* results.
  @inlinable @discardableResult
  public func forEach<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool
  ) -> Bool {
    let lo = SIMD2(rect.minX, rect.minY), hi = SIMD2(rect.maxX, rect.maxY)
    return withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.scratchCapacity) {
      scratch in
      walk(
        rect, &counters,
        whole: { counters, ids, _, n, _ in
          for j in 0..<n {
            counters.reportPoints(1)
            if !visit(ids[j]) { return false }
          }
          return true
        },
        test: { counters, xy, ids, _, n in
          counters.testPoints(n)
          return Self.filter(lo, hi, xy, ids, n, scratch.baseAddress!) { found in
            for id in found {
              counters.reportPoints(1)
              if !visit(id) { return false }
            }
            return true
          }
        })
    }
  }

  /// Runs of ids inside `rect` are appended in one copy each.
  ///
  /// - Complexity: O(depth + nodes met + *k*) for *k* results.
  @inlinable
  public func query<C: QueryCounters>(
    in rect: Rect, into out: inout [Int32], counters: inout C
  ) {
    let lo = SIMD2(rect.minX, rect.minY), hi = SIMD2(rect.maxX, rect.maxY)
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.scratchCapacity) { scratch in
      _ = walk(
        rect, &counters,
        whole: { counters, ids, _, n, _ in
          counters.reportPoints(n)
          out.append(contentsOf: UnsafeBufferPointer(start: ids, count: n))
          return true
        },
        test: { counters, xy, ids, _, n in
          counters.testPoints(n)
          return Self.filter(lo, hi, xy, ids, n, scratch.baseAddress!) { found in
            counters.reportPoints(found.count)
            out.append(contentsOf: found)
            return true
          }
        })
    }
  }

  /// Runs of ids inside `rect` are counted without reading them.
  ///
  /// - Complexity: O(depth + nodes met + points in partly covered nodes).
  @inlinable
  public func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int {
    let lo = SIMD2(rect.minX, rect.minY), hi = SIMD2(rect.maxX, rect.maxY)
    var total = 0
    _ = walk(
      rect, &counters,
      whole: { counters, _, _, n, _ in
        counters.reportPoints(n)
        total &+= n
        return true
      },
      test: { counters, xy, _, _, n in
        counters.testPoints(n)
        var k = 0
        for j in 0..<n {
          k &+= Self.contains(lo, hi, xy, j) ? 1 : 0
        }
        counters.reportPoints(k)
        total &+= k
        return true
      })
    return total
  }

  /// ``forEach(in:counters:_:)`` handing each point's coordinates with its
  /// id, counted the same: what k-nearest's range queries read.
  @inlinable
  func _forEachPoint<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32, Double, Double) -> Void
  ) {
    let lo = SIMD2(rect.minX, rect.minY), hi = SIMD2(rect.maxX, rect.maxY)
    coords.withUnsafeBufferPointer { all in
      _ = walk(
        rect, &counters,
        whole: { counters, ids, slot, n, _ in
          for j in 0..<n {
            counters.reportPoints(1)
            visit(ids[j], all[2 &* (slot &+ j)], all[2 &* (slot &+ j) &+ 1])
          }
          return true
        },
        test: { counters, xy, ids, _, n in
          counters.testPoints(n)
          for j in 0..<n where Self.contains(lo, hi, xy, j) {
            counters.reportPoints(1)
            visit(ids[j], xy[2 &* j], xy[2 &* j &+ 1])
          }
          return true
        })
    }
  }
}
