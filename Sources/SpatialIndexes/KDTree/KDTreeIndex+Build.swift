#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A subtree still to build: its range of the working copy, its split
/// axis, and the pre-order number of its first split point.
struct _BuildFrame {
  var left: Int
  var right: Int
  var axis: Int
  var split: Int
  var size: Int { right - left + 1 }
}

extension KDTreeIndex {
  /// Selects each subtree's split point in a working copy (ranges stay
  /// contiguous there, as in kdbush), noting where each split point stays;
  /// then the working copy becomes the final arrays in place: its leaf
  /// points, already in order, move right past the split points, which go
  /// first in pre-order. A stack of ranges replaces recursion. The pass that
  /// copies the points also takes their bounds and checks that they are
  /// finite: false, and nothing built, when one is not.
  ///
  /// In place, the build holds 20 bytes a point beside the caller's
  /// points; writing into separate final arrays held 40.
  mutating func build(_ points: [Point]) -> Bool {
    let n = points.count
    let nodeSize = parameters.nodeSize
    var finite = true
    var box = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    // The large arrays in 2 MB pages where the system has them
    // (LargeArrays.swift): fresh memory's page faults cost a fifth of a 10M
    // build (10M hotels 489–664 → 391–483 ms, 100M uniform on one thread
    // 12.7–14.2 → 9.8–10.1 s).
    var work = [Double](_uninitializedLarge: 2 * n)
    var workIDs = [Int32](_uninitializedLarge: n)
    // in chunks on the threads, each with its own bounds, joined after
    let threads = parameters.resolvedThreads
    let chunks = work.withUnsafeMutableBufferPointer { buffer in
      workIDs.withUnsafeMutableBufferPointer { ids in
        points.withUnsafeBufferPointer { points in
          _mapChunks(of: n, threads: threads) { range in
            var finite = true
            var box = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            for i in range {
              let p = points[i]
              buffer[2 &* i] = p.x
              buffer[2 &* i &+ 1] = p.y
              ids[i] = Int32(truncatingIfNeeded: i)
              finite = finite && p.isFinite
              box.minX = min(box.minX, p.x)
              box.minY = min(box.minY, p.y)
              box.maxX = max(box.maxX, p.x)
              box.maxY = max(box.maxY, p.y)
            }
            return (finite, box)
          }
        }
      }
    }
    for (chunkFinite, chunkBox) in chunks {
      finite = finite && chunkFinite
      box.minX = min(box.minX, chunkBox.minX)
      box.minY = min(box.minY, chunkBox.minY)
      box.maxX = max(box.maxX, chunkBox.maxX)
      box.maxY = max(box.maxY, chunkBox.maxY)
    }
    guard finite else { return false }
    if n > 0 { bounds = box }
    let splits = Self._splitCount(size: n, nodeSize: nodeSize)
    splitCount = splits
    // Where each split point, by pre-order number, stays in the working
    // copy: every number is written exactly once.
    var splitAt = [Int](repeating: 0, count: splits)
    splitAt.withUnsafeMutableBufferPointer { splitAt in
      work.withUnsafeMutableBufferPointer { work in
        workIDs.withUnsafeMutableBufferPointer { workIDs in
          func emit(_ from: Int, _ to: Int) { splitAt[to] = from }
          // One subtree: `left...right` of the working copy, its split
          // points numbered from `split` in pre-order. Left is pushed
          // last, so it is walked first; a leaf's points stay where they are.
          func buildSubtree(_ frame: _BuildFrame) {
            var nextSplit = frame.split
            var stack: [(left: Int, right: Int, axis: Int)] = [(frame.left, frame.right, frame.axis)]
            while let (left, right, axis) = stack.popLast() {
              if right - left + 1 <= nodeSize { continue }  // a leaf
              let k = left + Self._leftShape(size: right - left + 1, nodeSize: nodeSize).points
              Self.select(k, left, right, axis, work, workIDs)
              emit(k, nextSplit)
              nextSplit += 1
              if k < right { stack.append((k + 1, right, 1 - axis)) }
              stack.append((left, k - 1, 1 - axis))
            }
          }
          guard n > 0 else { return }
          // The top levels a level at a time, the subtrees of a level side
          // by side, until there are four subtrees a thread; then those
          // subtrees side by side. Each works on its own range of the
          // working copy and numbers its own split points, whose numbers
          // follow from the shape alone, so the arrays are the serial
          // build's whatever the threads. (Splitting the top levels one
          // subtree at a time left a 100M build on two threads 0.6 s of
          // work on one.)
          var frames = [_BuildFrame(left: 0, right: n - 1, axis: 0, split: 0)]
          let large = Swift.max(nodeSize, 1 << 14)
          while threads > 1 && frames.count < 4 * threads && frames.contains(where: { $0.size > large }) {
            let level = frames
            frames = []
            for f in level {
              guard f.size > large else { frames.append(f); continue }
              let shape = Self._leftShape(size: f.size, nodeSize: nodeSize)
              let k = f.left + shape.points
              frames.append(_BuildFrame(left: f.left, right: k - 1, axis: 1 - f.axis, split: f.split + 1))
              if k < f.right {
                frames.append(_BuildFrame(
                  left: k + 1, right: f.right, axis: 1 - f.axis, split: f.split + 1 + shape.splits))
              }
            }
            _forEach(level.filter { $0.size > large }, threads: threads) { f in
              let k = f.left + Self._leftShape(size: f.size, nodeSize: nodeSize).points
              Self.select(k, f.left, f.right, f.axis, work, workIDs)
              emit(k, f.split)
            }
          }
          _forEach(frames, threads: threads, buildSubtree)
          Self.moveSplitsFirst(splitAt, work, workIDs, threads: threads)
        }
      }
    }
    coords = _FlatArray(work)
    ids = workIDs
    return true
  }

  /// Turns the working copy into the final layout: the split points, at
  /// `splitAt` (by pre-order number), first in pre-order; the other points
  /// after them in the order they are in. Run `r`, the points between the
  /// `r`-th and the `(r+1)`-th split point by position, moves right by the
  /// split points after it, as a block (`memmove`, from the last run back,
  /// so no run is overwritten before it moves).
  ///
  /// On several threads the runs are cut into pieces, each moved by its own
  /// thread from its last run back. A piece's destination ends where the
  /// next piece's first run goes, inside that piece's source: that head is
  /// copied aside first, and the next piece reads it from the copy (at 100M
  /// points and 2 threads, a copy of about 20 MB). The layout is the same
  /// on any number of threads.
  package static func moveSplitsFirst(
    _ splitAt: UnsafeMutableBufferPointer<Int>,
    _ coords: UnsafeMutableBufferPointer<Double>, _ ids: UnsafeMutableBufferPointer<Int32>,
    threads: Int, piecesFrom: Int = 1 << 20
  ) {
    let splits = splitAt.count, n = ids.count
    guard splits > 0 else { return }
    var splitCoords = [Double](repeating: 0, count: 2 * splits)
    var splitIDs = [Int32](repeating: 0, count: splits)
    for (s, k) in splitAt.enumerated() {
      splitCoords[2 * s] = coords[2 * k]
      splitCoords[2 * s + 1] = coords[2 * k + 1]
      splitIDs[s] = ids[k]
    }
    let holes = splitAt.sorted()
    func runStart(_ r: Int) -> Int { r == 0 ? 0 : holes[r - 1] + 1 }
    func runEnd(_ r: Int) -> Int { r == splits ? n : holes[r] }
    func holesBefore(_ position: Int) -> Int {
      var low = 0, high = splits
      while low < high {
        let mid = (low + high) / 2
        if holes[mid] < position { low = mid + 1 } else { high = mid }
      }
      return low
    }
    // Piece p: runs firstRun[p]..<firstRun[p + 1], starting near n·p/pieces.
    // Each head must lie within its own piece; when one does not (split
    // points nearly as many as the points), one piece.
    func cut(_ pieces: Int) -> [Int] {
      (0...pieces).map { p in p == pieces ? splits + 1 : holesBefore(n * p / pieces) }
    }
    /// Where piece `p` of the cut `firstRun` starts (`n` past the last).
    func start(_ firstRun: [Int], _ p: Int) -> Int { p == firstRun.count - 1 ? n : runStart(firstRun[p]) }
    func headsFit(_ firstRun: [Int]) -> Bool {
      (1..<Swift.max(1, firstRun.count - 1)).allSatisfy { p in
        firstRun[p] > firstRun[p - 1]
          && splits - firstRun[p] <= start(firstRun, p + 1) - start(firstRun, p)
      }
    }
    let wanted = cut(n >= piecesFrom ? Swift.min(threads, 4) : 1)
    let firstRun = headsFit(wanted) ? wanted : cut(1)
    let pieces = firstRun.count - 1
    func pieceStart(_ p: Int) -> Int { start(firstRun, p) }
    let heads: [(coords: [Double], ids: [Int32])] = (0..<pieces).map { p in
      guard p > 0 else { return ([], []) }
      let start = pieceStart(p), length = splits - firstRun[p]
      return (Array(coords[2 * start..<2 * (start + length)]), Array(ids[start..<start + length]))
    }
    let xy = coords.baseAddress!, id = ids.baseAddress!
    _forEach(Array(0..<pieces), threads: threads) { p in
      let head = heads[p]
      let headStart = pieceStart(p), headEnd = headStart + head.ids.count
      for r in stride(from: firstRun[p + 1] - 1, through: firstRun[p], by: -1) {
        let a = runStart(r), e = runEnd(r), shift = splits - r
        let m = Swift.min(Swift.max(a, headEnd), e)  // [a, m) from the head's copy, [m, e) in place
        if e > m {
          memmove(xy + 2 * (m + shift), xy + 2 * m, (e - m) * 16)
          memmove(id + m + shift, id + m, (e - m) * 4)
        }
        if m > a {
          head.coords.withUnsafeBufferPointer {
            (xy + 2 * (a + shift)).update(from: $0.baseAddress! + 2 * (a - headStart), count: 2 * (m - a))
          }
          head.ids.withUnsafeBufferPointer {
            (id + a + shift).update(from: $0.baseAddress! + (a - headStart), count: m - a)
          }
        }
      }
    }
    splitCoords.withUnsafeBufferPointer { xy.update(from: $0.baseAddress!, count: 2 * splits) }
    splitIDs.withUnsafeBufferPointer { id.update(from: $0.baseAddress!, count: splits) }
  }

  /// Moves the k-th smallest coordinate on `axis` of `left...right` to `k`,
  /// smaller or equal ones before it and larger or equal ones after it.
  ///
  /// Floyd–Rivest: a recursive select on a sample puts a pivot close to the
  /// k-th at `k`, so one partition of the range leaves little to do. The
  /// partition is Hoare's, in blocks without branches (Edelkamp & Weiß,
  /// "BlockQuicksort", ESA 2016): the coordinates of 64 points at each end
  /// are compared first, the positions of those on the wrong side written
  /// down, then swapped in pairs. On random data half the comparisons of a
  /// plain Hoare loop mispredict; here none does. Equal keys count as wrong
  /// on both sides and are swapped across, so many equal points split in
  /// the middle rather than all to one side.
  static func select(
    _ k: Int, _ left: Int, _ right: Int, _ axis: Int,
    _ coords: UnsafeMutableBufferPointer<Double>, _ ids: UnsafeMutableBufferPointer<Int32>
  ) {
    var left = left, right = right
    while right > left {
      if right - left > 600 {
        let n = Double(right - left + 1)
        let i = Double(k - left + 1)
        let z = log(n)
        let s = 0.5 * exp(2 * z / 3)
        let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (i - n / 2 < 0 ? -1 : 1)
        let newLeft = max(left, Int((Double(k) - i * s / n + sd).rounded(.down)))
        let newRight = min(right, Int((Double(k) + (n - i) * s / n + sd).rounded(.down)))
        select(k, newLeft, newRight, axis, coords, ids)
      }
      if right - left < 16 {  // a few points: sorting them is cheapest
        insertionSort(left, right, axis, coords, ids)
        return
      }
      if right - left <= 600 {
        // No sample: the median of the ends and the middle as pivot, at k.
        func less(_ a: Int, _ b: Int) -> Bool { coords[2 &* a &+ axis] < coords[2 &* b &+ axis] }
        if less(k, left) { swapPoints(left, k, coords, ids) }
        if less(right, k) {
          swapPoints(k, right, coords, ids)
          if less(k, left) { swapPoints(left, k, coords, ids) }
        }
      }
      // The pivot waits at `left`; the rest is split into ≤ t, then ≥ t.
      let t = coords[2 &* k &+ axis]
      swapPoints(left, k, coords, ids)
      let j = partition(left &+ 1, right, t, axis, coords, ids)
      swapPoints(left, j, coords, ids)
      if j <= k { left = j &+ 1 }
      if k <= j { right = j &- 1 }
    }
  }

  /// Splits `low...high` into points whose coordinate on `axis` is ≤ `t`,
  /// then points whose coordinate is ≥ `t`; returns the last position of
  /// the first part (`low − 1` when it is empty).
  @inline(__always)
  static func partition(
    _ low: Int, _ high: Int, _ t: Double, _ axis: Int,
    _ coords: UnsafeMutableBufferPointer<Double>, _ ids: UnsafeMutableBufferPointer<Int32>
  ) -> Int {
    var l = low, r = high  // [low, l) ≤ t and (r, high] ≥ t
    // Blocks of 64 while they fit, then of 8 (the small ranges near the
    // leaves are many), then the plain Hoare loop for the last few.
    blockPartition(&l, &r, t, axis, block: 64, coords, ids)
    blockPartition(&l, &r, t, axis, block: 8, coords, ids)
    let key = UnsafePointer(coords.baseAddress! + axis)
    while true {
      while l <= r && key[2 &* l] < t { l &+= 1 }
      while l <= r && key[2 &* r] > t { r &-= 1 }
      if l >= r { break }
      swapPoints(l, r, coords, ids)
      l &+= 1
      r &-= 1
    }
    // Stopped on one point equal to t: it may end either part.
    return l == r ? l : l &- 1
  }

  /// Narrows `l...r` block by block, keeping [low, l) ≤ t and (r, high] ≥ t,
  /// while two blocks fit in it. A block that still holds points on the
  /// wrong side at the end stays in `l...r`, to be looked at again.
  @inline(__always)
  static func blockPartition(
    _ l: inout Int, _ r: inout Int, _ t: Double, _ axis: Int, block: Int,
    _ coords: UnsafeMutableBufferPointer<Double>, _ ids: UnsafeMutableBufferPointer<Int32>
  ) {
    guard r &- l &+ 1 >= 2 &* block else { return }
    // Offsets within a block; the tuple keeps them on the stack, the
    // pointer spares the bounds checks (an offset is < 64, a count ≤ 64).
    var offsets: (SIMD64<UInt8>, SIMD64<UInt8>) = (.zero, .zero)
    withUnsafeMutableBytes(of: &offsets) { offsets in
      let wrongLeft = offsets.baseAddress!.assumingMemoryBound(to: UInt8.self)
      let wrongRight = wrongLeft + 64
      let key = UnsafePointer(coords.baseAddress! + axis)
      var countLeft = 0, countRight = 0, startLeft = 0, startRight = 0
      while r &- l &+ 1 >= 2 &* block {
        if countLeft == 0 {  // the left block's points ≥ t, without a branch
          startLeft = 0
          for i in 0..<block {
            wrongLeft[countLeft] = UInt8(truncatingIfNeeded: i)
            countLeft &+= Int(unsafeBitCast(key[2 &* (l &+ i)] >= t, to: UInt8.self))
          }
        }
        if countRight == 0 {  // the right block's points ≤ t
          startRight = 0
          for i in 0..<block {
            wrongRight[countRight] = UInt8(truncatingIfNeeded: i)
            countRight &+= Int(unsafeBitCast(key[2 &* (r &- i)] <= t, to: UInt8.self))
          }
        }
        let pairs = min(countLeft, countRight)
        for m in 0..<pairs {
          swapPoints(
            l &+ Int(wrongLeft[startLeft &+ m]), r &- Int(wrongRight[startRight &+ m]), coords, ids)
        }
        countLeft &-= pairs
        countRight &-= pairs
        startLeft &+= pairs
        startRight &+= pairs
        if countLeft == 0 { l &+= block }
        if countRight == 0 { r &-= block }
      }
    }
  }

  /// Sorts `left...right` by the coordinate on `axis`.
  static func insertionSort(
    _ left: Int, _ right: Int, _ axis: Int,
    _ coords: UnsafeMutableBufferPointer<Double>, _ ids: UnsafeMutableBufferPointer<Int32>
  ) {
    guard left < right else { return }
    for i in (left &+ 1)...right {
      let x = coords[2 &* i], y = coords[2 &* i &+ 1], id = ids[i]
      let key = axis == 0 ? x : y
      var j = i
      while j > left && coords[2 &* (j &- 1) &+ axis] > key {
        coords[2 &* j] = coords[2 &* (j &- 1)]
        coords[2 &* j &+ 1] = coords[2 &* (j &- 1) &+ 1]
        ids[j] = ids[j &- 1]
        j &-= 1
      }
      coords[2 &* j] = x
      coords[2 &* j &+ 1] = y
      ids[j] = id
    }
  }

  @inline(__always)
  static func swapPoints(
    _ a: Int, _ b: Int,
    _ coords: UnsafeMutableBufferPointer<Double>, _ ids: UnsafeMutableBufferPointer<Int32>
  ) {
    ids.swapAt(a, b)
    coords.swapAt(2 &* a, 2 &* b)
    coords.swapAt(2 &* a &+ 1, 2 &* b &+ 1)
  }
}
