import Foundation
import BenchHarness
import Testing

@Suite struct ReportSchemaTests {
  @Test func columnsInOrder() {
    #expect(ReportSchema.columns.count == 38)
    #expect(Array(ReportSchema.columns.prefix(7))
      == ["index", "params", "dataset", "n", "workload", "strategy", "zooms"])
    #expect(ReportSchema.columns.last == "seed")
    #expect(Set(ReportSchema.columns).count == ReportSchema.columns.count)
    #expect(ReportSchema.columns.allSatisfy { $0 == $0.lowercased() && !$0.contains(" ") })
    #expect(testRow().csvFields.count == ReportSchema.columns.count)
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
