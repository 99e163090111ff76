#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension KDTreeIndex {
  /// Selects each subtree's split point in a working copy (ranges stay
  /// contiguous there, as in kdbush), and writes the split points in
  /// pre-order and the leaves in order into the final arrays. A stack of
  /// ranges replaces recursion.
  mutating func build(_ points: [Point]) {
    let n = points.count
    let nodeSize = parameters.nodeSize
    var work = [Double](unsafeUninitializedCapacity: 2 * n) { buffer, initialized in
      for (i, p) in points.enumerated() {
        buffer[2 &* i] = p.x
        buffer[2 &* i &+ 1] = p.y
      }
      initialized = 2 * n
    }
    var workIDs = [Int32](unsafeUninitializedCapacity: n) { buffer, initialized in
      for i in 0..<n { buffer[i] = Int32(truncatingIfNeeded: i) }
      initialized = n
    }
    let splits = Self._splitCount(size: n, nodeSize: nodeSize)
    splitCount = splits
    var outCoords = [Double](repeating: 0, count: 2 * n)
    var outIDs = [Int32](repeating: 0, count: n)
    work.withUnsafeMutableBufferPointer { work in
      workIDs.withUnsafeMutableBufferPointer { workIDs in
        outCoords.withUnsafeMutableBufferPointer { outCoords in
          outIDs.withUnsafeMutableBufferPointer { outIDs in
            var nextSplit = 0, nextLeaf = splits
            func emit(_ from: Int, _ to: Int) {
              outCoords[2 &* to] = work[2 &* from]
              outCoords[2 &* to &+ 1] = work[2 &* from &+ 1]
              outIDs[to] = workIDs[from]
            }
            var stack: [(left: Int, right: Int, axis: Int)] = n > 0 ? [(0, n - 1, 0)] : []
            while let (left, right, axis) = stack.popLast() {
              let size = right - left + 1
              if size <= nodeSize {  // a leaf: its points, in order
                for i in left...right {
                  emit(i, nextLeaf)
                  nextLeaf += 1
                }
                continue
              }
              let k = left + Self._leftShape(size: size, nodeSize: nodeSize).points
              Self.select(k, left, right, axis, work, workIDs)
              emit(k, nextSplit)
              nextSplit += 1
              // Left pushed last, so it is walked first: pre-order.
              if k < right { stack.append((k + 1, right, 1 - axis)) }
              stack.append((left, k - 1, 1 - axis))
            }
            assert(nextSplit == splits && nextLeaf == n)
          }
        }
      }
    }
    coords = outCoords
    ids = outIDs
  }

  /// Moves the k-th smallest coordinate on `axis` of `left...right` to `k`,
  /// smaller or equal ones before it and larger or equal ones after it
  /// (Floyd–Rivest: a sample narrows the range before partitioning).
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
      let t = coords[2 &* k &+ axis]
      var i = left, j = right
      swapPoints(left, k, coords, ids)
      if coords[2 &* right &+ axis] > t { swapPoints(left, right, coords, ids) }
      while i < j {
        swapPoints(i, j, coords, ids)
        i &+= 1
        j &-= 1
        while coords[2 &* i &+ axis] < t { i &+= 1 }
        while coords[2 &* j &+ axis] > t { j &-= 1 }
      }
      if coords[2 &* left &+ axis] == t {
        swapPoints(left, j, coords, ids)
      } else {
        j &+= 1
        swapPoints(j, right, coords, ids)
      }
      if j <= k { left = j &+ 1 }
      if k <= j { right = j &- 1 }
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
