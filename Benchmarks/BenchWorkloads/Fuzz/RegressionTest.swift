import BenchFormats
import MapClustering
import SpatialIndexes

/// A shrunk failure written out to be pasted: a Swift Testing test that
/// calls the libraries as an app does, the points as literals, the failing
/// step's query, and the answer the documented rule gives; and, where the
/// command can ask it, the `bench query` that shows it.
///
/// The test imports only `SpatialIndexes`, `MapClustering` and `Testing`.
/// It checks the failing step alone, except for the live workload, whose
/// frames build on each other: it replays every frame up to the failing one.
public struct RegressionTest {
  public let fuzzCase: FuzzCase
  public let failure: FuzzFailure
  /// How it was found, for the test's name and comment: the seed and case.
  public let seed: UInt64?
  public let caseNumber: Int?
  /// The Swift name of the failing index's type (`KDTreeIndex`).
  public let typeName: String

  package init(
    fuzzCase: FuzzCase, failure: FuzzFailure, seed: UInt64? = nil,
    caseNumber: Int? = nil, extraIndexes: [any DescribedIndex.Type] = []
  ) {
    self.fuzzCase = fuzzCase
    self.failure = failure
    self.seed = seed
    self.caseNumber = caseNumber
    let name = failure.signature.index
    typeName = (allIndexTypes + extraIndexes).first { $0.name == name }.map { String(describing: $0) } ?? name
  }

  var signature: FuzzFailure.Signature { failure.signature }
  var step: FuzzCase.Step { fuzzCase.steps[failure.step] }

  /// `fuzzKdtreeNearestK1Seed42Case17`.
  public var testName: String {
    var words = ["fuzz", signature.index, signature.workload] + signature.variant.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    if let seed { words.append("seed\(seed)") }
    if let caseNumber { words.append("case\(caseNumber)") }
    return words.enumerated().map { i, w in i == 0 ? w : w.prefix(1).uppercased() + w.dropFirst() }.joined()
  }

  /// The test, ready to paste into a suite.
  public var swift: String {
    var lines: [String] = []
    var found = "Found by `bench fuzz"
    if let seed { found += " --seed \(seed)" }
    found += "`"
    if let caseNumber { found += " (case \(caseNumber))" }
    lines.append("/// \(found), shrunk.")
    lines.append("/// \(signature): \(failure.detail)")
    lines.append("@Test func \(testName)() throws {")
    lines.append("  let points: [Point] = [")
    for p in fuzzCase.points { lines.append("    \(literal(p)),") }
    lines.append("  ]")
    lines += parameterLines()
    lines += propertyLines()
    lines += body()
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The parameters' lines: a `parameters` value when the index has any
  /// set, or the live workload's move strategy rebuilds a quadtree over
  /// the world (as `withMovableIndex` does).
  func parameterLines() -> [String] {
    var sweeps = fuzzCase.parameters(of: signature.index)
    let movesQuadtree = signature.workload == LiveWorkload.name && signature.variant == "move"
      && signature.index == BucketQuadtree.name
    if movesQuadtree && !sweeps.contains(where: { $0.key == "bounds" && $0.values != ["data"] }) {
      sweeps.removeAll { $0.key == "bounds" }
      sweeps.append(ParameterSweep(key: "bounds", values: ["world"]))
    }
    if sweeps.isEmpty && !usesParameters { return [] }
    var lines = ["  \(sweeps.isEmpty ? "let" : "var") parameters = \(typeName).Parameters()"]
    for s in sweeps { lines.append("  try parameters.set(\(quoted(s.key)), to: \(quoted(s.values[0])))") }
    return lines
  }

  /// Whether the body names `parameters` even with the defaults.
  var usesParameters: Bool {
    signature.workload == LiveWorkload.name && signature.variant != "move"
  }

  var indexExpression: String {
    parameterLines().isEmpty
      ? "try \(typeName)(points: points)" : "try \(typeName)(points: points, parameters: parameters)"
  }

  /// The case's data as the workloads read it (unfiltered when its filter
  /// does not compile: that failure is the one printed).
  var data: WorkloadData {
    (try? fuzzCase.workloadData()) ?? WorkloadData(points: fuzzCase.points, steps: fuzzCase.mapSteps)
  }

  /// The filter the failing workload applies at the failing step, as
  /// text; nil when it applies none.
  var stepFilter: String? {
    guard fuzzCase.filters else { return nil }
    switch signature.workload {
    case FilterSessionWorkload.name: return step.filter ?? ""
    case _ where RunFilter.filteredWorkloads.contains(signature.workload): return fuzzCase.filterText
    default: return nil
    }
  }

  /// The properties and the step's query, when the workload filters.
  func propertyLines() -> [String] {
    guard signature.kind != .error, let text = stepFilter else { return [] }
    var lines = ["  var properties = PointProperties()"]
    for column in fuzzCase.properties.columns {
      switch column {
      case .decimal(let d):
        let units = d.units.map { $0 == DecimalColumn.missing ? ".min" : String($0) }
        lines += list("  try properties.addNumber(\(quoted(d.name)), units: ", units, close: "], scale: \(d.scale))")
      case .category(let c):
        let values = (0..<c.count).map { c.value(at: $0).map(quoted) ?? "nil" }
        lines += list("  try properties.addCategory(\(quoted(c.name)), values: ", values, close: "])")
      }
    }
    let aggregates = fuzzCase.aggregates.map { ".\($0.function)(\(quoted($0.field)))" }.joined(separator: ", ")
    lines.append("  let query = try PropertyQuery(")
    lines.append("    filter: PointFilter(parsing: \(quoted(text))),")
    lines.append("    aggregates: [\(aggregates)], properties: properties)")
    return lines
  }

  func body() -> [String] {
    let data = data
    if signature.kind == .error {  // the build, which is where a refusal usually comes from
      return ["  // threw: \(failure.detail)", "  _ = \(indexExpression)"]
    }
    switch signature.workload {
    case ViewportWorkload.name:
      let expected = ViewportRule.answers(data, variant: "")[failure.step]
      return ["  let index = \(indexExpression)", "  var ids: [Int32] = []"]
        + list("  let rects = ", step.box.rects().map(rect))
        + ["  for rect in rects { index.query(in: rect, into: &ids) }"]
        + (stepFilter == nil ? [] : ["  ids.removeAll { !query.matches($0) }"])
        + ["  #expect(ids.sorted() == \(expected))"]
    case ClusterWorkload.name, FilterSessionWorkload.name:
      let rule = signature.workload == ClusterWorkload.name
        ? ClusterRule.answers(data, variant: "") : FilterSessionRule.answers(data, variant: "")
      guard failure.step < rule.count else { return ["  // the rule has no answer at this step"] }
      let expected = rule[failure.step]
      let strategy = "ClusterStrategy(rawValue: \(quoted(signature.variant)))!"
      var lines = ["  let index = \(indexExpression)", "  var clusterer = try Clusterer(index: index, points: points)"]
        + list("  let area = VisibleArea(zoom: \(step.box.zoom ?? 0), rects: ", step.box.rects().map(rect), close: "])")
      guard stepFilter != nil else {
        return lines + ["  let markers = clusterer.markers(for: area, strategy: \(strategy))"]
          + markerExpectations(expected.markers)
      }
      lines += [
        "  var markers: [ClusterMarker] = []",
        "  var aggregates: [AggregateValue] = []",
        "  try clusterer.cluster(area, strategy: \(strategy), query: query, into: &markers, aggregates: &aggregates)",
      ]
      return lines + markerExpectations(expected.markers)
        + list("  #expect(aggregates.map(\\.description) == ", expected.aggregates.map { quoted($0.description) }, close: "])")
    case TapWorkload.name where stepFilter != nil:
      let expected = TapRule.answers(data, variant: "")[failure.step]
      return [
        "  // the tap \(literal(step.tap)) at zoom \(step.tapZoom), among the points the query keeps,",
        "  // hits \(expected.map(String.init) ?? "none") (bench's FilteredTap answers it; no library call does)",
        "  _ = query",
      ]
    case TapWorkload.name:
      let expected = TapRule.answers(data, variant: "")[failure.step]
      let id = expected.map(String.init) ?? "nil"
      var lines = [
        "  let index = \(indexExpression)",
        "  let tap = Tap(at: \(literal(step.tap)), zoom: \(step.tapZoom))",
      ]
      if signature.variant == "nearest" {
        lines += [
          "  var buffer = NearestBuffer()",
          "  var counters = NoCounters()",
          "  let hit = index.nearestByNeighbours(to: tap, points: points, buffer: &buffer, counters: &counters)",
          "  #expect(hit?.id == \(id))",
        ]
      } else {
        lines.append("  #expect(index.nearestByRangeQuery(to: tap, points: points)?.id == \(id))")
      }
      return lines
    case NearestWorkload.name:
      let k = NearestWorkload.k(of: signature.variant) ?? 0
      let expected = NearestRule.answers(data, variant: signature.variant)[failure.step]
      return [
        "  let index = \(indexExpression)",
        "  var neighbours: [Neighbor] = []",
        "  index.nearest(",
        "    to: \(literal(step.position)), k: \(k), maxDistance: \(number(step.reach)), into: &neighbours)",
        "  #expect(neighbours.map(\\.id) == \(expected.map(\.id)))",
      ]
    case LiveWorkload.name:
      return liveBody(data)
    default:
      return ["  // no template for the \(signature.workload) workload: its case is printed above"]
    }
  }

  /// The live workload's frames up to the failing one, each moving the
  /// points, then listing the view and clustering it, as its runner does.
  func liveBody(_ data: WorkloadData) -> [String] {
    let expected = LiveRule.answers(data, variant: signature.variant)[failure.step]
    let frames = fuzzCase.steps.prefix(failure.step + 1)
    var lines: [String]
    switch signature.variant {
    case "buffered":
      lines = [
        "  let buffered = BufferedParameters(base: parameters, rebuildShare: \(number(data.steps.live.rebuildShare)))",
        "  var clusterer = try Clusterer(",
        "    index: try BufferedIndex<\(typeName)>(points: points, parameters: buffered), points: points)",
      ]
    default:
      lines = ["  let index = \(indexExpression)", "  var clusterer = try Clusterer(index: index, points: points)"]
    }
    lines.append("  let frames: [[PointMove]] = [")
    for f in frames {
      lines.append("    [" + f.moves.map { "PointMove(id: \($0.id), to: \(literal($0.to)))" }.joined(separator: ", ") + "],")
    }
    lines.append("  ]")
    lines.append("  let boxes: [[Rect]] = [")
    for f in frames { lines += list("    ", f.box.rects().map(rect), close: "],") }
    lines.append("  ]")
    lines.append("  let zooms = \(frames.map { $0.box.zoom ?? 0 })")
    lines += [
      "  var ids: [Int32] = []",
      "  var markers: [ClusterMarker] = []",
      "  for (frame, moves) in frames.enumerated() {",
      signature.variant == "rebuild"
        ? "    try clusterer.move(moves, rebuildingWith: parameters)" : "    try clusterer.move(moves)",
      "    ids.removeAll()",
      "    for rect in boxes[frame] { clusterer.index.query(in: rect, into: &ids) }",
      "    markers = clusterer.markers(",
      "      for: VisibleArea(zoom: zooms[frame], rects: boxes[frame]), strategy: .aggregate)",
      "  }",
      "  #expect(ids.sorted() == \(expected.ids))",
    ]
    return lines + markerExpectations(expected.markers)
  }

  func markerExpectations(_ markers: [ClusterMarker]) -> [String] {
    let keys = markers.map {
      "MarkerKey(zoom: \($0.key.zoom), column: \($0.key.column), row: \($0.key.row), count: \($0.key.count))"
    }
    return list("  #expect(markers.map(\\.key) == ", keys, close: "])") + [
      "  #expect(markers.map(\\.latitudeE7) == \(markers.map(\.latitudeE7)))",
      "  #expect(markers.map(\\.longitudeE7) == \(markers.map(\.longitudeE7)))",
      "  #expect(markers.map(\\.id) == [\(markers.map { $0.id.map(String.init) ?? "nil" }.joined(separator: ", "))])",
    ]
  }

  // MARK: - bench query

  /// The shell lines that write the case's files and ask `bench query`,
  /// with the rule's answer file; nil where the command cannot ask it (the
  /// live workload's scripted moves, a search's reach) or the case filters
  /// (the Swift test carries the properties).
  public var benchQuery: String? {
    if stepFilter != nil { return nil }
    let w = signature.workload
    var queries: String
    switch w {
    case ViewportWorkload.name, ClusterWorkload.name:
      let b = step.box
      queries = "min_lat,min_lon,max_lat,max_lon,zoom\n\(b.minLat),\(b.minLon),\(b.maxLat),\(b.maxLon),\(b.zoom ?? 0)\n"
    case TapWorkload.name:
      queries = "lat,lon,zoom\n\(step.tap.y),\(step.tap.x),\(step.tapZoom)\n"
    case NearestWorkload.name:
      guard step.reach == .infinity, (NearestWorkload.k(of: signature.variant) ?? 0) >= 1 else { return nil }
      queries = "lat,lon\n\(step.position.y),\(step.position.x)\n"
    default:
      return nil
    }
    var points = "lat,lon\n"
    for p in fuzzCase.points { points += "\(p.y),\(p.x)\n" }
    var command = "bench query --workload \(w) --index \(signature.index) --points points.csv --queries queries.csv"
    if w == NearestWorkload.name {
      command += " --k \(NearestWorkload.k(of: signature.variant)!)"
    } else if !signature.variant.isEmpty {
      command += " --strategy \(signature.variant)"
    }
    for s in fuzzCase.parameters(of: signature.index) { command += " --param \(s.key)=\(s.values[0])" }
    var one = fuzzCase
    one.steps = [step]
    guard let expected = expectedAnswerFile(one) else { return nil }
    return "cat > points.csv <<'EOF'\n\(points)EOF\ncat > queries.csv <<'EOF'\n\(queries)EOF\n\(command)\n"
      + "# the documented rule's answer:\n" + expected.split(separator: "\n").map { "# \($0)" }.joined(separator: "\n") + "\n"
  }

  /// The rule's answer file for the one-step case `c`.
  func expectedAnswerFile(_ c: FuzzCase) -> String? {
    struct Write: WorkloadTypeOperation {
      let data: WorkloadData, variant: String
      func run<W: Workload>(_ type: W.Type) throws -> String? {
        guard let rule = AnswerRules.rule(for: W.name) else { return nil }
        return write(rule, W.self)
      }
      func write<R: AnswerRule, W: Workload>(_ rule: R.Type, _ w: W.Type) -> String? {
        guard let answers = R.answers(data, variant: variant) as? [W.Answer] else { return nil }
        var csv = CSVWriter()
        csv.writeRow(["query"] + W.answerColumns)
        for (q, a) in answers.enumerated() { W.writeAnswer(a, query: q, ids: .rows(data.points.count), to: &csv) }
        return csv.text
      }
    }
    let data = (try? c.workloadData()) ?? WorkloadData(points: c.points, steps: c.mapSteps)
    var op = Write(data: data, variant: signature.variant)
    return (try? withWorkloadType(named: signature.workload, &op)) ?? nil
  }

  // MARK: - Literals

  func literal(_ p: Point) -> String { "Point(x: \(number(p.x)), y: \(number(p.y)))" }

  func rect(_ r: Rect) -> String {
    "Rect(minX: \(number(r.minX)), minY: \(number(r.minY)), maxX: \(number(r.maxX)), maxY: \(number(r.maxY)))"
  }

  /// `head[item]close` on one line when it is one short item, else an item a
  /// line, indented two more than `head`.
  func list(_ head: String, _ items: [String], close: String = "]") -> [String] {
    let oneLine = head + "[" + items.joined(separator: ", ") + close
    if items.count <= 1 && oneLine.count <= 100 { return [oneLine] }
    let indent = String(head.prefix { $0 == " " }) + "  "
    return [head + "["] + items.map { indent + $0 + "," } + [String(head.prefix { $0 == " " }) + close]
  }

  /// A Swift literal that reads back as `v` exactly (Swift prints the
  /// shortest such digits).
  func number(_ v: Double) -> String {
    if v == .infinity { return ".infinity" }
    if v == -.infinity { return "-.infinity" }
    return "\(v)"
  }

  /// A Swift string literal of `s`.
  func quoted(_ s: String) -> String {
    var out = "\""
    for c in s {
      switch c {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      default: out.append(c)
      }
    }
    return out + "\""
  }
}
