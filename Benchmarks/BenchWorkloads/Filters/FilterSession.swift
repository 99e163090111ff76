import BenchFormats
import MapClustering
import _SeededRandom

/// The filters a person sets while they browse a map with filter controls:
/// category chips they toggle (a hotel's `chain`, its `stars`) and a slider
/// on a number (`price <= x`), one filter a step beside the session's pans
/// and zooms. The `filters` workload clusters each step's view with that
/// step's filter (``FilterSessionWorkload``).
///
/// Each step after the first draws one action from sub-stream 3 of the
/// seed, so the viewports and taps stay the session's (sub-streams 1 and 2):
/// - **keep** (35%): only the view moves;
/// - **toggle a chip** (35%): a chip field uniformly, then one of its
///   ``chipCount`` commonest values uniformly, switched on or off;
/// - **move the slider** (20%): to the value of a point drawn uniformly
///   (so the slider lands where the values are), written at the column's
///   scale; with no slider, a chip is toggled instead;
/// - **reset** (10%): every chip off and the slider back at its end.
///
/// The first step shows every point. A chip field with no chip on, and a
/// slider at its end, filter nothing; a step whose controls all do passes
/// every point (the aggregates are still reported).
///
/// Only datasets whose properties are known have controls (``forDataset(_:)``):
/// the `hotels` generator and the bundled places, airports and zipcodes.
public struct FilterSession: Sendable, Equatable {
  /// The category fields shown as chips, in order.
  public var chips: [String]
  /// The numeric field under the slider, if any, and its direction:
  /// `<=` (a maximum price) or `>=` (a minimum population).
  public var slider: (field: String, atMost: Bool)?
  /// What each marker reports ("12 hotels, from 89").
  public var aggregates: [ClusterAggregate]

  /// How many of a chip field's commonest values are shown as chips.
  public static let chipCount = 8
  /// The shares of the actions, in the order above.
  public static let actionShares = (keep: 0.35, chip: 0.35, slider: 0.20, reset: 0.10)
  /// The sub-stream of the seed the actions come from.
  static let stream: UInt64 = 3

  public init(chips: [String], slider: (field: String, atMost: Bool)?, aggregates: [ClusterAggregate]) {
    self.chips = chips
    self.slider = slider
    self.aggregates = aggregates
  }

  public static func == (a: FilterSession, b: FilterSession) -> Bool {
    a.chips == b.chips && a.slider?.field == b.slider?.field && a.slider?.atMost == b.slider?.atMost
      && a.aggregates == b.aggregates
  }

  /// The controls of the dataset or generator called `name`; `nil` for one
  /// whose properties are not known (a file, a generator without
  /// properties): the workload does not run there.
  public static func forDataset(_ name: String) -> FilterSession? {
    // constants: a parse failure would be the bench's own fault
    func aggregate(_ text: String) -> ClusterAggregate { try! ClusterAggregate(parsing: text) }
    switch name.lowercased() {
    case "hotels":
      return FilterSession(chips: ["chain", "stars"], slider: ("price", true), aggregates: [aggregate("min:price")])
    case BundledDataset.places.rawValue:
      return FilterSession(
        chips: ["cc"], slider: ("population", false), aggregates: [aggregate("sum:population")])
    case BundledDataset.airports.rawValue:
      return FilterSession(
        chips: ["country"], slider: ("elevation", true), aggregates: [aggregate("max:elevation")])
    case BundledDataset.zipcodes.rawValue:
      return FilterSession(chips: ["st"], slider: nil, aggregates: [])
    default:
      return nil
    }
  }

  /// The datasets with controls, for messages.
  public static let datasets = ["hotels", BundledDataset.places.rawValue, BundledDataset.airports.rawValue,
                                BundledDataset.zipcodes.rawValue]

  /// What the report's `filter` column says of the workload's rows:
  /// `chips chain,stars slider price<= aggregate min:price`.
  public var label: String {
    var parts = ["chips " + chips.joined(separator: ",")]
    if let s = slider { parts.append("slider \(s.field)\(s.atMost ? "<=" : ">=")") }
    if !aggregates.isEmpty { parts.append("aggregate " + aggregates.map(\.text).joined(separator: ",")) }
    return parts.joined(separator: " ")
  }

  /// The properties the controls read: chips as categories, the slider
  /// and the aggregates' fields as numbers.
  public var requests: [PropertyRequest] {
    var list = chips.map { PropertyRequest($0, .category) }
    var numbers = slider.map { [$0.field] } ?? []
    for a in aggregates where !numbers.contains(a.field) { numbers.append(a.field) }
    for n in numbers {
      if let k = list.firstIndex(where: { $0.name == n }) { list[k].kind = .number } else { list.append(.number(n)) }
    }
    return list
  }

  /// `base` and ``requests`` as one list, each name once: numeric when
  /// either reads it as a number (the typing rule over the run).
  public func requests(merging base: [PropertyRequest]) -> [PropertyRequest] {
    var list = base
    for r in requests {
      if let k = list.firstIndex(where: { $0.name == r.name }) {
        if r.kind == .number { list[k].kind = .number }
      } else {
        list.append(r)
      }
    }
    return list
  }

  /// Each step's filter as text (`nil`: every point passes), drawn with
  /// `seed` over `properties`, which hold the controls' columns.
  ///
  /// - Complexity: O(*n* + `steps`) for *n* points, and the chips' values
  ///   counted once.
  public func steps(_ steps: Int, properties: PropertyTable, seed: UInt64) -> [String?] {
    let chipValues = chips.map { Self.commonest(properties[$0], Self.chipCount) }
    let sliderColumn = slider.flatMap { properties[$0.field] }
    var g = SplitMix64(seed: seed).fork(Self.stream)
    var on: [[String]] = chips.map { _ in [] }
    var sliderValue: String? = nil
    var texts: [String?] = []
    texts.reserveCapacity(max(0, steps))
    let shares = Self.actionShares
    for step in 0..<max(0, steps) {
      if step > 0 {
        let u = g.nextUnit()
        var toggle = false
        if u < shares.keep {
          // only the view moves
        } else if u < shares.keep + shares.chip {
          toggle = true
        } else if u < shares.keep + shares.chip + shares.slider {
          if let column = sliderColumn, let v = Self.drawnValue(column, &g) { sliderValue = v } else { toggle = true }
        } else {
          on = chips.map { _ in [] }
          sliderValue = nil
        }
        if toggle && !chips.isEmpty {
          let f = g.nextInt(below: chips.count)
          if !chipValues[f].isEmpty {
            let v = chipValues[f][g.nextInt(below: chipValues[f].count)]
            if let k = on[f].firstIndex(of: v) { on[f].remove(at: k) } else { on[f].append(v) }
          }
        }
      }
      var clauses: [String] = []
      for (f, values) in on.enumerated() where !values.isEmpty {
        clauses.append("\(Self.quoted(chips[f])) in (\(values.map(Self.quoted).joined(separator: ", ")))")
      }
      if let s = slider, let v = sliderValue {
        clauses.append("\(Self.quoted(s.field)) \(s.atMost ? "<=" : ">=") \(v)")
      }
      texts.append(clauses.isEmpty ? nil : clauses.joined(separator: " and "))
    }
    return texts
  }

  /// The filter of each step compiled against `properties`: what the
  /// workload's runners apply (``WorkloadData/sessionFilter``).
  ///
  /// - Throws: ``RunFilterError`` when the properties lack a control's
  ///   column (the run asks for ``requests``, so only a caller's mistake).
  public func compiled(_ properties: PropertyTable, steps count: Int, seed: UInt64) throws(RunFilterError) -> StepFilter {
    let rows = steps(count, properties: properties, seed: seed).enumerated().map { k, text in
      text.map { RowFilter(text: $0, line: k + 1, field: "step") }
    }
    let run: RunFilter
    do throws(DataError) {
      run = try RunFilter(filter: .passesAll, aggregates: aggregates, rows: rows, source: "the filter session")
    } catch {
      throw .data(error)
    }
    return try run.compiled(properties, steps: count)
  }

  /// The `count` commonest values of `column`, as a filter writes them
  /// (ties to the earlier value in text order); none without the column.
  static func commonest(_ column: PropertyTable.Column?, _ count: Int) -> [String] {
    guard let column else { return [] }
    var tally: [String: Int] = [:]
    switch column {
    case .category(let c):
      var perCode = [Int](repeating: 0, count: c.values.count)
      for code in c.codes where code != CategoryColumn.missing { perCode[Int(code)] += 1 }
      for (k, n) in perCode.enumerated() where n > 0 { tally[c.values[k]] = n }
    case .decimal(let c):
      var perUnit: [Int64: Int] = [:]
      for u in c.units where u != DecimalColumn.missing { perUnit[u, default: 0] += 1 }
      for (u, n) in perUnit { tally[DecimalColumn.text(u, scale: c.scale)] = n }
    }
    return tally.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(count).map(\.key)
  }

  /// A value of `column` at a point drawn uniformly, a few tries past the
  /// missing ones; `nil` when every try missed.
  static func drawnValue(_ column: PropertyTable.Column, _ g: inout SplitMix64) -> String? {
    guard column.count > 0 else { return nil }
    for _ in 0..<16 {
      if let v = column.text(at: g.nextInt(below: column.count)) { return v }
    }
    return nil
  }

  /// `text` as a filter writes a value: bare when it holds no space,
  /// comma, parenthesis or double quote (and is not empty), else in double
  /// quotes with `""` for a quote.
  static func quoted(_ text: String) -> String {
    let bare = !text.isEmpty && !text.contains { " \t,()\"".contains($0) } && text != "and" && text != "in"
    if bare { return text }
    var out = "\""
    for c in text { out += c == "\"" ? "\"\"" : String(c) }
    return out + "\""
  }
}
