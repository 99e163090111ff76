import BenchFormats
import MapClustering

/// What a run asks of the points' properties, as text until a dataset's
/// properties are read: the filter every step applies (`--filter`), the
/// filter of each row of a queries or taps file that has its own (it
/// replaces the run's for that row), and the aggregates each cluster marker
/// reports (`--aggregate`).
///
/// The run names the properties it reads (``requests``): every field of a
/// filter or an aggregate, numeric when any filter of the run compares it
/// with `>=` or `<=` or an aggregate reads it, a category otherwise (the
/// typing rule, over the whole run).
public struct RunFilter: Sendable {
  /// The workloads a filter applies to: they list, cluster or tap only the
  /// points that pass.
  public static let filteredWorkloads = [ViewportWorkload.name, ClusterWorkload.name, TapWorkload.name]

  /// The run's filter; empty: every point passes.
  public var filter: PointFilter
  /// Per step, its row's filter and where the row stands; empty when the
  /// steps come with none.
  public var rows: [(filter: PointFilter, row: RowFilter)?]
  public var aggregates: [ClusterAggregate]
  /// The file the rows came from, for messages.
  public var rowSource: String

  /// A run with `filter` and `aggregates` and no row's filter.
  public init(filter: PointFilter, aggregates: [ClusterAggregate]) {
    self.filter = filter
    self.aggregates = aggregates
    rows = []
    rowSource = ""
  }

  /// A run with `filter` and `aggregates` whose steps are the rows of
  /// `source`, each with its `rows` filter, if any, in place of `filter`.
  ///
  /// - Throws: ``DataError/badData(file:line:field:message:)`` naming the
  ///   file, the row's line and its filter field, for a row's filter that
  ///   does not parse.
  public init(
    filter: PointFilter, aggregates: [ClusterAggregate], rows: [RowFilter?], source: String
  ) throws(DataError) {
    self.init(filter: filter, aggregates: aggregates)
    rowSource = source
    var parsed: [String: PointFilter] = [:]
    self.rows = try rows.map { row throws(DataError) -> (filter: PointFilter, row: RowFilter)? in
      guard let row else { return nil }
      if let known = parsed[row.text] { return (known, row) }
      do throws(ClusteringError) {
        let f = try PointFilter(parsing: row.text)
        parsed[row.text] = f
        return (f, row)
      } catch {
        throw Self.bad(row, source, error)
      }
    }
  }

  /// Whether the run filters or aggregates anything.
  public var isEmpty: Bool {
    filter.isEmpty && aggregates.isEmpty && rows.allSatisfy { $0?.filter.isEmpty ?? true }
  }

  /// Whether any step is filtered.
  public var filters: Bool {
    !filter.isEmpty || rows.contains { !($0?.filter.isEmpty ?? true) }
  }

  /// The properties the run reads, in the order they are first named: the
  /// run's filter, the aggregates, then the rows' filters.
  public var requests: [PropertyRequest] {
    var order: [String] = [], numeric: Set<String> = []
    func add(_ fields: [(name: String, numeric: Bool)]) {
      for f in fields {
        if !order.contains(f.name) { order.append(f.name) }
        if f.numeric { numeric.insert(f.name) }
      }
    }
    add(filter.fields(aggregating: aggregates))
    for r in rows { if let r { add(r.filter.fields()) } }
    return order.map { PropertyRequest($0, numeric.contains($0) ? .number : .category) }
  }

  /// Why the run cannot read its properties from points whose properties
  /// are called `names` (a file's header): the first name of the run's
  /// filter or aggregates that is not among them, as a usage error's
  /// message, else a row's as bad data naming the row. `nil` when every
  /// name is there. `hint` suggests a name for a misspelt one.
  public func unknownName(among names: [String], hint: (String) -> String? = { _ in nil }) -> RunFilterError? {
    let known = Set(names)
    let shown = names.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ") + (names.count > 12 ? ", …" : "")
    func unknown(_ name: String) -> String {
      let guess = hint(name).map { "did you mean \"\($0)\"? " } ?? ""
      return "no property called \"\(name)\" (\(guess)\(names.isEmpty ? "the points have none" : "the points have \(shown)"))"
    }
    for c in filter.fields() where !known.contains(c.name) {
      return .usage("--filter: " + unknown(c.name))
    }
    for a in aggregates where !known.contains(a.field) {
      return .usage("--aggregate \(a.text): " + unknown(a.field))
    }
    for r in rows {
      guard let r else { continue }
      for c in r.filter.fields() where !known.contains(c.name) {
        return .data(.badData(file: rowSource, line: r.row.line, field: r.row.field, message: unknown(c.name)))
      }
    }
    return nil
  }

  /// The filter compiled against `properties` for `steps` steps: one
  /// query for each distinct filter, shared by its steps.
  ///
  /// - Throws: ``RunFilterError/usage(_:)`` for the run's filter or
  ///   aggregates that do not fit the properties, ``RunFilterError/data(_:)``
  ///   naming the row for a row's.
  public func compiled(_ properties: PropertyTable, steps: Int) throws(RunFilterError) -> StepFilter {
    let table: PointProperties
    do throws(ClusteringError) {
      table = try properties.pointProperties()
    } catch {
      throw .usage(error.description)
    }
    let base: PropertyQuery
    do throws(ClusteringError) {
      base = try PropertyQuery(filter: filter, aggregates: aggregates, properties: table)
    } catch {
      throw .usage((aggregates.isEmpty || filter.isEmpty ? "" : "--filter or --aggregate: ") + error.description)
    }
    var queries = [base]
    var filtering = [!filter.isEmpty]
    var known: [PointFilter: Int] = [filter: 0]
    var stepQuery: [Int] = []
    if rows.contains(where: { $0 != nil }) {
      stepQuery = Array(repeating: 0, count: steps)
      for (k, r) in rows.enumerated() where k < steps {
        guard let r else { continue }
        if let q = known[r.filter] {
          stepQuery[k] = q
          continue
        }
        do throws(ClusteringError) {
          queries.append(try PropertyQuery(filter: r.filter, aggregates: aggregates, properties: table))
        } catch {
          throw .data(Self.bad(r.row, rowSource, error))
        }
        filtering.append(!r.filter.isEmpty)
        known[r.filter] = queries.count - 1
        stepQuery[k] = queries.count - 1
      }
    }
    return StepFilter(
      queries: queries, filtering: filtering, stepQuery: stepQuery, aggregates: aggregates, propertyBytes: table.bytes)
  }

  static func bad(_ row: RowFilter, _ source: String, _ error: ClusteringError) -> DataError {
    .badData(file: source, line: row.line, field: row.field, message: error.description)
  }
}

/// Why a run's filter does not fit its points: a mistake on the command
/// line (exit 64), or in a row of its queries file (exit 65).
public enum RunFilterError: Error, Equatable, Sendable {
  case usage(String)
  case data(DataError)
}

/// A run's filter compiled against its dataset's properties: what the
/// workloads' runners apply, step by step.
public struct StepFilter: Sendable {
  /// One query for each distinct filter; the run's first.
  package var queries: [PropertyQuery]
  /// Whether each query's filter has a clause (an empty one lists every
  /// point: the viewport and the tap skip it).
  package var filtering: [Bool]
  /// Per step, its query in ``queries``; empty: every step takes the first.
  package var stepQuery: [Int]
  /// The aggregates each cluster marker reports, in order.
  public var aggregates: [ClusterAggregate]
  /// The bytes of the property columns the run reads, as the library
  /// holds them (``PointProperties``: a category's codes in their width
  /// and its table, a number's units): what a filtered row holds beside
  /// the index and the clusterer.
  public var propertyBytes: Int

  /// Step `step`'s query: its filter and the aggregates.
  @inline(__always)
  package func query(step: Int) -> PropertyQuery {
    queries[step < stepQuery.count ? stepQuery[step] : 0]
  }

  /// Step `step`'s query when its filter has a clause, else `nil`: every
  /// point passes.
  @inline(__always)
  package func filterQuery(step: Int) -> PropertyQuery? {
    let k = step < stepQuery.count ? stepQuery[step] : 0
    return filtering[k] ? queries[k] : nil
  }

  /// What a report row's `filter` column says of `workload`'s rows: the
  /// filter's text, and on cluster rows ` aggregate ` and the list.
  public static func label(workload: String, filterText: String, aggregates: [ClusterAggregate]) -> String {
    guard RunFilter.filteredWorkloads.contains(workload) else { return "" }
    guard workload == ClusterWorkload.name, !aggregates.isEmpty else { return filterText }
    let list = aggregates.map(\.text).joined(separator: ",")
    return filterText.isEmpty ? "aggregate \(list)" : "\(filterText) aggregate \(list)"
  }

  /// The answer columns of the aggregates, `sum_price`, in order.
  public var aggregateColumns: [String] { aggregates.map { "\($0.function)_\($0.field)" } }
}
