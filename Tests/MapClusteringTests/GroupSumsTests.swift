import SpatialIndexes
import Testing
import _SpatialTestSupport
@testable import MapClustering
import _SeededRandom

/// What `aggregate` keeps by group order, checked against the definitions:
/// a run's sums against adding its points one by one, and a row from the
/// one 32-bit code a point keeps against the projection's floor.
@Suite struct GroupSumsTests {
  /// Every run `a..<b` of every size up to 70 points (sampled sums every 8
  /// positions, corrected at both ends) sums exactly what its points add
  /// one by one, including runs that end at the last point.
  @Test(arguments: [0, 1, 7, 8, 9, 16, 23, 40, 70])
  func everyRunSumsWhatItsPointsAdd(count: Int) throws {
    let points = Fixtures.uniform(count, seed: UInt64(count) + 3)
    let index = try KDTreeIndex(points: points, parameters: .init(nodeSize: 4))
    let sums = _GroupSums(index: index, points: points)
    #expect(!sums.copied, "the k-d tree's own coordinates are shared")
    let order = index.groupOrder
    sums.coordinates.withUnsafeBufferPointer { xy in
      guard let xy = xy.baseAddress else { return }
      for a in 0...count {
        for b in a...count {
          var lon: Int64 = 0, lat: Int64 = 0
          for p in order[a..<b] {
            lon += Int64(FixedPoint.units(points[Int(p)].x))
            lat += Int64(FixedPoint.units(points[Int(p)].y))
          }
          let got = sums.sums(a, b, xy)
          #expect(got.lon == lon && got.lat == lat, "run \(a)..<\(b) of \(count)")
        }
      }
    }
  }

  /// A quadtree changed since its build forms no groups, and shares no
  /// coordinates with them either (the clusterer then keeps totals by cell).
  @Test func aChangedQuadtreeSharesNeitherOrderNorCoordinates() throws {
    let points = Fixtures.uniform(100, seed: 4)
    var index = try BucketQuadtree(points: points)
    #expect(!index.groupCoordinates.isEmpty)
    _ = try index.insert(Point(x: 1, y: 1))  // no longer packed: no group order
    #expect(index.groupCoordinates.isEmpty && index.groupOrder.isEmpty)
  }

  /// The row of a zoom of either family of the default table, from the
  /// one code kept a point, is the cell row of the definition: random map
  /// y, every row edge of the coarse zooms ±1 ulp, and the map's ends.
  @Test func aRowFromTheUnitCodeIsTheProjectedRow() {
    let table = ClusterCellTable.default
    let families = _CellFamilies(table)
    var g = SplitMix64(seed: 17)
    var ys = (0..<20_000).map { _ in g.nextDouble(in: 0, 256) } + [0, 256, 128, 0.5.nextUp, 256.0.nextDown]
    for z in 0...8 {
      let c = table.cellSize(zoom: z), s = WebMercator.scale(zoom: z)
      for k in 0...Int(256 * s / c) {
        let edge = Double(k) * c / s
        ys += [edge, edge.nextUp, edge.nextDown].filter { $0 >= 0 && $0 <= 256 }
      }
    }
    var checked = 0
    for z in 0...ClusterCellTable.maximumBandZoom {
      guard let unitRow = families.unitRow(z) else { continue }
      let c = table.cellSize(zoom: z), s = WebMercator.scale(zoom: z)
      for y in ys {
        let want = MapCells.index(y, scale: s, cellSize: c, inverse: 1 / c)
        let got = unitRow.row(_CellFamilies.unitCode(y))
        if got != want {
          Issue.record("zoom \(z), map y \(y): row \(got), the definition's \(want)")
          return
        }
        checked += 1
      }
    }
    #expect(checked > 20 * 20_000, "most zooms have a family")
  }
}
