extension LinearScanIndex {
  /// Hits gathered before they are handed over: 1,024 bytes, the most
  /// `withUnsafeTemporaryAllocation` keeps on the stack on Linux (Swift 6.3);
  /// a larger buffer is a heap allocation per call.
  @inlinable static var _batch: Int { 256 }

  /// The 16 lanes of a comparison as the low 16 bits of an integer.
  ///
  /// Swift has no movemask: the lanes (all ones or zero: a `SIMDMask` is
  /// stored as its integer vector) are narrowed to bytes of 0 or 1 and each
  /// 8 bytes gathered into 8 bits by one multiplication (every partial
  /// product lands on its own bit of the top byte, none carries). Only a
  /// group with a candidate pays for it.
  @inlinable @inline(__always)
  static func _bits(_ mask: SIMDMask<SIMD16<Int16>>) -> UInt32 {
    let bytes = SIMD16<UInt8>(truncatingIfNeeded: unsafeBitCast(mask, to: SIMD16<UInt16>.self)) & 1
    let words = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
    let gather: UInt64 = 0x0102_0408_1020_4080
    let low = UInt32(truncatingIfNeeded: (words[0] &* gather) &>> 56)
    let high = UInt32(truncatingIfNeeded: (words[1] &* gather) &>> 56)
    return low | high &<< 8
  }

  /// Hands the ids of the points inside `rect` to `emit`, in increasing
  /// order, in batches of up to 256; stops when `emit` returns `false` (and
  /// returns `false`).
  ///
  /// Sixteen points at a time, in SIMD registers: each code minus the low
  /// bound's code, compared unsigned with the bounds' difference
  /// (`lo <= c <= hi` as `c &- lo <= hi &- lo`), the two axes combined and
  /// tested for any lane set. On SSE2 that is 22 instructions for 16 points
  /// (4 loads, 4 subtractions, 4 saturating subtractions, 4 comparisons,
  /// 2 ands, a pack, `pmovmskb`, a test and a branch), no store and no
  /// branch per point. A group with a candidate, rare on a small rectangle,
  /// has its candidates taken one by one: one whose codes lie strictly
  /// between the bounds' codes is a hit (see the type's comment); one on an
  /// edge's code is tested on the doubles, and counted as one more point
  /// tested. The last `n % 16` points are tested one at a time, the same way.
  @inlinable @inline(__always) @discardableResult
  func _scan<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ emit: (UnsafeBufferPointer<Int32>) -> Bool
  ) -> Bool {
    let n = xs.count
    counters.testPoints(n)
    // A NaN or inverted bound matches nothing; past this guard every bound
    // is ordered and not NaN, so lx <= hx and ly <= hy.
    guard rect.isValid, n > 0 else { return true }
    let lx = codeX.code(rect.minX), hx = codeX.code(rect.maxX)
    let ly = codeY.code(rect.minY), hy = codeY.code(rect.maxY)
    let wx = hx &- lx, wy = hy &- ly
    let vlx = SIMD16(repeating: lx), vly = SIMD16(repeating: ly)
    let vwx = SIMD16(repeating: wx), vwy = SIMD16(repeating: wy)
    var exactTests = 0
    defer { counters.testPoints(exactTests) }
    return withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self._batch) { out in
      cx.withUnsafeBufferPointer { cx in
        cy.withUnsafeBufferPointer { cy in
          xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
              let px = UnsafeRawPointer(cx.baseAddress!), py = UnsafeRawPointer(cy.baseAddress!)
              var k = 0  // hits in `out`
              /// `bits` are the candidates among the points `base..<base + 16`:
              /// keeps the hits.
              func take(_ bits: UInt32, base: Int) -> Bool {
                if k > Self._batch &- 16 {
                  if !emit(UnsafeBufferPointer(rebasing: out[..<k])) { return false }
                  k = 0
                }
                var bits = bits
                repeat {
                  let i = base &+ bits.trailingZeroBitCount
                  bits &= bits &- 1
                  let x = cx[i], y = cy[i]
                  var keep = (x > lx ? 1 : 0) & (x < hx ? 1 : 0) & (y > ly ? 1 : 0) & (y < hy ? 1 : 0)
                  if keep == 0 {  // on an edge's code
                    exactTests &+= 1
                    keep = rect.insideBit(x: xs[i], y: ys[i])
                  }
                  out[k] = Int32(truncatingIfNeeded: i)
                  k &+= keep
                } while bits != 0
                return true
              }
              let whole = n & ~15
              var i = 0
              while i < whole {
                let x = px.loadUnaligned(fromByteOffset: i &<< 1, as: SIMD16<UInt16>.self)
                let y = py.loadUnaligned(fromByteOffset: i &<< 1, as: SIMD16<UInt16>.self)
                let m = ((x &- vlx) .<= vwx) .& ((y &- vly) .<= vwy)
                if any(m), !take(Self._bits(m), base: i) { return false }
                i &+= 16
              }
              while i < n {  // the last n % 16 points
                let x = cx[i], y = cy[i]
                if x &- lx <= wx && y &- ly <= wy, !take(1, base: i) { return false }
                i &+= 1
              }
              return k == 0 || emit(UnsafeBufferPointer(rebasing: out[..<k]))
            }
          }
        }
      }
    }
  }

  /// - Complexity: O(*n*).
  @inlinable @discardableResult
  public func forEach<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool
  ) -> Bool {
    var reported = 0
    let finished = _scan(in: rect, counters: &counters) { hits in
      for id in hits {
        reported &+= 1
        if !visit(id) { return false }
      }
      return true
    }
    counters.reportPoints(reported)
    return finished
  }

  /// The ids are appended a batch (up to 256) at a time.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  public func query<C: QueryCounters>(
    in rect: Rect, into ids: inout [Int32], counters: inout C
  ) {
    var reported = 0
    _scan(in: rect, counters: &counters) { hits in
      ids.append(contentsOf: hits)
      reported &+= hits.count
      return true
    }
    counters.reportPoints(reported)
  }

  /// - Complexity: O(*n*).
  @inlinable
  public func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int {
    var n = 0
    _scan(in: rect, counters: &counters) { hits in
      n &+= hits.count
      return true
    }
    counters.reportPoints(n)
    return n
  }
}

extension LinearScanIndex {
  /// Through range queries
  /// (``SpatialIndex/nearestThroughRanges(to:k:maxDistance:into:counters:point:)``),
  /// the points read by id from the coordinates it keeps.
  @inlinable
  public func nearest<C: QueryCounters>(
    to position: Point, k: Int, maxDistance: Double,
    into buffer: inout NearestBuffer, counters: inout C
  ) {
    xs.withUnsafeBufferPointer { xs in
      ys.withUnsafeBufferPointer { ys in
        nearestThroughRanges(
          to: position, k: k, maxDistance: maxDistance, into: &buffer, counters: &counters
        ) { id in Point(x: xs[Int(id)], y: ys[Int(id)]) }
      }
    }
  }
}
