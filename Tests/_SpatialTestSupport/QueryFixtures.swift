import SpatialIndexes
import _SeededRandom

/// Seeded query rectangles for a point set: the sizes and shapes that break indexes.
package enum QueryFixtures {
  /// Random rectangles of many sizes plus the named hard cases: edges exactly
  /// on data points, zero-width and zero-height, huge, tiny, outside the data,
  /// inverted and NaN (the last two match nothing).
  package static func queries(for points: [Point], count: Int = 200, seed: UInt64) -> [Rect] {
    var g = SplitMix64(seed: seed)
    let box = Rect(bounding: points) ?? Rect(minX: -1, minY: -1, maxX: 1, maxY: 1)
    let w = max(box.width, 1e-9), h = max(box.height, 1e-9)
    func pick() -> Point {
      points.isEmpty ? Point(x: 0, y: 0) : points[g.nextInt(below: points.count)]
    }
    var rects: [Rect] = [
      Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity),
      Rect(minX: -1e300, minY: -1e300, maxX: 1e300, maxY: 1e300),
      box,
      Rect(minX: box.maxX + 1, minY: box.minY, maxX: box.maxX + 2, maxY: box.maxY),
      Rect(minX: box.minX, minY: box.maxY + 1, maxX: box.maxX, maxY: box.maxY + 5),
      Rect(minX: 1, minY: 1, maxX: 0, maxY: 2),  // inverted: empty
      Rect(minX: .nan, minY: -90, maxX: 180, maxY: 90),  // NaN: empty
      Rect(minX: -180, minY: -90, maxX: -180, maxY: 90),  // the antimeridian's west edge
      Rect(minX: 180, minY: -90, maxX: 180, maxY: 90),
    ]
    for k in 0..<count {
      let c = Point(x: g.nextDouble(in: box.minX, box.maxX), y: g.nextDouble(in: box.minY, box.maxY))
      switch k % 8 {
      case 0, 1, 2:  // random size from tiny to half the box
        let f = Double.pow10(-g.nextDouble(in: 0, 6))
        let rw = w * f * g.nextUnit(), rh = h * f * g.nextUnit()
        rects.append(Rect(minX: c.x - rw, minY: c.y - rh, maxX: c.x + rw, maxY: c.y + rh))
      case 3:  // both corners on data points: points lie on every edge
        let a = pick(), b = pick()
        rects.append(Rect(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y)))
      case 4:  // zero width through a data point
        let a = pick()
        rects.append(Rect(minX: a.x, minY: a.y - h * g.nextUnit(), maxX: a.x, maxY: a.y + h * g.nextUnit()))
      case 5:  // zero height through a data point
        let a = pick()
        rects.append(Rect(minX: a.x - w * g.nextUnit(), minY: a.y, maxX: a.x + w * g.nextUnit(), maxY: a.y))
      case 6:  // a single point, exactly
        let a = pick()
        rects.append(Rect(minX: a.x, minY: a.y, maxX: a.x, maxY: a.y))
      default:  // aligned to a dyadic lattice (quadtree split lines, grid borders)
        let steps = 64.0
        let i = (g.nextUnit() * steps).rounded(.down), j = (g.nextUnit() * steps).rounded(.down)
        let di = (g.nextUnit() * 8).rounded(.down), dj = (g.nextUnit() * 8).rounded(.down)
        rects.append(Rect(
          minX: -180 + 360 * i / steps, minY: -90 + 180 * j / steps,
          maxX: -180 + 360 * (i + di) / steps, maxY: -90 + 180 * (j + dj) / steps))
      }
    }
    return rects
  }
}

extension Double {
  fileprivate static func pow10(_ e: Double) -> Double {
    var r = 1.0
    var e = e
    while e <= -1 { r /= 10; e += 1 }
    return r * (1 - 0.9 * (-e))  // a monotone stand-in between 10^-k and 10^-(k+1)
  }
}
