import SpatialIndexes
import Testing
import BenchFormats

/// The three bundled files in `datasets/` read completely, with the row
/// counts `datasets/README.md` gives, and pinned first and last rows.
@Suite struct BundledDatasetTests {
  struct Expectation: Sendable, CustomStringConvertible {
    var file: String
    var rows: Int
    var first: (id: UInt64, lat: Double, lon: Double)
    var last: (id: UInt64, lat: Double, lon: Double)
    var description: String { file }
  }

  static let all = [
    Expectation(
      file: "geonames_cities1000.csv", rows: 170_391,
      first: (12, 32.05908, 48.86752), last: (13_665_338, 36.94611, 137.56)),
    Expectation(
      file: "airports.csv", rows: 28_298,
      first: (1, 38.704022, -101.473911), last: (28_298, 32.62918, 110.79801)),
    Expectation(
      file: "us_zipcodes.csv", rows: 41_917,
      first: (501, 40.8154, -73.0451), last: (99_950, 55.3422, -131.6478)),
  ]

  @Test(arguments: all)
  func readsCompletely(_ e: Expectation) throws {
    let path = datasetPath(e.file)
    let file = try PointsFile(contentsOf: path)
    #expect(file.source == path)
    #expect(file.count == e.rows)
    #expect(file.ids.count == e.rows)
    #expect(file.ids.first == e.first.id)
    #expect(file.points.first == Point(latitude: e.first.lat, longitude: e.first.lon))
    #expect(file.ids.last == e.last.id)
    #expect(file.points.last == Point(latitude: e.last.lat, longitude: e.last.lon))
    // Ids are unique and ascending in all three files.
    #expect(zip(file.ids, file.ids.dropFirst()).allSatisfy { $0 < $1 })
  }

  /// The properties datasets/README.md lists: every row has a value.
  @Test func placesCarryCountryAndPopulation() throws {
    let file = try PointsFile(
      contentsOf: datasetPath("geonames_cities1000.csv"), properties: [.category("cc"), .number("population")])
    let cc = try #require(file.properties.category("cc"))
    let population = try #require(file.properties.decimal("population"))
    #expect(cc.values.count == 246)
    #expect(cc.value(at: 0) == "IR")
    #expect(population.scale == 0)
    #expect(population.units.first == 1266)
    #expect(population.units.max() == 24_874_500)
    #expect(population.units.min() == 0)
    #expect(population.units.filter { $0 == 0 }.count == 11_933, "GeoNames' 0: no figure")
  }

  @Test func airportsCarryCountryAndElevation() throws {
    let file = try PointsFile(
      contentsOf: datasetPath("airports.csv"), properties: [.category("country"), .number("elevation")])
    let country = try #require(file.properties.category("country"))
    let elevation = try #require(file.properties.decimal("elevation"))
    #expect(country.values.count == 234)
    #expect(!country.codes.contains(CategoryColumn.missing))
    #expect(elevation.scale == 2, "one elevation has 2 decimals, 3,116 have 1")
    #expect(elevation.text(at: 0) == "3435.00")
    #expect(elevation.units.min() == -126_600)
    #expect(elevation.units.max() == 1_496_500)
  }

  @Test func southPoleStationIsThere() throws {
    let file = try PointsFile(contentsOf: datasetPath("airports.csv"))
    #expect(file.points.contains(Point(x: 0, y: -90)))
  }
}
