import SpatialIndexes
import _SeededRandom

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PointDistribution {
  /// `count` points drawn from `seed`, in generation order.
  ///
  /// The array is allocated once at its final size and filled in place: no
  /// allocation per point. The layout (blob centres, locations) comes from
  /// the seed's sub-stream 1 and the points from sub-stream 2 (`hotels`
  /// chooses its places from sub-stream 3; see ``SplitMix64/fork(_:)``), so
  /// the first *k* points of a longer run are the *k* points of a shorter one.
  ///
  /// - Precondition: `count >= 0`; the case's parameters are valid (positive
  ///   blob and location counts, positive finite sigmas, a finite exponent
  ///   `>= 0`, a meridian in [-180, 180]; for `hotels`, at least one place when
  ///   `count > 0`, every place finite).
  /// - Complexity: O(`count` + layout).
  public func points(count: Int, seed: UInt64) -> [Point] {
    precondition(count >= 0, "count must not be negative")
    let root = SplitMix64(seed: seed)
    var layout = root.fork(1)
    var g = root.fork(2)
    switch self {
    case .uniform:
      return Self.fill(count, &g) { g in
        Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -90, 90))
      }

    case .clustered(let blobs, let sigma):
      precondition(blobs > 0, "clustered needs at least one blob")
      precondition(sigma.lowerBound > 0 && sigma.upperBound.isFinite,
                   "sigma must be positive, finite")
      let logRatio = log(sigma.upperBound / sigma.lowerBound)
      let centres = Self.blobCentres(blobs, &layout) { g in
        sigma.lowerBound * exp(logRatio * g.nextUnit())
      }
      return Self.fill(count, &g) { g in
        let c = centres[g.nextInt(below: blobs)]
        let (dx, dy) = g.nextGaussianPair()
        return Self.clamped(x: c.x + c.sigma * dx, y: c.y + c.sigma * dy)
      }

    case .skewed(let blobs, let exponent, let sigma):
      precondition(blobs > 0, "skewed needs at least one blob")
      precondition(exponent >= 0 && exponent.isFinite, "the Zipf exponent must be finite, >= 0")
      precondition(sigma > 0 && sigma.isFinite, "sigma must be positive, finite")
      let centres = Self.blobCentres(blobs, &layout) { _ in sigma }
      // blob k (0-based) weighs 1 / (k + 1)^exponent
      let zipf = AliasTable(weights: (0..<blobs).map { k in 1 / pow(Double(k + 1), exponent) })
      return Self.fill(count, &g) { g in
        let c = centres[zipf.pick(&g)]
        let (dx, dy) = g.nextGaussianPair()
        return Self.clamped(x: c.x + sigma * dx, y: c.y + sigma * dy)
      }

    case .hotels(let places, let sigmaKilometres):
      precondition(sigmaKilometres > 0 && sigmaKilometres.isFinite,
                   "sigma must be positive, finite")
      precondition(count == 0 || !places.isEmpty, "hotels needs at least one place")
      precondition(places.allSatisfy(\.isFinite), "every place must be finite")
      let sigmaY = sigmaKilometres / Self.kilometresPerDegree
      // east-west degrees shrink with cos(latitude); capped near the poles.
      // Place and sigma in one array: one cache miss per point, not two.
      let minCos = cos(89 * Double.pi / 180)
      let spots = places.map { p in
        let c = cos(Swift.min(90, Swift.abs(p.y)) * Double.pi / 180)
        return Blob(x: p.x, y: p.y, sigma: sigmaY / Swift.max(minCos, c))
      }
      let n = spots.count
      // Places are chosen from their own sub-stream, a block at a time, and
      // gathered before the arithmetic: the gather's loads are independent,
      // so their cache misses overlap (140k places don't fit in L2; one miss
      // per point in the arithmetic loop measured 3 s for 10M points).
      var picks = root.fork(3)
      let block = 1024
      return [Point](unsafeUninitializedCapacity: count) { buffer, initialized in
        spots.withUnsafeBufferPointer { spots in
          withUnsafeTemporaryAllocation(of: Blob.self, capacity: block) { chosen in
            var start = 0
            while start < count {
              let m = Swift.min(block, count - start)
              for j in 0..<m {
                chosen.initializeElement(at: j, to: spots[picks.nextInt(below: n)])
              }
              for j in 0..<m {
                let p = chosen[j]
                let (dx, dy) = g.nextGaussianPair()
                let x = WebMercator.wrappedLongitude(p.x + p.sigma * dx)
                let y = Swift.min(90, Swift.max(-90, p.y + sigmaY * dy))
                buffer.initializeElement(at: start + j, to: Point(x: x, y: y))
              }
              start += m
            }
          }
        }
        initialized = count
      }

    case .duplicates(let k):
      precondition(k > 0, "duplicates needs at least one location")
      // Location i takes the middle half of the i-th of k equal longitude
      // strips, so no two locations can be equal (distinct by construction,
      // not by luck); then the order is shuffled so the strips don't show.
      var locations = (0..<k).map { i in
        Point(x: -180 + 360 * (Double(i) + 0.25 + 0.5 * layout.nextUnit()) / Double(k),
              y: layout.nextDouble(in: -90, 90))
      }
      for i in stride(from: k - 1, to: 0, by: -1) {  // Fisher–Yates
        locations.swapAt(i, layout.nextInt(below: i + 1))
      }
      var next = 0
      return Self.fill(count, &g) { g in
        defer { next += 1 }
        return next < k ? locations[next] : locations[g.nextInt(below: k)]
      }

    case .line(.meridian(let longitude)):
      precondition(longitude >= -180 && longitude <= 180, "the meridian must be in [-180, 180]")
      return Self.fill(count, &g) { g in
        Point(x: longitude, y: g.nextDouble(in: -90, 90))
      }

    case .line(.diagonal):
      return Self.fill(count, &g) { g in
        // x = 2a − 180 is exactly 2·(a − 90): doubling commutes with rounding
        let a = 180 * g.nextUnit()
        return Point(x: 2 * a - 180, y: a - 90)
      }
    }
  }
}

// MARK: - Helpers

extension PointDistribution {
  /// A blob: centre and sigma in degrees.
  struct Blob {
    var x: Double
    var y: Double
    var sigma: Double
  }

  /// `count` points from `make`, written straight into the array's storage.
  @inline(__always)
  static func fill(
    _ count: Int, _ g: inout SplitMix64, _ make: (inout SplitMix64) -> Point
  ) -> [Point] {
    [Point](unsafeUninitializedCapacity: count) { buffer, initialized in
      for i in 0..<count {
        buffer.initializeElement(at: i, to: make(&g))
      }
      initialized = count
    }
  }

  /// Blob centres uniform in longitude −180…180 and latitude −80…80.
  static func blobCentres(
    _ count: Int, _ g: inout SplitMix64, sigma: (inout SplitMix64) -> Double
  ) -> [Blob] {
    (0..<count).map { _ in
      let x = g.nextDouble(in: -180, 180)
      let y = g.nextDouble(in: -80, 80)
      return Blob(x: x, y: y, sigma: sigma(&g))
    }
  }

  /// The point clamped into the world box.
  @inline(__always)
  static func clamped(x: Double, y: Double) -> Point {
    Point(x: Swift.min(180, Swift.max(-180, x)), y: Swift.min(90, Swift.max(-90, y)))
  }
}
