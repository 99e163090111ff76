import BenchFormats
import BenchHarness
import BenchWorkloads
import MapClustering
import SpatialIndexes

/// `bench export [options] --points-out FILE.csv|FILE.geojson|FILE.f64
/// --queries-out FILE.csv [--taps-out FILE.csv]`: writes the dataset's
/// points in the format the name says (`id,lat,lon` CSV, a GeoJSON
/// FeatureCollection of Points, or binary longitude, latitude pairs, see
/// ``PointFileFormat/bytes(points:ids:)``; any other name is refused), the
/// steps' viewports as a queries file (`min_lat,min_lon,max_lat,max_lon,zoom`,
/// one row per step; `min_lon > max_lon` where a viewport crosses the
/// antimeridian) and their taps (`lat,lon,zoom`), so another library in any
/// language can run exactly the same work, and `bench query` can answer it.
/// `--properties` adds the properties named (CSV columns, GeoJSON
/// `properties`), which the readers read back as the same values.
/// Numbers are written in the shortest form that reads back exactly, so the
/// files drive the same steps as the session they come from.
func exportCommand(_ arguments: [String]) throws -> Int32 {
  let command = "export"
  let options = try RunOptions.parse(arguments, command: command)
  guard let pointsOut = options.pointsOut else {
    throw UsageError("--points-out is required", command: command)
  }
  guard let queriesOut = options.queriesOut else {
    throw UsageError("--queries-out is required", command: command)
  }
  let outputs = [OutputTarget("--points-out", pointsOut), OutputTarget("--queries-out", queriesOut)]
    + (options.tapsOut.map { [OutputTarget("--taps-out", $0)] } ?? [])
  try OutputCheck.check(outputs, inputs: options.inputs)
  guard let pointFormat = PointFileFormat(path: pointsOut) else {
    throw UsageError(
      "--points-out '\(pointsOut)': the extension says the format: .csv, .geojson (or .json), or .f64",
      command: command)
  }
  if pointFormat == .binary && !options.properties.isEmpty {
    throw UsageError("--properties: a .f64 file holds no properties; write .csv or .geojson", command: command)
  }
  let datasets = try loadDatasets(options, command: command)
  guard datasets.count == 1 else { throw UsageError("export takes one --n value", command: command) }
  let dataset = datasets[0]
  let queries = try options.queriesFile.map { try QueriesFile(contentsOf: $0) }
  let steps = options.steps(for: dataset, queries: queries)
  if let why = steps.missing(.rectangles) {
    throw UsageError("\(why): --queries-out writes viewports", command: command)
  }

  // .f64 and GeoJSON number the points by position: a file's own ids do not survive
  let pointBytes = pointFormat.bytes(points: dataset.points, ids: dataset.ids, properties: dataset.properties)
  var boxes = CSVWriter()
  boxes.writeRow(["min_lat", "min_lon", "max_lat", "max_lon", "zoom"])
  for (k, rects) in (steps.rects ?? []).enumerated() {
    let q = geoQuery(rects)
    let zoom = steps.areas.map { String($0[k].zoom) } ?? ""
    boxes.writeRow([q.minLat, q.minLon, q.maxLat, q.maxLon].map(CSVWriter.field) + [zoom])
  }
  var files = [(pointsOut, pointBytes), (queriesOut, Array(boxes.text.utf8))]
  if let tapsOut = options.tapsOut {
    guard let taps = steps.taps else {
      throw UsageError("\(steps.source) gives no taps (it has no zooms) for --taps-out", command: command)
    }
    var csv = CSVWriter()
    csv.writeRow(["lat", "lon", "zoom"])
    for t in taps { csv.writeRow([CSVWriter.field(t.coordinate.y), CSVWriter.field(t.coordinate.x), String(t.zoom)]) }
    files.append((tapsOut, Array(csv.text.utf8)))
  }
  try writeAllOrNone(files)
  let written = files.map(\.0).joined(separator: ", ")
  if !options.quiet { printError("bench: wrote \(dataset.count) points and \(steps.count) steps to \(written)") }
  return 0
}

/// Writes every file or none: each is renamed into place only once the
/// next ones are written, and a failure leaves none behind.
func writeAllOrNone(_ files: [(path: String, bytes: [UInt8])]) throws(ReportError) {
  guard let (path, bytes) = files.first else { return }
  try AtomicFile._write(bytes, to: path, mode: 0o644, existing: .replace) { () throws(ReportError) in
    try writeAllOrNone(Array(files.dropFirst()))
  }
}

/// One viewport's rectangles as one GeoJSON-style bbox: two rectangles split
/// at the antimeridian become one with `minLon > maxLon`.
func geoQuery(_ rects: [Rect]) -> GeoQuery {
  guard let first = rects.first else { return GeoQuery(minLat: 0, minLon: 0, maxLat: -1, maxLon: 0) }
  if rects.count == 2 {
    let east = rects[0].minX == -180 ? rects[1] : rects[0]  // the part that ends at 180
    let west = rects[0].minX == -180 ? rects[0] : rects[1]
    return GeoQuery(minLat: first.minY, minLon: east.minX, maxLat: first.maxY, maxLon: west.maxX)
  }
  return GeoQuery(minLat: first.minY, minLon: first.minX, maxLat: first.maxY, maxLon: first.maxX)
}
