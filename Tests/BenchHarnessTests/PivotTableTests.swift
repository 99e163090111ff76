import BenchHarness
import Testing

/// `bench table`'s pivot on small hand-made reports: what a cell holds and
/// how it is written, and the requests it refuses rather than guess.
@Suite struct PivotTableTests {
  /// Rows as a report holds them, numbered from line 2 (after the header).
  static func numbered(_ rows: [ReportRow], report: String = "r.csv") -> [NumberedRow] {
    rows.enumerated().map { NumberedRow(row: $1, report: report, line: $0 + 2) }
  }

  /// Viewport rows of three indexes at two sizes, and build rows.
  static let scaling: [NumberedRow] = numbered([
    testRow(index: "kdtree", params: "nodeSize=64", n: 1_000, workload: "viewport", strategy: "", median: 168),
    testRow(index: "celltree", params: "leafSize=16", n: 1_000, workload: "viewport", strategy: "", median: 175.4),
    testRow(index: "grid", params: "cellSize=0.4", n: 1_000, workload: "viewport", strategy: "", median: 70),
    testRow(index: "kdtree", params: "nodeSize=64", n: 10_000, workload: "viewport", strategy: "", median: 1_490),
    testRow(index: "celltree", params: "leafSize=16", n: 10_000, workload: "viewport", strategy: "", median: 133_000),
    testRow(index: "kdtree", params: "nodeSize=64", n: 1_000, workload: "build", strategy: "", median: 2.99e7),
  ])

  static func spec(
    where filters: [String] = [], rows: String, columns: String? = nil, values: [String],
    ratioTo: String? = nil, labels: [String] = []
  ) throws -> TableSpec {
    var spec = TableSpec()
    spec.filters = try filters.map { try TableCondition($0) }
    spec.rows = try rows.split(separator: ",").map { try TableField(String($0)) }
    spec.columns = try (columns?.split(separator: ",") ?? []).map { try TableField(String($0)) }
    spec.values = try values.map { try TableValue($0) }
    spec.ratioTo = try ratioTo.map { try TableCondition($0) }
    spec.labels = try labels.map { try TableLabel($0) }
    return spec
  }

  static func table(_ spec: TableSpec, _ rows: [NumberedRow] = scaling) throws -> String {
    try PivotTable.make(spec, from: rows).markdown
  }

  // MARK: - Layout and formatting

  /// Rows per index in first-appearance order, a column per n, a dash where
  /// no row matches; names left-aligned, figures right.
  @Test func aPivotOfIndexesBySize() throws {
    let text = try Self.table(Self.spec(where: ["workload=viewport"], rows: "index", columns: "n", values: ["median_ns"]))
    #expect(text == """
      | index | 1000 | 10000 |
      |---|---:|---:|
      | kdtree | 168 ns | 1.49 µs |
      | celltree | 175 ns | 133 µs |
      | grid | 70 ns | – |

      """)
  }

  /// Each figure in its column's unit: times to three digits, build_ms as a
  /// time, bytes a point to one decimal, counts as written.
  @Test func figuresAreWrittenInTheirUnits() throws {
    let text = try Self.table(Self.spec(
      where: ["workload=build"], rows: "index",
      values: ["median_ns", "build_ms", "bytes_per_point", "results_total", "index_bytes"]))
    #expect(text == """
      | index | median | build | bytes per point | results total | index bytes |
      |---|---:|---:|---:|---:|---:|
      | kdtree | 29.9 ms | 12.5 ms | 48.0 | 500 | 48000 |

      """)
  }

  @Test func durationsKeepThreeDigitsAcrossUnitBoundaries() {
    #expect([999, 999.6, 1_234, 9_996, 13_080, 99_960, 125_670, 1_130_000, 2.5e9].map(formatDurationShort)
      == ["999 ns", "1.00 µs", "1.23 µs", "10.0 µs", "13.1 µs", "100 µs", "126 µs", "1.13 ms", "2.50 s"])
    #expect([41.23, 119.4, 1.484, 0.02412, 9.996, 0, 1234.6].map(formatThreeDigits)
      == ["41.2", "119", "1.48", "0.0241", "10.0", "0", "1235"])
  }

  /// A figure not recorded (an empty field) is a dash, like a missing row.
  @Test func aFigureNotRecordedIsADash() throws {
    var rows = Self.scaling
    rows[0].row.churn = nil
    let text = try Self.table(Self.spec(where: ["workload=viewport", "n=1000"], rows: "index", values: ["churn"]), rows)
    #expect(text.contains("| kdtree | – |"))
  }

  /// Each value a column with its own conditions, titled; a value's
  /// condition on a field takes the place of the --where on it.
  @Test func valuesAsColumnsWithTheirOwnConditions() throws {
    let text = try Self.table(Self.spec(
      where: ["n=1000"], rows: "index",
      values: ["viewport=median_ns@workload=viewport", "build=median_ns@workload=build", "big=median_ns@n=10000@workload=viewport"]))
    #expect(text == """
      | index | viewport | build | big |
      |---|---:|---:|---:|
      | kdtree | 168 ns | 29.9 ms | 1.49 µs |
      | celltree | 175 ns | – | 133 µs |
      | grid | 70 ns | – | – |

      """)
  }

  /// A title may hold `=` (it ends at the last `=` before the first `@`).
  @Test func aTitleMayHoldAnEqualsSign() throws {
    let value = try TableValue("nearest k=10=median_ns@workload=nearest@strategy=k=10")
    #expect(value.title == "nearest k=10")
    #expect(value.figure.name == "median_ns")
    #expect(value.conditions.map(\.description) == ["workload=nearest", "strategy=k=10"])
    #expect(try TableValue("median_ns@workload=cluster@strategy=aggregate").defaultTitle == "cluster aggregate median")
  }

  // MARK: - One row a cell

  /// Two rows for one cell (the zoom bands of one run) are refused, naming
  /// the report, both lines and the field in which they differ.
  @Test func twoRowsForOneCellAreAnError() throws {
    var band = Self.scaling[0]
    band.row.key.zooms = "0-3"
    band.line = 9
    let rows = Self.scaling + [band]
    #expect {
      try Self.table(Self.spec(where: ["workload=viewport"], rows: "index", columns: "n", values: ["median_ns"]), rows)
    } throws: { error in
      let e = error as! TableError
      return e.kind == .badData && e.exitCode == 65 && e.message.contains("r.csv:2 ") && e.message.contains("r.csv:9 ")
        && e.message.contains("index=kdtree, n=1000") && e.message.contains("they differ in zooms")
    }
    // pinning the band makes the cell one row's again
    let text = try Self.table(
      Self.spec(where: ["workload=viewport", "zooms=all"], rows: "index", columns: "n", values: ["median_ns"]), rows)
    #expect(text.contains("| kdtree | 168 ns | 1.49 µs |"))
  }

  /// The same key twice across two reports: each named.
  @Test func theSameRowInTwoReportsIsAnError() throws {
    let rows = Self.numbered([Self.scaling[0].row], report: "a.csv") + Self.numbered([Self.scaling[0].row], report: "b.csv")
    #expect {
      try Self.table(Self.spec(rows: "index", values: ["median_ns"]), rows)
    } throws: { error in
      let message = (error as! TableError).message
      return message.contains("a.csv:2 ") && message.contains("b.csv:2 ") && message.contains("the same key")
    }
  }

  // MARK: - Ratios

  /// Each cell over the row with the ratio's value instead: the --where on
  /// that field set aside, the row and column values kept.
  @Test func ratiosToAReferenceRow() throws {
    let text = try Self.table(Self.spec(
      where: ["workload=viewport", "index=celltree,grid"], rows: "index", columns: "n", values: ["median_ns"],
      ratioTo: "index=kdtree"))
    #expect(text == """
      | index | 1000 | 10000 |
      |---|---:|---:|
      | celltree | 1.04× | 89.3× |
      | grid | 0.417× | – |

      """)
    // the reference itself is 1
    let own = try Self.table(Self.spec(
      where: ["workload=viewport"], rows: "index", columns: "n", values: ["median_ns"], ratioTo: "index=kdtree"))
    #expect(own.contains("| kdtree | 1.00× | 1.00× |"))
  }

  @Test func aRatioWithoutItsReferenceIsADash() throws {
    let rows = Array(Self.scaling.prefix(3)) + [Self.scaling[4]]  // no kdtree at 10000
    let text = try Self.table(
      Self.spec(where: ["workload=viewport"], rows: "index", columns: "n", values: ["median_ns"], ratioTo: "index=kdtree"), rows)
    #expect(text.contains("| celltree | 1.04× | – |"))
  }

  // MARK: - Names and order

  @Test func labelsRenameHeadersAndRows() throws {
    let text = try Self.table(Self.spec(
      where: ["workload=viewport"], rows: "index", columns: "n", values: ["median_ns"],
      labels: ["n=1000:1k", "index=kdtree:k-d tree", "index=grid:grid | hash"]))
    #expect(text.hasPrefix("| index | 1k | 10000 |\n"))
    #expect(text.contains("| k-d tree | 168 ns |"))
    #expect(text.contains("| grid \\| hash | 70 ns |"), "a | in a cell is escaped")
  }

  @Test func aLabelForAValueNotShownIsAnError() throws {
    #expect(throws: TableError.self) {
      try Self.table(Self.spec(where: ["workload=viewport"], rows: "index", values: ["median_ns"], labels: ["index=kd:x"]))
    }
    #expect(throws: TableError.self) {
      try Self.table(Self.spec(where: ["workload=viewport"], rows: "index", values: ["median_ns"], labels: ["n=1000:1k"]))
    }
  }

  /// A --where on a row field gives its order.
  @Test func aWhereListOrdersTheRows() throws {
    let text = try Self.table(Self.spec(
      where: ["workload=viewport", "index=grid,kdtree"], rows: "index", columns: "n", values: ["median_ns"]))
    #expect(text.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ")[1] } == ["grid", "kdtree"])
  }

  /// A misspelt value is an error, not a silently empty table.
  @Test func aValueNoRowHasIsAnError() throws {
    #expect {
      try Self.table(Self.spec(where: ["workload=viewprot"], rows: "index", values: ["median_ns"]))
    } throws: { error in
      let e = error as! TableError
      return e.kind == .badData && e.message.contains("workload=viewprot") && e.message.contains("it has: build, viewport")
    }
  }

  /// `params:NAME` reads one parameter; rows without it read as empty.
  @Test func rowsByOneParameter() throws {
    let rows = Self.numbered([4, 16, 64].map { size in
      testRow(index: "kdtree", params: "nodeSize=\(size);threads=auto", workload: "viewport", strategy: "", median: Double(size) * 10)
    })
    let text = try Self.table(Self.spec(rows: "params:nodeSize", values: ["median_ns"]), rows)
    #expect(text == """
      | nodeSize | median |
      |---|---:|
      | 4 | 40 ns |
      | 16 | 160 ns |
      | 64 | 640 ns |

      """)
  }

  // MARK: - Requests refused

  @Test func requestsWithoutOneMeaningAreRefused() throws {
    for bad in ["medain_ns", "index", "params:", "viewport="] {
      #expect(throws: TableError.self, "\(bad)") { try TableValue(bad) }
    }
    #expect(throws: TableError.self) { try TableLabel("index=kdtree") }
    #expect(throws: TableError.self) { try TableCondition("index") }
    let twoValues = try Self.spec(rows: "index", columns: "n", values: ["median_ns", "p99_ns"])
    #expect(throws: TableError.self) { try twoValues.check() }
    let both = try Self.spec(rows: "index", columns: "index", values: ["median_ns"])
    #expect(throws: TableError.self) { try both.check() }
    let titled = try Self.spec(rows: "index", columns: "n", values: ["x=median_ns"])
    #expect(throws: TableError.self) { try titled.check() }
    let unknown = #expect(throws: TableError.self) { try TableField("medain_ns") }
    #expect(unknown?.unknownName == "medain_ns")
  }

  @Test func unitsComeFromTheColumnNames() throws {
    let units = try ["median_ns", "build_ms", "bytes_per_point", "total_bytes_per_point", "index_bytes", "samples", "noisy"]
      .map { try #require(ReportColumn.named($0)).unit }
    #expect(units == [.nanoseconds, .milliseconds, .bytesPerPoint, .bytesPerPoint, .bytes, .count, .none])
  }
}
