import BenchFormats
import BenchHarness
import Foundation
import Testing

@Suite struct ReportSchemaTests {
  @Test func theKeyComesFirstAndNamesAreUniqueSnakeCase() {
    #expect(Array(ReportSchema.columns.prefix(7))
      == ["index", "params", "dataset", "n", "workload", "strategy", "zooms"])
    #expect(ReportColumn.all.prefix(7).allSatisfy { $0.group == .key })
    #expect(Set(ReportSchema.columns).count == ReportSchema.columns.count)
    #expect(ReportSchema.columns.allSatisfy { $0 == $0.lowercased() && !$0.contains(" ") })
    #expect(testRow().csvFields.count == ReportSchema.columns.count)
    #expect(ReportColumn.all.allSatisfy { !$0.meaning.isEmpty })
  }

  /// The promise of `docs/formats.md`: columns are only added at the end,
  /// so a report written before the later ones existed still loads, and
  /// reads them as empty.
  @Test func anOlderReportWithoutTheLaterColumnsLoads() throws {
    var row = testRow()
    row.workloadBytes = 4_000
    let firstFormat = ReportColumn.all.filter { $0.addedIn == 1 }
    #expect(firstFormat.count < ReportColumn.all.count, "no column was added after version 1")
    let fields = firstFormat.map { $0.format(row) }
    let text = CSVWriter.line(firstFormat.map(\.name)) + CSVWriter.line(fields)
    let back = try ReportSchema.parse(text, path: "old.csv")
    #expect(back.count == 1)
    #expect(back[0].key == row.key && back[0].timing == row.timing && back[0].run == row.run)
    #expect(back[0].workloadBytes == nil)
    // and with every column, the new ones read back
    #expect(try ReportSchema.parse(ReportSchema.render([row]), path: "new.csv") == [row])
  }

  /// A points file's fingerprint is written beside its path and read back;
  /// a row of a bundled dataset or generator has none; a report written
  /// before the column does not say.
  @Test func theDatasetsOriginIsWrittenAndReadBack() throws {
    var file = testRow(dataset: "data/hotels.geojson")
    file.datasetOrigin = .file(FileFingerprint(size: 81_234, hash: 0x9F3C))
    var pipe = testRow(dataset: "/dev/stdin")
    pipe.datasetOrigin = .file(nil)
    let generator = testRow(dataset: "hotels")
    let text = ReportSchema.render([file, pipe, generator])
    // the filter, mapped and resident columns, empty, follow
    #expect(text.contains(",81234:0000000000009f3c,,,\n") && text.contains(",not-a-regular-file,,,\n"))
    #expect(try ReportSchema.parse(text, path: "r.csv") == [file, pipe, generator])
    #expect(ReportColumn.named("dataset_fingerprint")?.addedIn == 4)

    let older = ReportColumn.all.filter { $0.addedIn < 4 }
    let old = CSVWriter.line(older.map(\.name)) + CSVWriter.line(older.map { $0.format(generator) })
    #expect(try ReportSchema.parse(old, path: "old.csv").map(\.datasetOrigin) == [.unrecorded])
  }

  /// The filter column, added in version 5 (after every column of version
  /// 4), is part of the key: a row of another filter is another row.
  /// Written and read back (commas and quotes quoted); a report written
  /// before it reads it empty.
  @Test func theFilterColumnIsPartOfTheKey() throws {
    let plain = testRow()
    var filtered = testRow()
    filtered.key.filter = #"chain in ("a, b", c) aggregate sum:price,min:price"#
    #expect(ReportSchema.columns.firstIndex(of: "filter") == ReportColumn.all.filter { $0.addedIn < 5 }.count)
    #expect(ReportColumn.named("filter")?.group == .key && ReportColumn.named("filter")?.addedIn == 5)
    #expect(filtered.key != plain.key && plain.key < filtered.key)
    #expect(try ReportSchema.parse(ReportSchema.render([filtered, plain]), path: "r.csv") == [filtered, plain])
    let older = ReportColumn.all.filter { $0.addedIn < 5 }
    let old = CSVWriter.line(older.map(\.name)) + CSVWriter.line(older.map { $0.format(filtered) })
    #expect(try ReportSchema.parse(old, path: "old.csv").map(\.key) == [plain.key])
  }

  /// The mapped and resident bytes of an opened index, added last (version
  /// 6), in that order: written and read back, empty for an index in
  /// memory, and a report written before them reads them empty.
  @Test func theMappedAndResidentBytesAreTheLastColumns() throws {
    #expect(ReportSchema.version == 6)
    #expect(Array(ReportSchema.columns.suffix(2)) == ["mapped_bytes", "resident_bytes"])
    #expect(ReportColumn.named("mapped_bytes")?.addedIn == 6 && ReportColumn.named("resident_bytes")?.addedIn == 6)
    #expect(ReportColumn.named("mapped_bytes")?.group == .build)
    let inMemory = testRow()
    var opened = testRow()
    opened.mappedBytes = 26_000_128
    opened.residentBytes = 4096
    let text = ReportSchema.render([opened, inMemory])
    #expect(text.contains(",26000128,4096\n") && text.hasSuffix(",,\n"))
    #expect(try ReportSchema.parse(text, path: "r.csv") == [opened, inMemory])
    let older = ReportColumn.all.filter { $0.addedIn < 6 }
    let old = CSVWriter.line(older.map(\.name)) + CSVWriter.line(older.map { $0.format(opened) })
    let read = try ReportSchema.parse(old, path: "old.csv")
    #expect(read.map(\.mappedBytes) == [nil] && read.map(\.residentBytes) == [nil])
  }

  @Test func aFingerprintThatIsNoneIsBadData() throws {
    let good = testRow().csvFields
    let at = try #require(ReportSchema.columns.firstIndex(of: "dataset_fingerprint"))
    var bad = good
    bad[at] = "81234:9f3c"
    let text = ReportSchema.headerLine + CSVWriter.line(bad)
    #expect(throws: ReportError(
      .badData, path: "x.csv",
      detail: "line 2: dataset_fingerprint \"81234:9f3c\" is not a fingerprint (size:16 hex digits) or not-a-regular-file")) {
      try ReportSchema.parse(text, path: "x.csv")
    }
  }

  @Test func aReportWithoutAColumnOfTheFirstFormatIsBadData() {
    let columns = ReportSchema.columns.filter { $0 != "seed" }
    #expect(throws: ReportError(.badData, path: "x.csv", detail: "line 1: missing columns: seed")) {
      try ReportSchema.parse(CSVWriter.line(columns), path: "x.csv")
    }
  }

  @Test func aColumnMissingBeforeOnePresentIsBadData() {
    let columns = ReportSchema.columns.filter { $0 != "median_ns" && $0 != "p90_ns" }
    let text = CSVWriter.line(columns)
    #expect(throws: ReportError(
      .badData, path: "x.csv", detail: "line 1: missing columns: median_ns, p90_ns")) {
      try ReportSchema.parse(text, path: "x.csv")
    }
  }

  @Test func errorsNameThePhysicalLineAndTheColumn() {
    let good = CSVWriter.line(testRow().csvFields)
    let bad = good.replacingOccurrences(of: ",100.0,", with: ",fast,")
    let text = ReportSchema.headerLine + good + good + bad
    #expect(throws: ReportError(
      .badData, path: "x.csv", detail: "line 4: median_ns \"fast\" is not a number")) {
      try ReportSchema.parse(text, path: "x.csv")
    }
  }

  @Test func rowsRoundTrip() throws {
    var odd = testRow(index: "Grid, \"hash\"", params: "cell=0.5;maxDepth=32", n: 0)
    odd.counters = .none
    odd.run.machine.os = "Line one\nline two"
    odd.checksum = .max
    odd.churn = 17
    odd.key.zooms = "4-7"
    odd.buildMilliseconds = 1.0 / 3
    let rows = [testRow(), odd]
    let text = ReportSchema.render(rows)
    #expect(text.hasPrefix(ReportSchema.headerLine))
    #expect(try ReportSchema.parse(text, path: "x.csv") == rows)
  }

  @Test func derivedAndEmptyFields() throws {
    var row = testRow(n: 1_000)
    row.indexBytes = 48_000
    row.counters = ReportCounters(nodesVisited: 3)
    let fields = Dictionary(uniqueKeysWithValues: zip(ReportSchema.columns, row.csvFields))
    #expect(fields["bytes_per_point"] == "48.0")
    #expect(fields["points_tested"] == "")
    #expect(fields["nodes_visited"] == "3")
    #expect(fields["checksum"] == "0x00000000deadbeef")
    #expect(fields["noisy"] == "0")
    #expect(testRow(n: 0).bytesPerPoint == 0)
  }

  @Test func nonFiniteBuildTimeIsWrittenEmptyAndReadAsZero() throws {
    var row = testRow()
    row.buildMilliseconds = .nan
    let back = try ReportSchema.parse(ReportSchema.render([row]), path: "x.csv")
    #expect(back[0].buildMilliseconds == 0)
  }

  @Test func timingSummaryFromStatistics() {
    let t = TimingSummary(Statistics((1...100).map(Double.init)), batch: 8)
    #expect(t.samples == 100 && t.median == 50.5 && t.ciLow == 40 && t.ciHigh == 61)
    #expect(t.noisy && t.batch == 8)
  }

  @Test func missingColumnIsBadData() {
    let text = "index,params\nA,\n"
    #expect(throws: ReportError.self) { try ReportSchema.parse(text, path: "x.csv") }
    do {
      _ = try ReportSchema.parse(text, path: "x.csv")
    } catch {
      #expect(error.kind == .badData && error.exitCode == 65)
      #expect(error.description.contains("x.csv"))
    }
  }

  @Test func badNumberIsBadData() {
    var text = ReportSchema.render([testRow()])
    text = text.replacingOccurrences(of: ",100.0,", with: ",fast,")
    #expect(throws: ReportError.self) { try ReportSchema.parse(text, path: "x.csv") }
  }
}
