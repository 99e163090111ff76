#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension KDTreeIndex {
  /// Reorders the arrays into the implicit tree, with an explicit stack of
  /// ranges instead of recursion.
  mutating func sortIntoTree() {
    let nodeSize = parameters.nodeSize
    guard ids.count > nodeSize else { return }
    coords.withUnsafeMutableBufferPointer { coords in
      ids.withUnsafeMutableBufferPointer { ids in
        var stack: [(left: Int, right: Int, axis: Int)] = [(0, ids.count - 1, 0)]
        while let (left, right, axis) = stack.popLast() {
          if right - left <= nodeSize { continue }
          let m = (left + right) >> 1
          Self.select(m, left, right, axis, coords, ids)
          stack.append((left, m - 1, 1 - axis))
          stack.append((m + 1, right, 1 - axis))
        }
      }
    }
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
