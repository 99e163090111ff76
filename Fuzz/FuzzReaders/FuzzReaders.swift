// libFuzzer target for every reader bench has: each input is handed to each
// of them. Build and run with `bash Fuzz/run.sh`. Besides crashes and
// sanitizer reports, it checks:
// - a successful read holds only finite, in-range coordinates, one id per
//   point, and ordered latitude bounds (binary points: one a 16 bytes);
// - every error names the source, a line that exists, and exit code 65;
// - the fast number path gives the same bits as the standard library;
// - GeoJSON: ids are 0..<n, and the same bytes handed out in small pieces
//   (every token cut somewhere) give the same points or the same error;
// - a report the reader takes goes on, as `bench plot`, `report` and
//   `compare` take it: every chart and the HTML page render with finite
//   coordinates, its verdicts print, and compared with itself (keys
//   unique) it has no regression;
// - a guide (bench docs) is made again from its own blocks unchanged;
// - a coastline file read is drawn under a map at zoom 0, across the
//   antimeridian and close up, with finite coordinates and plain path data.
// - properties: a CSV file's columns (every one but the coordinates and the
//   id, numbers and categories in turn) and the GeoJSON properties `p`
//   (a number) and `c` (a category) read into sound columns, which written
//   and read back are the same table; the decimal parser agrees with a
//   reference built on the standard library's Int64.
// - filters: the whole input, and each `filter` field of a queries or taps
//   file, read as a filter (`--filter`) and as an aggregate list
//   (`--aggregate`): a fault names a position within the text; a filter
//   read compiles against properties that have its fields, and a point
//   missing every value passes only the empty filter.
import BenchFormats
import BenchHarness
import MapClustering
import SpatialIndexes

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  var lines = 1
  for b in bytes where b == UInt8(ascii: "\n") { lines += 1 }

  func checkError(_ error: DataError, source: String = "fuzz.csv") {
    precondition(error.exitCode == 65, "unexpected error kind: \(error)")
    precondition(error.file == source, "bad source: \(error)")
    precondition(error.description.hasPrefix(source + ":"), "bad description: \(error)")
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
    let file = try TapsFile(parsing: bytes, source: "fuzz.csv")
    for t in file.taps {
      precondition(abs(t.latitude) <= 90 && abs(t.longitude) <= 180, "out of range: \(t)")
      precondition(QueriesFile.zoomRange.contains(t.zoom), "zoom out of range: \(t)")
    }
  } catch {
    checkError(error)
  }

  do {
    let file = try BinaryPoints.parse(bytes, source: "fuzz.f64")
    precondition(file.points.count == size / BinaryPoints.pointSize && size % BinaryPoints.pointSize == 0)
    for p in file.points {
      precondition(abs(p.y) <= 90 && abs(p.x) <= 180, "out of range: \(p)")
    }
  } catch {
    // a binary file's "line" is the 1-based point number
    precondition(error.exitCode == 65 && error.file == "fuzz.f64", "binary: \(error)")
    let point = error.line ?? 0
    precondition(point >= 1 && point <= size / BinaryPoints.pointSize + 1, "point \(point) of \(size) bytes")
  }

  checkGeoJSON(bytes, checkError)
  checkProperties(bytes, checkError)
  if size <= 512 { checkFilter(String(decoding: bytes, as: UTF8.self)) }
  for file in [try? QueriesFile(parsing: bytes, source: "fuzz.csv")] {
    for row in file?.filters ?? [] {
      guard let row else { continue }
      precondition(row.line >= 1 && row.line <= lines, "filter row: line \(row.line) of \(lines)")
      checkFilter(row.text)
    }
  }

  do {
    checkReport(try ReportSchema.parse(Array(bytes), path: "fuzz.csv"))
  } catch {
    precondition(error.exitCode == 65 && error.path == "fuzz.csv", "report: \(error)")
  }

  do {
    let file = try CoastlineFile(parsing: Array(bytes), source: "fuzz.txt")
    precondition(file.starts.first == 0 && file.starts.last == file.points.count)
    for i in 0..<file.polylineCount { precondition(file.polyline(i).count >= 2, "a short polyline") }
    for p in file.points {
      precondition(abs(p.y) <= 90 && abs(p.x) <= 180, "out of range: \(p)")
    }
    checkCoastlines(Coastlines(file, credit: "fuzz"))
  } catch {
    checkError(error, source: "fuzz.txt")
  }

  // A guide's generated blocks (bench docs): each found, the guide made
  // again from its own blocks unchanged, an error on a line that exists.
  let text = String(decoding: bytes, as: UTF8.self)
  do {
    let guide = try MarkdownGuide(parsing: text, file: "fuzz.md")
    precondition(guide.replacing(guide.blocks.map(\.text)) == text, "a guide changed by its own blocks")
    for block in guide.blocks { _ = try? CommandWords.split(block.command) }
    _ = HandTypedFigures.find(in: guide, file: "fuzz.md")
  } catch {
    precondition(error.exitCode == 65 && error.file == "fuzz.md", "guide: \(error)")
    precondition(error.line >= 1 && error.line <= lines, "guide: line \(error.line) of \(lines)")
  }

  // Differential check of the decimal parser on the whole input.
  if size <= 40 { checkDecimal(bytes) }

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

/// What `bench plot`, `report` and `compare` do with the rows of a report
/// the reader took: none may trap, and what they draw must be usable.
func checkReport(_ rows: [ReportRow]) {
  for file in ReportPlots.make(rows).files { checkCoordinates(file.svg, file.name) }
  // the catalogue's budgeted workloads (BenchWorkloads, not in this package)
  let workloads = ["viewport", "cluster", "tap", "nearest"].map { BudgetedWorkload(name: $0, share: 0.25) }
    + [BudgetedWorkload(name: "live", share: 0.5, onlyWhenLive: true)]
  let budget = FrameBudget(
    framesPerSecond: 60, memoryLimitBytes: rows.first.map { $0.peakRSSBytes }, live: true, workloads: workloads)
  let page = HTMLReport(
    title: "fuzz", rows: rows, budget: budget, map: .failure(.init("no map")), commands: ["bench report fuzz.csv"])
  checkCoordinates(page.render(), "the page")
  for verdict in Verdict.all(in: rows, budget: budget) { precondition(!verdict.lines.isEmpty) }
  let itself = Comparison(baseline: rows, current: rows)
  _ = itself.text() + itself.markdown()
  if Set(rows.map(\.key)).count == rows.count {
    precondition(itself.outcome == (rows.isEmpty ? .nothingCompared : .noRegression), itself.summary())
  }
  // against a report of the rows' second half, figures shifted
  let later = rows.dropFirst(rows.count / 2).map { row in
    var r = row
    r.timing.median = row.timing.p99
    r.counters.nodesVisited = row.counters.pointsTested
    return r
  }
  let comparison = Comparison(baseline: rows, current: later)
  _ = comparison.text() + comparison.markdown()
}

/// A map over `coast` at zoom 0 on a screen wider than the world, across
/// the antimeridian, and at zoom 18: no trap, finite coordinates, and path
/// data of moves, lines and plain numbers only.
func checkCoastlines(_ coast: Coastlines) {
  let views = [
    Viewport(center: Point(x: 0, y: 0), zoom: 0, width: 1024, height: 300),
    Viewport(center: Point(x: 180, y: -17), zoom: 5),
    Viewport(center: Point(x: 2.35, y: 48.86), zoom: 18),
  ]
  for v in views {
    let svg = MapPicture(title: "fuzz", panels: [.init(viewport: v, markers: [])], coastlines: coast)
      .render()
    checkCoordinates(svg, "the coastlines at z\(v.zoom)")
    var rest = Substring(svg)
    while let open = rest.range(of: " d=\"") {
      guard let close = rest[open.upperBound...].firstIndex(of: "\"") else { break }
      let d = rest[open.upperBound..<close]
      precondition(d.allSatisfy { "Mlq0123456789.- ".contains($0) }, "path data: \(d.prefix(60))")
      rest = rest[close...].dropFirst()
    }
  }
}

/// Every coordinate and length attribute of the SVG or HTML `text`
/// (`x="…"`, `width="…"`, `points="…"`) holds finite numbers: a `nan` there
/// is a chart no reader draws.
func checkCoordinates(_ text: String, _ what: String) {
  let numeric: Set<Substring> = ["x", "y", "x1", "y1", "x2", "y2", "width", "height", "cx", "cy", "r", "points"]
  var rest = Substring(text)
  while let open = rest.range(of: "=\"") {
    var start = open.lowerBound
    while start > rest.startIndex, rest[rest.index(before: start)].isLetter || "-0123456789".contains(rest[rest.index(before: start)]) {
      start = rest.index(before: start)
    }
    let name = rest[start..<open.lowerBound]
    guard let close = rest[open.upperBound...].firstIndex(of: "\"") else { break }
    if numeric.contains(name) {
      let value = rest[open.upperBound..<close]
      let parts = name == "points" ? value.split(whereSeparator: { $0 == " " || $0 == "," }) : [value]
      for part in parts {
        let number = part.hasSuffix("%") ? Double(part.dropLast()) : Double(part)
        precondition(number?.isFinite == true, "\(what): \(name)=\"\(value.prefix(60))\"")
      }
    }
    rest = rest[rest.index(after: close)...]
  }
}

/// The GeoJSON reader on the whole input, from memory and again in pieces of
/// 1 to 16 bytes (the size from the input's first byte), which must agree.
func checkGeoJSON(
  _ bytes: UnsafeBufferPointer<UInt8>, _ checkError: (DataError, String) -> Void
) {
  let source = "fuzz.geojson"
  let whole: Result<PointsFile, DataError>
  do {
    let file = try GeoJSONPoints.parse(bytes, source: source)
    precondition(file.source == source)
    precondition(file.ids.elementsEqual(0..<UInt64(file.points.count)), "ids not 0..<n")
    for p in file.points {
      precondition(p.x.isFinite && p.y.isFinite, "not finite: \(p)")
      precondition(p.y >= -90 && p.y <= 90 && p.x >= -180 && p.x <= 180, "out of range: \(p)")
    }
    whole = .success(file)
  } catch {
    checkError(error, source)
    whole = .failure(error)
  }
  let size = bytes.isEmpty ? 1 : Int(bytes[0] % 16) + 1
  let pieces = Result { () throws(DataError) in
    try GeoJSONPoints.read(from: Pieces(bytes: bytes, size: size), source: source)
  }
  switch (whole, pieces) {
  case let (.success(a), .success(b)):
    precondition(
      a.points.map(\.x.bitPattern) == b.points.map(\.x.bitPattern)
        && a.points.map(\.y.bitPattern) == b.points.map(\.y.bitPattern) && a.ids == b.ids,
      "pieces of \(size) read other points")
  case let (.failure(a), .failure(b)):
    precondition(a == b, "pieces of \(size): \(b), whole: \(a)")
  default:
    preconditionFailure("pieces of \(size) and the whole input disagree: \(whole) vs \(pieces)")
  }
}

/// A buffer handed out `size` bytes at a time, as a slow pipe would.
struct Pieces: ByteSource {
  let bytes: UnsafeBufferPointer<UInt8>
  let size: Int
  var offset = 0

  mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int {
    let n = min(size, buffer.count, bytes.count - offset)
    for i in 0..<n { buffer[i] = bytes[offset + i] }
    offset += n
    return n
  }
}

/// The properties paths: a CSV file's every other column, as numbers and
/// categories in turn, and GeoJSON's `p` and `c`; what is read is sound
/// and reads back the same once written.
func checkProperties(_ bytes: UnsafeBufferPointer<UInt8>, _ checkError: (DataError, String) -> Void) {
  let coordinates = Set(PointsFile.latitudeNames + PointsFile.longitudeNames + PointsFile.idNames)
  if let table = try? CSVTable(bytes, source: "fuzz.csv") {
    var requests: [PropertyRequest] = []
    for name in table.header where !coordinates.contains(name.lowercased()) && !requests.contains(where: { $0.name == name }) {
      requests.append(PropertyRequest(name, requests.count % 2 == 0 ? .number : .category))
    }
    do {
      let file = try PointsFile(parsing: bytes, source: "fuzz.csv", properties: requests)
      checkTable(file, requests)
      let again = try PointsFile(
        parsing: PointFileFormat.csv.bytes(points: file.points, ids: file.ids, properties: file.properties),
        source: "again.csv", properties: requests)
      precondition(again.properties == file.properties && again.ids == file.ids, "CSV properties changed on the way back")
      checkGeoJSONRoundTrip(file, requests)
    } catch {
      precondition(error.file != "again.csv", "what was written did not read back: \(error)")
      checkError(error, "fuzz.csv")
    }
  }
  let requests: [PropertyRequest] = [.number("p"), .category("c")]
  do {
    let file = try GeoJSONPoints.parse(bytes, source: "fuzz.geojson", properties: requests)
    checkTable(file, requests)
    checkGeoJSONRoundTrip(file, requests)
  } catch {
    precondition(error.file != "again.geojson", "what was written did not read back: \(error)")
    checkError(error, "fuzz.geojson")
  }
}

/// One column a request, in order, one value a point; codes in range and
/// values distinct and non-empty; each number's text reads back as itself.
func checkTable(_ file: PointsFile, _ requests: [PropertyRequest]) {
  precondition(file.properties.requests == requests, "other columns than asked for")
  for column in file.properties.columns {
    precondition(column.count == file.count, "a column of \(column.count) values for \(file.count) points")
    switch column {
    case .category(let c):
      precondition(Set(c.values).count == c.values.count && !c.values.contains(""), "values not distinct")
      for code in c.codes { precondition(code == CategoryColumn.missing || Int(code) < c.values.count) }
    case .decimal(let c):
      precondition((0...DecimalNumber.maxDigits).contains(c.scale))
      for i in 0..<c.count {
        guard let text = c.text(at: i) else { continue }
        guard case .value(let v) = DecimalNumber.parse(text), v.digits == c.scale, v.units == c.units[i] else {
          preconditionFailure("\(text) does not read back as \(c.units[i]) at scale \(c.scale)")
        }
      }
    }
  }
}

/// Written as GeoJSON and read back, the same points and table (values
/// and names the JSON reader keeps whole: at most 1,024 bytes).
func checkGeoJSONRoundTrip(_ file: PointsFile, _ requests: [PropertyRequest]) {
  let short = file.properties.columns.allSatisfy { column in
    guard column.name.utf8.count <= 1024 else { return false }
    if case .category(let c) = column { return c.values.allSatisfy { $0.utf8.count <= 1024 } }
    return true
  }
  guard short else { return }
  let bytes = PointFileFormat.geoJSON.bytes(points: file.points, ids: file.ids, properties: file.properties)
  do {
    let again = try GeoJSONPoints.parse(bytes, source: "again.geojson", properties: requests)
    precondition(again.properties == file.properties, "GeoJSON properties changed on the way back")
    precondition(again.points == file.points, "GeoJSON points changed on the way back")
  } catch {
    preconditionFailure("what was written as GeoJSON did not read back: \(error)")
  }
}

/// `DecimalNumber.parse` against the standard library: the same syntax
/// checked by hand, the units by `Int64(_:)` on the digits.
func checkDecimal(_ bytes: UnsafeBufferPointer<UInt8>) {
  var text = String(decoding: bytes, as: UTF8.self)
  while let c = text.first, c == " " || c == "\t" { text.removeFirst() }
  while let c = text.last, c == " " || c == "\t" { text.removeLast() }
  let parsed = DecimalNumber.parse(bytes)
  if text.isEmpty { return precondition(parsed == .empty, "\(parsed) for spaces") }
  let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
  let parts = body.split(separator: ".", omittingEmptySubsequences: false)
  let ascii = { (s: Substring) in !s.isEmpty && s.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
  guard parts.count <= 2, parts.allSatisfy(ascii) else {
    return precondition(parsed == .notADecimal, "\(parsed) for \(text)")
  }
  let fraction = parts.count == 2 ? parts[1] : ""
  if fraction.count > DecimalNumber.maxDigits { return precondition(parsed == .tooManyDigits, "\(parsed) for \(text)") }
  let digits = String(parts[0] + fraction)
  guard let magnitude = Int64(digits) else { return precondition(parsed == .tooLarge, "\(parsed) for \(text)") }
  let units = text.hasPrefix("-") ? -magnitude : magnitude
  precondition(parsed == .value(DecimalNumber(units: units, digits: fraction.count)), "\(parsed) for \(text)")
}

/// A filter's text (`--filter`, a `filter` field) and an aggregate list
/// (`--aggregate`): no trap; a fault's position lies within the text (or
/// just past its end); a filter read compiles against three points whose
/// properties its fields name, each a number where the filter compares it
/// with `>=` or `<=` (the typing rule), and the point with no value passes
/// only the empty filter.
func checkFilter(_ text: String) {
  func checkPosition(_ error: ClusteringError) {
    guard case .invalidFilter(let message, let position) = error else {
      preconditionFailure("a filter's fault is not invalidFilter: \(error)")
    }
    precondition(!message.isEmpty, "an empty message")
    if let position {
      precondition(position >= 1 && position <= text.count + 1, "position \(position) of \(text.count)")
    }
  }
  for part in text.split(separator: ",", omittingEmptySubsequences: false).prefix(8) {
    do throws(ClusteringError) {
      let a = try ClusterAggregate(parsing: String(part))
      precondition(!a.field.isEmpty && a.text == String(part), "aggregate \(a.text) from \(part)")
    } catch {
      checkPosition(error)
    }
  }
  let filter: PointFilter
  do throws(ClusteringError) {
    filter = try PointFilter(parsing: text)
  } catch {
    return checkPosition(error)
  }
  let fields = filter.fields()
  precondition(fields.isEmpty == filter.isEmpty, "fields of \(text)")
  var properties = PointProperties()
  for f in fields {
    precondition(!f.name.isEmpty, "an empty field name in \(text)")
    do throws(ClusteringError) {
      if f.numeric {
        try properties.addNumber(f.name, units: [0, 150, Int64.min], scale: 2)
      } else {
        try properties.addCategory(f.name, values: ["a", "b, \"c\"", nil])
      }
    } catch {
      preconditionFailure("properties for \(text): \(error)")
    }
  }
  do throws(ClusteringError) {
    let query = try PropertyQuery(filter: filter, properties: properties)
    _ = query.matches(0)
    _ = query.matches(1)
    precondition(query.matches(2) == filter.isEmpty, "a point with no value passed \(text)")
    precondition(!query.matches(-1) && (fields.isEmpty || !query.matches(3)), "an id beyond the points passed")
  } catch {
    // an `in` value that is not a decimal, on a field made numeric by another clause
    checkPosition(error)
  }
}
