extension CellTree {
  /// The point's zoom-26 cell as a Morton code: `⌊x · 2^23 / 11⌋` and
  /// `⌊y · 2^23 / 11⌋` of its map position, the exact floors of
  /// ``WebMercator/x(longitude:)`` and ``WebMercator/y(latitude:)`` that
  /// the clusterer takes.
  ///
  /// The row comes from `estimate` (``approximateRows(latitudes:)``), taken
  /// when it lies over 2^-10 of a row from the row's edges; a point nearer
  /// an edge, or beyond ±85°, is projected after all, so every code is the
  /// exact one.
  @inlinable @inline(__always)
  package static func code(of p: Point, estimate t: Double) -> UInt64 {
    let scale = WebMercator.scale(zoom: 23), inverse = 1.0 / 11
    let cx = MapCells.index(WebMercator.x(longitude: p.x), scale: scale, cellSize: 11, inverse: inverse)
    let whole = Int(t), part = t - Double(whole)  // t ≥ 0: truncation is the floor
    let cy: Int
    if part > 0x1p-10 && part < 1 - 0x1p-10 && abs(p.y) < 85 {
      cy = whole
    } else {
      cy = MapCells.index(WebMercator.y(latitude: p.y), scale: scale, cellSize: 11, inverse: inverse)
    }
    return morton(UInt64(truncatingIfNeeded: cx), UInt64(truncatingIfNeeded: cy))
  }

  /// ``code(of:estimate:)`` of one point.
  @inlinable
  package static func code(of p: Point) -> UInt64 {
    code(of: p, estimate: approximateRows(latitudes: SIMD4(repeating: p.y))[0])
  }

  /// The codes of `points` into `codes` (as many), four at a time, and
  /// whether every point is on the map (``isOnMap(_:)``): the check rides
  /// on the pass that reads the points anyway (alone, it was a pass of its
  /// own over them, 30 ms at 10M). A point off the map gets a code too,
  /// never used.
  @inlinable
  static func codes(_ points: UnsafeBufferPointer<Point>, into codes: UnsafeMutablePointer<UInt64>) -> Bool {
    let n = points.count
    let range = WebMercator.latitudeRange
    let south = SIMD4(repeating: range.lowerBound), north = SIMD4(repeating: range.upperBound)
    let west = SIMD4(repeating: -180.0), east = SIMD4(repeating: 180.0)
    var onMap = SIMDMask<SIMD4<Int64>>(repeating: true)
    var k = 0
    while k &+ 4 <= n {
      let lat = SIMD4(points[k].y, points[k &+ 1].y, points[k &+ 2].y, points[k &+ 3].y)
      let lon = SIMD4(points[k].x, points[k &+ 1].x, points[k &+ 2].x, points[k &+ 3].x)
      onMap .&= (lat .>= south) .& (lat .<= north) .& (lon .>= west) .& (lon .<= east)
      let t = approximateRows(latitudes: lat)
      for j in 0..<4 { codes[k &+ j] = code(of: points[k &+ j], estimate: t[j]) }
      k &+= 4
    }
    var everyOnMap = all(onMap)
    while k < n {
      everyOnMap = everyOnMap && isOnMap(points[k])
      codes[k] = code(of: points[k])
      k &+= 1
    }
    return everyOnMap
  }

  /// `y · 2^23 / 11` of the map y at zoom 0 of four latitudes within ±85°,
  /// each within about 1e-5 of the projected one: y = 128 − L · 128 / π
  /// with L = ln(tan(π/4 + φ/2)) = ln((1 + sin φ) / (1 − sin φ)) / 2, the
  /// sine and the logarithm from series (the sine's Taylor series to φ^21,
  /// the logarithm's atanh series to u^19 on a mantissa in [√½, √2)), each
  /// well under 1e-15 off. Arithmetic only, no call, and four latitudes
  /// side by side: one projection is a chain of dependent operations, so
  /// the processor waited on each (the build's projection took as long
  /// with these series one point at a time as with `tan` and `log`).
  /// A test compares it with the projection over a sweep of latitudes and
  /// at rows' edges.
  @inlinable @inline(__always)
  package static func approximateRows(latitudes: SIMD4<Double>) -> SIMD4<Double> {
    let limit = SIMD4<Double>(repeating: 85.06)
    let phi = pointwiseMin(limit, pointwiseMax(-limit, latitudes)) * (Double.pi / 180)
    let x2 = phi * phi
    var s = SIMD4<Double>(repeating: 1.0 / 51_090_942_171_709_440_000)
    s = s * x2 - 1.0 / 121_645_100_408_832_000
    s = s * x2 + 1.0 / 355_687_428_096_000
    s = s * x2 - 1.0 / 1_307_674_368_000
    s = s * x2 + 1.0 / 6_227_020_800
    s = s * x2 - 1.0 / 39_916_800
    s = s * x2 + 1.0 / 362_880
    s = s * x2 - 1.0 / 5_040
    s = s * x2 + 1.0 / 120
    s = s * x2 - 1.0 / 6
    let sine = phi + phi * x2 * s
    // ln q = k · ln 2 + ln m, q = m · 2^k, m in [√½, √2)
    let q = (1 + sine) / (1 - sine)
    let bits = unsafeBitCast(q, to: SIMD4<UInt64>.self)
    var k = SIMD4<Int64>(truncatingIfNeeded: (bits &>> 52) & 0x7FF) &- 1023
    var m = unsafeBitCast((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000, to: SIMD4<Double>.self)
    let high = m .> 1.414_213_562_373_095_1
    m.replace(with: m * 0.5, where: high)
    k.replace(with: k &+ 1, where: high)
    let u = (m - 1) / (m + 1), w = u * u
    var r = SIMD4<Double>(repeating: 1.0 / 19)
    r = r * w + 1.0 / 17
    r = r * w + 1.0 / 15
    r = r * w + 1.0 / 13
    r = r * w + 1.0 / 11
    r = r * w + 1.0 / 9
    r = r * w + 1.0 / 7
    r = r * w + 1.0 / 5
    r = r * w + 1.0 / 3
    r = r * w + 1
    let l = 0.5 * (SIMD4<Double>(k) * 0.693_147_180_559_945_3 + 2 * u * r)
    let y = pointwiseMin(SIMD4(repeating: 256), pointwiseMax(.zero, 128 - l * (128 / Double.pi)))
    return y * (8_388_608.0 / 11)
  }
}
