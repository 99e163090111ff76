extension KDTreeIndex {
  /// Marks each largest subtree whose points all lie at one position, and
  /// puts its ids in ascending order (its split points' first, then its
  /// leaves'; the points are copies, so no coordinate moves).
  ///
  /// The median split scatters copies of one place over both sides of
  /// every split, so a k-nearest search among a million copies would open
  /// every leaf to find the earliest `k`. Over a marked subtree it takes
  /// its first ids instead (``_NearestSearch/considerRun(x:y:ids:count:)``).
  ///
  /// Top down, a subtree's points are compared with its split point until
  /// one differs: on spread data the second point does, so the pass costs
  /// a few loads a split point; a marked subtree is read once, and sorted.
  mutating func markRuns() {
    let nodeSize = parameters.nodeSize, n = ids.count
    guard splitCount > 0 else {
      runs = []
      return
    }
    var bits = [UInt64](repeating: 0, count: (splitCount + 63) / 64)
    coords.withUnsafeBufferPointer { xy in
      ids.withUnsafeMutableBufferPointer { ids in
        var stack = [(split: 0, leaf: splitCount, size: n, splits: splitCount)]
        while let f = stack.popLast() {
          guard f.size > nodeSize else { continue }
          let x = xy[2 &* f.split], y = xy[2 &* f.split &+ 1]
          func allAt(_ range: Range<Int>) -> Bool {
            range.allSatisfy { xy[2 &* $0] == x && xy[2 &* $0 &+ 1] == y }
          }
          let splitRun = f.split..<(f.split &+ f.splits)
          let leafRun = f.leaf..<(f.leaf &+ f.size &- f.splits)
          if allAt(splitRun) && allAt(leafRun) {
            bits[f.split >> 6] |= 1 << UInt64(f.split & 63)
            Self.sortAcross(ids, splitRun, leafRun)
            continue
          }
          let l = Self._leftShape(size: f.size, nodeSize: nodeSize)
          stack.append((f.split &+ 1, f.leaf, l.points, l.splits))
          let rightSize = f.size &- 1 &- l.points
          if rightSize > 0 {
            stack.append((f.split &+ 1 &+ l.splits, f.leaf &+ l.points &- l.splits, rightSize,
                          f.splits &- 1 &- l.splits))
          }
        }
      }
    }
    runs = bits
  }

  /// Sorts the ids of two runs as one, the smaller ids in the first.
  static func sortAcross(_ ids: UnsafeMutableBufferPointer<Int32>, _ first: Range<Int>, _ second: Range<Int>) {
    var all = Array(ids[first]) + Array(ids[second])
    all.sort()
    for (i, p) in first.enumerated() { ids[p] = all[i] }
    for (i, p) in second.enumerated() { ids[p] = all[first.count &+ i] }
  }

  /// Whether the subtree split by split point `split` is marked: its points
  /// lie at one position, its ids ascending.
  @inlinable @inline(__always)
  func isRun(_ split: Int) -> Bool {
    runs.withUnsafeBufferPointer { bits in bits[split &>> 6] & (1 &<< UInt64(split & 63)) != 0 }
  }
}
