import SpatialIndexes
import Testing
import BenchWorkloads
import _SeededRandom

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A few real places, two of them close to the antimeridian and one far north.
private let places = [
  Point(latitude: 48.8566, longitude: 2.3522),  // Paris
  Point(latitude: -18.1416, longitude: 178.4419),  // Suva, Fiji
  Point(latitude: 64.7336, longitude: 177.5089),  // Anadyr
  Point(latitude: 78.2232, longitude: 15.6267),  // Longyearbyen
  Point(latitude: -33.8688, longitude: 151.2093),  // Sydney
  Point(latitude: 40.7128, longitude: -74.0060),  // New York
]

private let all: [PointDistribution] = [
  .uniform, .clustered(), .hotels(around: places), .skewed(), .duplicates(),
  .line(), .line(.diagonal),
]

/// Great-circle distance in kilometres (haversine, mean Earth radius).
private func kilometres(_ a: Point, _ b: Point) -> Double {
  let r = Double.pi / 180
  let dLat = (b.y - a.y) * r, dLon = (b.x - a.x) * r
  let h = sin(dLat / 2) * sin(dLat / 2)
    + cos(a.y * r) * cos(b.y * r) * sin(dLon / 2) * sin(dLon / 2)
  return 2 * 6_371.0088 * asin(min(1, h.squareRoot()))
}

@Suite struct PointDistributionTests {
  @Test(arguments: all) func sameSeedGivesSamePoints(_ d: PointDistribution) {
    #expect(d.points(count: 2000, seed: 5) == d.points(count: 2000, seed: 5))
  }

  @Test(arguments: all) func differentSeedGivesDifferentPoints(_ d: PointDistribution) {
    #expect(d.points(count: 200, seed: 5) != d.points(count: 200, seed: 6))
  }

  /// The layout does not depend on the count: a short run is a prefix of a long one.
  @Test(arguments: all) func shorterRunIsAPrefix(_ d: PointDistribution) {
    let long = d.points(count: 3000, seed: 8)
    #expect(Array(long.prefix(1500)) == d.points(count: 1500, seed: 8))
  }

  @Test(arguments: all) func countsIncludingZeroAndOne(_ d: PointDistribution) {
    for n in [0, 1, 2, 1000] {
      #expect(d.points(count: n, seed: 1).count == n)
    }
  }

  @Test(arguments: all) func pointsAreFiniteAndInRange(_ d: PointDistribution) {
    for p in d.points(count: 20_000, seed: 3) {
      #expect(p.isFinite)
      #expect(p.x >= -180 && p.x <= 180 && p.y >= -90 && p.y <= 90, "\(p)")
    }
  }

  /// Wide blobs near the edges must be clamped, not leak out of the world.
  @Test func wideBlobsAreClamped() {
    let points = PointDistribution.clustered(blobs: 5, sigma: 40...80).points(count: 5000, seed: 2)
    #expect(points.allSatisfy { abs($0.x) <= 180 && abs($0.y) <= 90 })
    #expect(points.contains { abs($0.y) == 90 || abs($0.x) == 180 })
  }

  @Test func emptyPlacesGiveNoHotelsWithoutTrapping() {
    #expect(PointDistribution.hotels(around: []).points(count: 0, seed: 1).isEmpty)
  }

  @Test func hotelsStayNearSomePlace() {
    let hotels = PointDistribution.hotels(around: places).points(count: 50_000, seed: 4)
    var farthest = 0.0
    for h in hotels {
      let nearest = places.map { kilometres($0, h) }.min()!
      farthest = max(farthest, nearest)
    }
    // sigma 3 km: a Gaussian pair never goes beyond ~8.6 sigma
    #expect(farthest < 30, "farthest hotel \(farthest) km from its place")
    // and they are spread, not piled on the places
    #expect(farthest > 5)
  }

  /// Around Suva (178.4° E) some hotels cross the antimeridian and wrap.
  @Test func hotelsWrapAcrossTheAntimeridian() {
    let fiji = [Point(latitude: -16.5, longitude: 179.99)]
    let hotels = PointDistribution.hotels(around: fiji).points(count: 2000, seed: 9)
    #expect(hotels.contains { $0.x < -179 })
    #expect(hotels.contains { $0.x > 179 })
    #expect(hotels.allSatisfy { $0.x >= -180 && $0.x < 180 })
  }

  @Test func hotelSpreadIsRoundOnTheGround() {
    // at 60° N a degree of longitude is half as long: the spread in degrees doubles
    let hotels = PointDistribution.hotels(around: [Point(latitude: 60, longitude: 10)],
                                          sigmaKilometres: 5).points(count: 40_000, seed: 1)
    func spread(_ v: [Double]) -> Double {
      let m = v.reduce(0, +) / Double(v.count)
      return (v.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(v.count)).squareRoot()
    }
    let sx = spread(hotels.map(\.x)), sy = spread(hotels.map(\.y))
    #expect(abs(sy * PointDistribution.kilometresPerDegree - 5) < 0.1)
    #expect(abs(sx / sy - 2) < 0.05)
  }

  @Test(arguments: [1, 7, 100, 1000])
  func duplicatesUseExactlyKLocations(_ k: Int) {
    let points = PointDistribution.duplicates(locations: k).points(count: 5000, seed: 3)
    #expect(Set(points).count == k)
    // fewer points than locations: all distinct
    let few = PointDistribution.duplicates(locations: k).points(count: k / 2, seed: 3)
    #expect(Set(few).count == few.count)
  }

  @Test func meridianPointsShareTheirLongitude() {
    let points = PointDistribution.line(.meridian(longitude: -71.25)).points(count: 5000, seed: 2)
    #expect(points.allSatisfy { $0.x == -71.25 })
    #expect(Set(points.map(\.y)).count > 4900)
  }

  @Test func diagonalPointsLieOnTheDiagonal() {
    let points = PointDistribution.line(.diagonal).points(count: 5000, seed: 2)
    #expect(points.allSatisfy { $0.x == 2 * $0.y })
    #expect(points.contains { $0.y < -80 } && points.contains { $0.y > 80 })
  }

  /// Zipf sizes: the biggest blob gets about 1/H(1000) ≈ 13.4% of the points.
  @Test func skewedBlobSizesFollowZipf() {
    let points = PointDistribution.skewed(blobs: 1000, exponent: 1, sigma: 1e-6)
      .points(count: 100_000, seed: 6)
    var sizes: [Point: Int] = [:]
    // sigma 1e-6°: rounding to 0.01° puts each blob in one bucket
    for p in points {
      sizes[Point(x: (p.x * 100).rounded(), y: (p.y * 100).rounded()), default: 0] += 1
    }
    let sorted = sizes.values.sorted(by: >)
    let h = (1...1000).reduce(0.0) { $0 + 1 / Double($1) }
    #expect(abs(Double(sorted[0]) / 100_000 - 1 / h) < 0.01)
    #expect(abs(Double(sorted[1]) / 100_000 - 1 / (2 * h)) < 0.01)
    #expect(abs(Double(sorted[9]) / 100_000 - 1 / (10 * h)) < 0.005)
  }

  @Test func clusteredPointsGatherAroundTheBlobs() {
    let points = PointDistribution.clustered(blobs: 3, sigma: 0.01...0.01)
      .points(count: 3000, seed: 1)
    var centres: [Point] = []  // greedy: a point 0.2° from every centre so far starts one
    for p in points where !centres.contains(where: { abs($0.x - p.x) + abs($0.y - p.y) < 0.2 }) {
      centres.append(p)
    }
    #expect(centres.count == 3)
  }

  /// A change here changes every dataset. The arithmetic-only cases are pinned
  /// exactly; the Gaussian ones to 1e-9 (they go through libm's log).
  @Test func firstPointsArePinned() {
    func near(_ a: Point, _ x: Double, _ y: Double) -> Bool {
      abs(a.x - x) < 1e-9 && abs(a.y - y) < 1e-9
    }
    let u = PointDistribution.uniform.points(count: 2, seed: 7)
    #expect(u == [Point(x: 73.41446717461565, y: -8.941057125918931),
                  Point(x: -25.45047679738107, y: -65.89716869520595)])
    let d = PointDistribution.duplicates().points(count: 2, seed: 7)
    #expect(d == [Point(x: -88.78737394469461, y: 71.28139459931108),
                  Point(x: -66.13550414966217, y: -37.98267417590489)])
    let m = PointDistribution.line().points(count: 2, seed: 7)
    #expect(m == [Point(x: 13.4, y: 36.707233587307826), Point(x: 13.4, y: -8.941057125918931)])
    let g = PointDistribution.line(.diagonal).points(count: 2, seed: 7)
    #expect(g == [Point(x: 73.41446717461565, y: 36.707233587307826),
                  Point(x: -17.882114251837862, y: -8.941057125918931)])

    let c = PointDistribution.clustered().points(count: 2, seed: 7)
    #expect(near(c[0], -66.62562820718924, -46.038333582407255))
    #expect(near(c[1], 111.75039088098879, -51.51328930138237))
    let s = PointDistribution.skewed().points(count: 2, seed: 7)
    #expect(near(s[0], -40.25539682119123, 8.749883426926187))
    #expect(near(s[1], -45.89402891509264, 74.82587716090642))
    let paris = Point(latitude: 48.8566, longitude: 2.3522)
    let suva = Point(latitude: -18.1416, longitude: 178.4419)
    let h = PointDistribution.hotels(around: [paris, suva]).points(count: 2, seed: 7)
    #expect(near(h[0], 178.49329941361128, -18.15349738450913))
    #expect(near(h[1], 2.3437771203931854, 48.82790200336475))
  }

  @Test func lookupByName() throws {
    for entry in PointDistribution.catalog {
      let d = try PointDistribution(name: entry.name, places: places)
      #expect(d.name == entry.name)
    }
    #expect(try PointDistribution(name: "Uniform") == .uniform)
    #expect(try PointDistribution(name: "line") == .line(.meridian(longitude: 13.4)))
    #expect(throws: PointDistribution.LookupError.unknownName("nope")) {
      try PointDistribution(name: "nope")
    }
    #expect(throws: PointDistribution.LookupError.needsPlaces("hotels")) {
      try PointDistribution(name: "hotels")
    }
    #expect(Set(PointDistribution.catalog.map(\.name)).count == PointDistribution.catalog.count)
  }
}

@Suite struct GaussianPairTests {
  @Test func pairIsStandardNormalAndUncorrelated() {
    var g = SplitMix64(seed: 12)
    var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
    let n = 50_000
    for _ in 0..<n {
      let (a, b) = g.nextGaussianPair()
      sx += a; sy += b; sxx += a * a; syy += b * b; sxy += a * b
    }
    let N = Double(n)
    #expect(abs(sx / N) < 0.02 && abs(sy / N) < 0.02)
    #expect(abs(sxx / N - 1) < 0.03 && abs(syy / N - 1) < 0.03)
    #expect(abs(sxy / N) < 0.02)
  }

  @Test func firstPairsArePinned() {
    var g = SplitMix64(seed: 3)
    let (a, b) = g.nextGaussianPair()
    let (c, d) = g.nextGaussianPair()
    #expect(abs(a - -0.6607094165639128) < 1e-12 && abs(b - 0.34235138432607176) < 1e-12)
    #expect(abs(c - 0.17986789286273094) < 1e-12 && abs(d - -0.6800422740443164) < 1e-12)
  }
}
