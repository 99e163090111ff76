import SpatialIndexes
import _SeededRandom

/// A named point set for the conformance tests.
package struct Fixture: Sendable, CustomStringConvertible {
  package var name: String
  package var points: [Point]
  package var description: String { "\(name) (n=\(points.count))" }

  package init(_ name: String, _ points: [Point]) {
    self.name = name
    self.points = points
  }
}

/// Seeded point sets covering the cases the issues name.
package enum Fixtures {
  package static func uniform(_ n: Int, seed: UInt64, in box: Rect = .world) -> [Point] {
    var g = SplitMix64(seed: seed)
    return (0..<n).map { _ in
      Point(x: g.nextDouble(in: box.minX, box.maxX), y: g.nextDouble(in: box.minY, box.maxY))
    }
  }

  /// Gaussian blobs, clamped to the world.
  package static func clustered(_ n: Int, blobs: Int = 20, seed: UInt64) -> [Point] {
    var g = SplitMix64(seed: seed)
    let centres = (0..<blobs).map { _ in
      (Point(x: g.nextDouble(in: -170, 170), y: g.nextDouble(in: -80, 80)), g.nextDouble(in: 0.01, 5))
    }
    return (0..<n).map { _ in
      let (c, s) = centres[g.nextInt(below: blobs)]
      return Point(
        x: min(180, max(-180, c.x + s * g.nextGaussian())),
        y: min(90, max(-90, c.y + s * g.nextGaussian())))
    }
  }

  package static func identical(_ n: Int, at p: Point = Point(x: 2.3522, y: 48.8566)) -> [Point] {
    Array(repeating: p, count: n)
  }

  /// All points on one meridian (`diagonal == false`) or one diagonal.
  package static func line(_ n: Int, diagonal: Bool, seed: UInt64) -> [Point] {
    var g = SplitMix64(seed: seed)
    return (0..<n).map { _ in
      let t = g.nextDouble(in: -80, 80)
      return diagonal ? Point(x: t * 2, y: t) : Point(x: 13.4, y: t)
    }
  }

  /// Points on a dyadic lattice of the world box: they lie exactly on the
  /// quadtree's split lines and on the borders of power-of-two grid cells.
  package static func lattice(steps: Int = 64, repeats: Int = 1, seed: UInt64) -> [Point] {
    var g = SplitMix64(seed: seed)
    var points: [Point] = []
    for _ in 0..<(steps * steps * repeats / 2) {
      let i = g.nextInt(below: steps + 1), j = g.nextInt(below: steps + 1)
      points.append(Point(
        x: -180 + 360 * Double(i) / Double(steps), y: -90 + 180 * Double(j) / Double(steps)))
    }
    return points
  }

  /// The point sets every index must agree on, sized for a fast test run.
  package static func standard(capacity: Int = 16) -> [Fixture] {
    var sets: [Fixture] = [
      Fixture("empty", []),
      Fixture("one", [Point(x: 10, y: 20)]),
      Fixture("uniform", uniform(5000, seed: 1)),
      Fixture("clustered", clustered(5000, seed: 2)),
      Fixture("identical", identical(3000)),
      Fixture("meridian", line(2000, diagonal: false, seed: 3)),
      Fixture("diagonal", line(2000, diagonal: true, seed: 4)),
      Fixture("lattice", lattice(seed: 5)),
      Fixture("poles-and-antimeridian", [
        Point(x: -180, y: 0), Point(x: 180, y: 0), Point(x: 0, y: 90), Point(x: 0, y: -90),
        Point(x: -180, y: -90), Point(x: 180, y: 90), Point(x: 180, y: -90), Point(x: -180, y: 90),
      ] + uniform(200, seed: 6)),
      Fixture("mixed-duplicates", (0..<4000).map { i in
        Point(x: Double(i % 7) * 0.5, y: Double(i % 11) * 0.25)
      }),
    ]
    for n in [capacity - 1, capacity, capacity + 1] where n >= 0 {
      sets.append(Fixture("n=capacity\(n - capacity >= 0 ? "+" : "")\(n - capacity)",
                          uniform(n, seed: UInt64(100 + n), in: Rect(minX: 0, minY: 0, maxX: 1, maxY: 1))))
    }
    return sets
  }
}
