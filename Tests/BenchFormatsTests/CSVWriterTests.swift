import BenchFormats
import Testing

@Suite struct CSVWriterTests {
  @Test func plainFieldsAreBare() {
    #expect(CSVWriter.line(["a", "b c", "1.5", ""]) == "a,b c,1.5,\n")
  }

  @Test func quotesOnlyWhenNeeded() {
    #expect(CSVWriter.escape("a,b") == "\"a,b\"")
    #expect(CSVWriter.escape("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(CSVWriter.escape("two\nlines") == "\"two\nlines\"")
    #expect(CSVWriter.escape("cr\rhere") == "\"cr\rhere\"")
    #expect(CSVWriter.escape("capacity=16;maxDepth=32") == "capacity=16;maxDepth=32")
  }

  @Test(arguments: [
    ["plain", "with,comma", "with \"quotes\"", "multi\nline", "crlf\r\nend", "", "ü €"],
    ["\"", ",", "\n", "\"\"", " lead and trail "],
    [""],
  ])
  func roundTrip(fields: [String]) throws {
    var csv = CSVWriter()
    csv.writeRow(fields)
    csv.writeRow(fields.reversed())
    let header = (0..<fields.count).map { "c\($0)" }
    #expect(try readBack(CSVWriter.line(header) + csv.text) == [header, fields, fields.reversed()])
  }

  @Test func numbersParseBackExactly() {
    let values: [Double] = [0, -0.0, 1, 12.5, 0.1, 1.0 / 3, 1e-5, 123_456_789.123, 1.5e20,
      .leastNonzeroMagnitude, .greatestFiniteMagnitude]
    for v in values {
      let text = CSVWriter.field(v)
      #expect(Double(text) == v)
      #expect(!text.contains(","))
      #expect(!text.lowercased().contains("nan") && !text.lowercased().contains("inf"))
    }
    #expect(CSVWriter.field(1_234_567) == "1234567")
    #expect(CSVWriter.field(UInt64.max) == "18446744073709551615")
  }

  @Test func nonFiniteIsEmpty() {
    #expect(CSVWriter.field(Double.nan) == "")
    #expect(CSVWriter.field(Double.infinity) == "")
    #expect(CSVWriter.field(-Double.infinity) == "")
  }

  @Test func optionalsBoolsAndHex() {
    #expect(CSVWriter.field(nil as UInt64?) == "")
    #expect(CSVWriter.field(7 as UInt64?) == "7")
    #expect(CSVWriter.field(true) == "1" && CSVWriter.field(false) == "0")
    #expect(CSVWriter.hexField(0xBEEF) == "0x000000000000beef")
    #expect(CSVWriter.hexField(.max) == "0xffffffffffffffff")
  }
}

/// Every row the writer writes reads back through the one CSV reader.
func readBack(_ text: String) throws -> [[String]] {
  try CSVTable.read(Array(text.utf8), source: "t.csv") { table throws(DataError) in
    var rows = [table.header]
    while try table.nextRow() { rows.append((0..<table.header.count).map { table.text($0) }) }
    return rows
  }
}
