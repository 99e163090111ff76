import BenchHarness
import SpatialIndexes
import BenchFormats
import BenchWorkloads
import MapClustering

/// `bench export [run options] --points-out FILE.csv --queries-out FILE.csv`:
/// writes the dataset's points (`id,lat,lon`) and the session's viewports as
/// a query file (`min_lat,min_lon,max_lat,max_lon,zoom`, one row per step;
/// `min_lon > max_lon` where a viewport crosses the antimeridian), so another
/// library in any language can run exactly the same work with `bench query`'s
/// contract. Numbers are written in the shortest form that reads back exactly.
func exportCommand(_ arguments: [String]) throws -> Int32 {
  let options = try RunOptions.parse(arguments, command: "export")
  guard let pointsOut = options.pointsOut else {
    throw UsageError("--points-out is required", command: "export")
  }
  guard let queriesOut = options.queriesOut else {
    throw UsageError("--queries-out is required", command: "export")
  }
  guard pointsOut != queriesOut else {
    throw UsageError("--points-out and --queries-out name the same file", command: "export")
  }
  try checkOutputPath(pointsOut)
  try checkOutputPath(queriesOut)
  let datasets = try DatasetResolver.load(options, command: "export")
  guard datasets.count == 1 else { throw UsageError("export takes one --n value", command: "export") }
  let dataset = datasets[0]
  let inputs = WorkloadInputs(dataset: dataset, options: options, queries: nil)

  var points = "id,lat,lon\n"
  points.reserveCapacity(dataset.count * 32)
  for (p, id) in zip(dataset.points, dataset.ids) {
    points += "\(id),\(p.y),\(p.x)\n"
  }
  var queries = "min_lat,min_lon,max_lat,max_lon,zoom\n"
  for (viewport, rects) in zip(inputs.viewports, inputs.viewportRects) {
    let q = geoQuery(rects)
    queries += "\(q.minLat),\(q.minLon),\(q.maxLat),\(q.maxLon),\(viewport.zoom)\n"
  }
  // Both or neither: the points file is renamed into place only after the
  // queries file was, and is discarded if writing the queries failed.
  try ReportFile._writeAtomically(Array(points.utf8), to: pointsOut, mode: 0o644) { () throws(ReportError) in
    try ReportFile.writeAtomically(Array(queries.utf8), to: queriesOut)
  }
  printError("bench: wrote \(dataset.count) points to \(pointsOut) and \(inputs.viewports.count) queries to \(queriesOut)")
  return 0
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
