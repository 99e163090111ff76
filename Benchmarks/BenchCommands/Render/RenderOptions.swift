import Foundation
import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// Everything `bench render` reads from the command line.
struct RenderOptions {
  static let command = "render"
  /// Zoom levels map SDKs offer; the clusterer itself takes up to
  /// ``ClusterCellTable/maximumBandZoom``.
  static let zoomRange = 0...22
  /// A side of the screen, in points: from a watch to a large monitor (the
  /// SVG grows with it, one circle per marker).
  static let sizeRange = 16...4096
  /// A pan of more screens than this is a jump, not a pan.
  static let maximumPan = 100.0
  static let defaultIndex = "kdtree"

  var dataset = BundledDataset.defaultName
  var n: Int? = nil
  var seed: UInt64 = 42
  /// `x` = longitude, `y` = latitude.
  var center = Point(x: 0, y: 0)
  var zoom = 0
  var size = (width: Viewport.phone.width, height: Viewport.phone.height)
  var grid = false
  /// In screens: `dx` east, `dy` south.
  var pan: (dx: Double, dy: Double)? = nil
  var index = RenderOptions.defaultIndex
  var strategy = ClusterStrategy.singlePass
  var out: String? = nil

  var viewport: Viewport {
    Viewport(center: center, zoom: zoom, width: size.width, height: size.height)
  }

  /// The options as `bench run` reads a dataset, so `--dataset`, `--n` and
  /// `--seed` mean the same in both commands.
  var runOptions: RunOptions {
    var o = RunOptions()
    o.dataset = dataset
    o.n = n.map { [$0] }
    o.seed = seed
    return o
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> RenderOptions {
    var o = RenderOptions()
    try table.parse(arguments, into: &o)
    return o
  }

  typealias F = Flag<RenderOptions>

  static var table: FlagTable<RenderOptions> {
    FlagTable(command, [
      F("--center", "LAT,LON", help: "the screen's centre, lat in -90...90, lon in -180...180", required: true) {
        (o: inout RenderOptions, v: FlagValue) throws(UsageError) in
        let (lat, lon) = try pair(v.text, flag: v.flag, form: "LAT,LON")
        guard (-90...90).contains(lat) else { throw v.error("--center latitude \(lat) must lie in -90...90") }
        guard (-180...180).contains(lon) else { throw v.error("--center longitude \(lon) must lie in -180...180") }
        o.center = Point(x: lon, y: lat)
      },
      F("--zoom", "Z", help: "zoom level, \(zoomRange.lowerBound)...\(zoomRange.upperBound)", required: true) {
        (o: inout RenderOptions, v: FlagValue) throws(UsageError) in
        o.zoom = try v.integer(in: zoomRange)
      },
      .dataset(\.dataset, help: "bundled name, generator name or a points file (.csv, .geojson,\n.f64) (default places)"),
      F("--n", "COUNT", help: "points for a generator; for a file, a seeded sample") {
        (o: inout RenderOptions, v: FlagValue) throws(UsageError) in
        o.n = try v.integer(in: 0...RunOptions.maximumN)
      },
      .seed(\.seed, help: "seed of the generator or sample (default 42)"),
      F("--size", "WxH", help: "screen size in points, each \(sizeRange.lowerBound)...\(sizeRange.upperBound) (default 390x844)") {
        (o: inout RenderOptions, v: FlagValue) throws(UsageError) in
        o.size = try RunOptions.screenSize(v.text, v.command, flag: v.flag, range: sizeRange)
      },
      .toggle("--grid", \.grid, help: "draw the clustering cells (world-aligned) faintly"),
      F("--pan", "DX,DY",
        help: "also the view DX screens east and DY south (e.g. 0.5,0),\nside by side: markers kept, added and removed in three colours"
      ) { (o: inout RenderOptions, v: FlagValue) throws(UsageError) in
        let (dx, dy) = try pair(v.text, flag: v.flag, form: "DX,DY")
        guard abs(dx) <= maximumPan, abs(dy) <= maximumPan else {
          throw v.error("--pan \(dx),\(dy) is too far (at most \(Int(maximumPan)) screens each way)")
        }
        o.pan = (dx, dy)
      },
      .index(\.index, help: "the index that answers the queries (default \(defaultIndex))"),
      F("--strategy", "NAME", help: "per-cell, single-pass or aggregate (default single-pass; same markers)") {
        (o: inout RenderOptions, v: FlagValue) throws(UsageError) in
        guard let s = ClusterStrategy(rawValue: v.text.lowercased()) else {
          throw .unknown("strategy", v.text, valid: ClusterStrategy.allCases.map(\.rawValue), command: v.command)
        }
        o.strategy = s
      },
      .out(\.out, "FILE.svg",
           help: "the picture, replaced if there (default results/render/render-<dataset>-z<Z>.svg\nfrom the package root, else in the current folder; when that is taken,\n-2.svg, -3.svg…: a default never replaces a picture)"),
    ])
  }

  /// Two finite decimal numbers separated by a comma (`48.85,2.35`, `-0.5,0`).
  static func pair(_ text: String, flag: String, form: String) throws(UsageError) -> (
    Double, Double
  ) {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    // Digits, sign, point and exponent only: `Double(_:)` alone also takes
    // `nan`, `inf` and hexadecimal.
    let numbers = parts.compactMap { part -> Double? in
      let s = part.trimmingCharacters(in: .whitespaces)
      guard !s.isEmpty, s.allSatisfy({ "0123456789+-.eE".contains($0) }), let d = Double(s),
        d.isFinite
      else { return nil }
      return d
    }
    guard parts.count == 2, numbers.count == 2 else {
      throw UsageError("\(flag) \"\(text)\" is not \(form) (two finite numbers)", command: command)
    }
    return (numbers[0], numbers[1])
  }
}
