// libFuzzer target for the CSV readers. Build and run with `Fuzz/run.sh`.
//
// Compiled as one module together with Sources/Workloads/CSV/*.swift and the
// geometry files (with -D SPATIALBENCH_FUZZ), so it can also reach the
// internal number parser. Besides crashes and sanitizer reports, it checks:
// - a successful read holds only finite, in-range coordinates, one id per
//   point, and ordered latitude bounds;
// - every error names the source, a line that exists, and exit code 65;
// - the fast number path gives the same bits as the standard library.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
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
      precondition(q.zoom?.isFinite ?? true)
      let rects = q.rects()
      precondition(rects.count == (q.crossesAntimeridian ? 2 : 1))
    }
  } catch {
    checkError(error)
  }

  // Differential check of the number parser on the whole input.
  if size <= 80, case .value(let v) = _parseNumber(bytes) {
    let text = String(decoding: _trimmed(bytes), as: UTF8.self)
    let reference = Double(text)
    precondition(reference?.bitPattern == v.bitPattern, "\(text): \(v) vs \(String(describing: reference))")
  }
  return 0
}
