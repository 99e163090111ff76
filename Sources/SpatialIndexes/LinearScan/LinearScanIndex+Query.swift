extension LinearScanIndex {
  /// - Complexity: O(*n*).
  @inlinable @discardableResult
  public func forEach<C: QueryCounters>(
    in rect: Rect, counters: inout C, _ visit: (Int32) -> Bool
  ) -> Bool {
    counters.testPoints(xs.count)
    return xs.withUnsafeBufferPointer { xs in
      ys.withUnsafeBufferPointer { ys in
        for i in 0..<xs.count where rect.contains(x: xs[i], y: ys[i]) {
          counters.reportPoints(1)
          if !visit(Int32(truncatingIfNeeded: i)) { return false }
        }
        return true
      }
    }
  }

  /// Branch-free: each block of ids is compacted into a small stack buffer
  /// (the write position advances by 0 or 1), then appended in one copy.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  public func query<C: QueryCounters>(
    in rect: Rect, into ids: inout [Int32], counters: inout C
  ) {
    let n = xs.count
    let block = 512
    counters.testPoints(n)
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: block) { scratch in
      xs.withUnsafeBufferPointer { xs in
        ys.withUnsafeBufferPointer { ys in
          var start = 0
          while start < n {
            let end = Swift.min(start &+ block, n)
            var k = 0
            for i in start..<end {
              scratch[k] = Int32(truncatingIfNeeded: i)
              k &+= rect.insideBit(x: xs[i], y: ys[i])
            }
            if k > 0 { ids.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<k])) }
            counters.reportPoints(k)
            start = end
          }
        }
      }
    }
  }

  /// - Complexity: O(*n*).
  @inlinable
  public func count<C: QueryCounters>(in rect: Rect, counters: inout C) -> Int {
    counters.testPoints(xs.count)
    let n = xs.withUnsafeBufferPointer { xs in
      ys.withUnsafeBufferPointer { ys in
        var n = 0
        for i in 0..<xs.count {
          n &+= rect.insideBit(x: xs[i], y: ys[i])
        }
        return n
      }
    }
    counters.reportPoints(n)
    return n
  }
}
