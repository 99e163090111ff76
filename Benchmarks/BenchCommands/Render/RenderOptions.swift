import Foundation
import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// Everything `bench render` reads from the command line.
struct RenderOptions {
  static let command = "render"
  static let flags = [
    "--dataset", "--n", "--seed", "--center", "--zoom", "--size", "--grid", "--pan", "--index",
    "--strategy", "--out",
  ]
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
    var reader = ArgumentReader(arguments, command: command)
    var center: Point? = nil
    var zoom: Int? = nil
    while let a = reader.next() {
      switch a {
      case "--dataset": o.dataset = try reader.value(for: a)
      case "--n": o.n = try reader.integer(for: a, in: 0...RunOptions.maximumN)
      case "--seed":
        let text = try reader.value(for: a)
        guard let s = UInt64(text) else {
          throw UsageError(
            "--seed \"\(text)\" is not a non-negative whole number", command: command)
        }
        o.seed = s
      case "--center":
        let (lat, lon) = try pair(try reader.value(for: a), flag: a, form: "LAT,LON")
        guard (-90...90).contains(lat) else {
          throw UsageError("--center latitude \(lat) must lie in -90...90", command: command)
        }
        guard (-180...180).contains(lon) else {
          throw UsageError("--center longitude \(lon) must lie in -180...180", command: command)
        }
        center = Point(x: lon, y: lat)
      case "--zoom": zoom = try reader.integer(for: a, in: zoomRange)
      case "--size":
        o.size = try RunOptions.screenSize(
          try reader.value(for: a), command, flag: a, range: sizeRange)
      case "--grid": o.grid = true
      case "--pan":
        let (dx, dy) = try pair(try reader.value(for: a), flag: a, form: "DX,DY")
        guard abs(dx) <= maximumPan, abs(dy) <= maximumPan else {
          throw UsageError(
            "--pan \(dx),\(dy) is too far (at most \(Int(maximumPan)) screens each way)",
            command: command)
        }
        o.pan = (dx, dy)
      case "--index":
        let names = try indexNames(try reader.value(for: a), command: command)
        guard names.count == 1 else {
          throw UsageError("--index takes one name here", command: command)
        }
        o.index = names[0]
      case "--strategy":
        let text = try reader.value(for: a)
        guard let s = ClusterStrategy(rawValue: text.lowercased()) else {
          throw UsageError.unknown(
            "strategy", text, valid: ClusterStrategy.allCases.map(\.rawValue), command: command)
        }
        o.strategy = s
      case "--out": o.out = try reader.value(for: a)
      default: throw unknownOption(a, command: command, valid: flags)
      }
    }
    guard let center else { throw UsageError("--center LAT,LON is required", command: command) }
    guard let zoom else { throw UsageError("--zoom Z is required", command: command) }
    o.center = center
    o.zoom = zoom
    return o
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
