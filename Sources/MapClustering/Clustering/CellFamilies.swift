import SpatialIndexes

/// The zooms of a cell table grouped into families whose grids nest (see
/// ``_PointTable`` for why a cell number at a family's finest level gives
/// every zoom of the family by a shift), and the rows of every family from
/// one number a point (``unitRow(_:)``).
///
/// A cell side is `c = odd · 2^e` screen points; at zoom `z` its grid is
/// level `L = z − e` of the family of `odd`: `⌊map · 2^L / odd⌋`.
@usableFromInline
struct _CellFamilies: Sendable {
  /// Levels above this are not stored: a cell number must fit in 32 bits.
  static let maximumLevel = 23
  /// For zooms 0...``ClusterCellTable/maximumBandZoom``: the family (0 or 1,
  /// or -1 to compute) and the shift from its stored cells.
  @usableFromInline let family: [Int8]
  @usableFromInline let shift: [Int8]
  /// Per family (at most two): its odd factor and its finest level.
  let odd: [Int]
  let level: [Int]

  init(_ table: ClusterCellTable) {
    // the families: (odd, finest level), the first two met from zoom 0 up
    var families: [(odd: Int, level: Int)] = []
    var zoomFamily: [Int8] = [], zoomLevel: [Int] = []
    for z in 0...ClusterCellTable.maximumBandZoom {
      let c = Int(table.cellSize(zoom: z))
      let e = c.trailingZeroBitCount, odd = c >> e, level = z - e
      var f = families.firstIndex { $0.odd == odd } ?? -1
      if level > Self.maximumLevel {
        f = -1
      } else if f >= 0 {
        families[f].level = max(families[f].level, level)
      } else if families.count < 2 {
        families.append((odd, level))
        f = families.count - 1
      }
      zoomFamily.append(Int8(f))
      zoomLevel.append(level)
    }
    var zoomShift: [Int8] = []
    for z in zoomFamily.indices {
      let k = zoomFamily[z] < 0 ? 0 : families[Int(zoomFamily[z])].level - zoomLevel[z]
      if k > 31 { zoomFamily[z] = -1 }  // a 32-bit cell number shifted that far is 0
      zoomShift.append(zoomFamily[z] < 0 ? 0 : Int8(k))
    }
    family = zoomFamily
    shift = zoomShift
    odd = families.map(\.odd)
    level = families.map(\.level)
  }

  /// 2^level of family `f`'s finest level.
  func scale(_ f: Int) -> Double { Double(sign: .plus, exponent: level[f], significand: 1) }

  /// A map coordinate's cell number in the grid of side 2^-23 map units:
  /// `⌊map · 2^23⌋`, at most 2^31 on the map (clamped beyond it).
  static func unitCode(_ map: Double) -> UInt32 {
    let s = Double(sign: .plus, exponent: maximumLevel, significand: 1)
    return UInt32(clamping: MapCells.index(map, scale: s, cellSize: 1, inverse: 1))
  }

  /// How a zoom's row comes from a ``unitCode(_:)``, or nil when the zoom
  /// belongs to no family (its rows are projected).
  ///
  /// Exact: at level `L` the row is `⌊y · 2^L / odd⌋`, and with
  /// `u = ⌊y · 2^23⌋`, `⌊u / (odd · 2^(23−L))⌋` equals it because
  /// `⌊⌊a⌋ / m⌋ = ⌊a / m⌋` for a whole `m`.
  @usableFromInline
  func unitRow(_ zoom: Int) -> _UnitRow? {
    guard zoom >= 0 && zoom < family.count, family[zoom] >= 0 else { return nil }
    let f = Int(family[zoom])
    let zoomLevel = level[f] - Int(shift[zoom])
    return _UnitRow(shift: min(63, Self.maximumLevel - zoomLevel), odd: odd[f])
  }
}

/// A row from a 32-bit ``_CellFamilies/unitCode(_:)``: a shift, then a
/// division by the family's odd factor as a multiply by its reciprocal
/// rounded up, `⌊2^64 / odd⌋ + 1`, which is exact for every 32-bit dividend
/// and odd divisor below 2^32 (the error, under `2^-32`, stays below the
/// `1/odd` gap to the next whole number).
@usableFromInline
struct _UnitRow: Sendable {
  @usableFromInline let shift: UInt64
  /// 0 for an odd factor of 1: the shift alone.
  @usableFromInline let reciprocal: UInt64

  init(shift: Int, odd: Int) {
    self.shift = UInt64(max(0, shift))
    reciprocal = odd > 1 ? UInt64.max / UInt64(odd) + 1 : 0
  }

  @inlinable @inline(__always)
  func row(_ code: UInt32) -> Int {
    let v = UInt64(code) &>> shift
    return Int(truncatingIfNeeded: reciprocal == 0 ? v : v.multipliedFullWidth(by: reciprocal).high)
  }
}
