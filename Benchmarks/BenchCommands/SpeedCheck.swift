import Foundation
import BenchHarness
import SpatialIndexes
import Workloads

#if canImport(Glibc)
import Glibc
#endif

/// The core issue's fixed workload: `n` uniform points in the world box and
/// batches of square-ish queries covering a given fraction of its area.
/// Prints median µs per query over `repeats` runs of each batch.
struct SpeedCheck {
  var n = 1_000_000
  var queries = 1_000
  var repeats = 5
  var fractions: [Double] = [1e-4, 1e-3, 1e-2]
  var seed: UInt64 = 1

  func points() -> [Point] {
    var g = SplitMix64(seed: seed)
    return (0..<n).map { _ in Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -90, 90)) }
  }

  func rects(fraction: Double) -> [Rect] {
    var g = SplitMix64(seed: seed &+ 1)
    let w = 360 * fraction.squareRoot(), h = 180 * fraction.squareRoot()
    return (0..<queries).map { _ in
      let x = g.nextDouble(in: -180, 180 - w), y = g.nextDouble(in: -90, 90 - h)
      return Rect(minX: x, minY: y, maxX: x + w, maxY: y + h)
    }
  }

  func run<I: SpatialIndex>(_ type: I.Type, parameters: I.Parameters, points: [Point]) throws {
    var buildTimes: [Double] = []
    var index: I? = nil
    for _ in 0..<max(1, repeats) {
      let t0 = monotonicNanoseconds()
      index = try I(points: points, parameters: parameters)
      buildTimes.append(Double(monotonicNanoseconds() - t0) / 1e6)
    }
    let built = index!
    var line = "\(built.label.padding(toLength: 28, withPad: " ", startingAt: 0)) build \(fmt(median(buildTimes))) ms"
    line += "  \(fmt(Double(built.memoryBytes) / Double(max(1, points.count)))) B/pt"
    var buffer: [Int32] = []
    buffer.reserveCapacity(points.count)
    for f in fractions {
      let rs = rects(fraction: f)
      var perQuery: [Double] = []
      var hits = 0
      for _ in 0..<repeats {
        hits = 0
        let t0 = monotonicNanoseconds()
        for r in rs {
          buffer.removeAll(keepingCapacity: true)
          built.query(in: r, into: &buffer)
          hits &+= buffer.count
        }
        perQuery.append(Double(monotonicNanoseconds() - t0) / 1e3 / Double(rs.count))
      }
      blackHole(hits)
      line += "  \(f): \(fmt(median(perQuery))) µs (\(hits / rs.count) hits)"
    }
    print(line)
  }
}

func monotonicNanoseconds() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func median(_ xs: [Double]) -> Double {
  let s = xs.sorted()
  guard !s.isEmpty else { return 0 }
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func fmt(_ x: Double) -> String {
  x >= 100 ? String(Int(x.rounded())) : String(format2(x))
}

private func format2(_ x: Double) -> String {
  let r = (x * 100).rounded() / 100
  return "\(r)"
}
