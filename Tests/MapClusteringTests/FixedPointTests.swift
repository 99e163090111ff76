import MapClustering
import Testing

/// The fixed point markers are summed and averaged in, and the text
/// `bench query --workload cluster` writes it as.
@Suite struct FixedPointTests {
  @Test func degreesRoundToTheNearestUnitAndClampToTheWorld() {
    #expect(FixedPoint.units(48.856_613_4) == 488_566_134)
    #expect(FixedPoint.units(2.352_221_94) == 23_522_219)
    #expect(FixedPoint.units(-0.000_000_05) == -1, "a half rounds away from zero")
    #expect(FixedPoint.units(180) == 1_800_000_000)
    #expect(FixedPoint.units(500) == 1_800_000_000)
    #expect(FixedPoint.units(-1e300) == -1_800_000_000)
  }

  /// (sum, count, mean): halves go away from zero, and the largest sums fit.
  static let means: [(Int64, Int, Int32)] = [
    (5, 2, 3), (-5, 2, -3), (7, 2, 4), (-7, 2, -4), (1, 3, 0), (2, 3, 1), (-2, 3, -1),
    (10, 4, 3), (9, 4, 2), (0, 7, 0),
    (1_800_000_000 * 2_000_000, 2_000_000, 1_800_000_000),
    (-1_800_000_000 * Int64(Int32.max), Int(Int32.max), -1_800_000_000),
  ]

  @Test func meanRoundsHalvesAwayFromZero() {
    for (sum, count, mean) in Self.means {
      #expect(FixedPoint.mean(sum, count: count) == mean, "\(sum) / \(count)")
    }
  }

  @Test func textHasExactlySevenDecimals() {
    #expect(FixedPoint.text(488_566_134) == "48.8566134")
    #expect(FixedPoint.text(-1) == "-0.0000001")
    #expect(FixedPoint.text(0) == "0.0000000")
    #expect(FixedPoint.text(1_800_000_000) == "180.0000000")
    #expect(FixedPoint.text(-1_800_000_000) == "-180.0000000")
    #expect(FixedPoint.text(Int32.min) == "-214.7483648")
    for units in [Int32(1), 12_345_678, -987_654_321, 23_333_333] {
      #expect(Double(FixedPoint.text(units)) == FixedPoint.degrees(units))
    }
  }
}
