// libFuzzer target for every reader bench has: each input is handed to each
// of them. Build and run with `bash Fuzz/run.sh`. Besides crashes and
// sanitizer reports, it checks:
// - a successful read holds only finite, in-range coordinates, one id per
//   point, and ordered latitude bounds;
// - every error names the source, a line that exists, and exit code 65;
// - the fast number path gives the same bits as the standard library.
import BenchFormats
import BenchHarness

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  var lines = 1
  for b in bytes where b == UInt8(ascii: "\n") { lines += 1 }

  func checkError(_ error: DataError) {
    precondition(error.exitCode == 65, "unexpected error kind: \(error)")
    precondition(error.description.hasPrefix("fuzz.csv:"), "bad description: \(error)")
    let line = error.line ?? 0
    precondition(line >= 1 && line <= lines, "line \(line) of \(lines): \(error)")
  }

  do {
    let file = try PointsFile(parsing: bytes, source: "fuzz.csv")
    precondition(file.points.count == file.ids.count)
    for p in file.points {
      precondition(p.y >= -90 && p.y <= 90 && p.x >= -180 && p.x <= 180, "out of range: \(p)")
    }
  } catch {
    checkError(error)
  }

  do {
    let file = try QueriesFile(parsing: bytes, source: "fuzz.csv")
    for q in file.queries {
      precondition(q.minLat <= q.maxLat, "inverted latitudes: \(q)")
      precondition(q.minLon >= -180 && q.maxLon <= 180 && q.minLat >= -90 && q.maxLat <= 90)
      precondition(q.zoom.map(QueriesFile.zoomRange.contains) ?? true, "zoom out of range: \(q)")
      let rects = q.rects()
      precondition(rects.count == (q.crossesAntimeridian ? 2 : 1))
    }
  } catch {
    checkError(error)
  }

  do {
    _ = try ReportSchema.parse(Array(bytes), path: "fuzz.csv")
  } catch {
    precondition(error.exitCode == 65 && error.path == "fuzz.csv", "report: \(error)")
  }

  // Differential check of the number parser on the whole input.
  if size <= 80, case .value(let v) = NumberField.parse(bytes) {
    var text = String(decoding: bytes, as: UTF8.self)
    while let c = text.first, c == " " || c == "\t" { text.removeFirst() }
    while let c = text.last, c == " " || c == "\t" { text.removeLast() }
    let reference = Double(text)
    precondition(reference?.bitPattern == v.bitPattern, "\(text): \(v) vs \(String(describing: reference))")
  }
  return 0
}
