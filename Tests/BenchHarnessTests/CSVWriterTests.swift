import BenchHarness
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
    let parsed = try CSVReader.parse(csv.text)
    #expect(parsed == [fields, fields.reversed()])
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

@Suite struct CSVReaderTests {
  @Test func acceptsCRLFAndMissingFinalNewline() throws {
    #expect(try CSVReader.parse("a,b\r\n1,2\r\n3,4") == [["a", "b"], ["1", "2"], ["3", "4"]])
  }

  @Test func skipsBlankLinesAndByteOrderMark() throws {
    #expect(try CSVReader.parse("\u{FEFF}a,b\n\n1,2\n\n") == [["a", "b"], ["1", "2"]])
  }

  @Test func keepsEmptyFields() throws {
    #expect(try CSVReader.parse(",\n\"\"\n") == [["", ""], [""]])
  }

  @Test func rejectsMalformedQuoting() {
    #expect(throws: CSVReader.Error.self) { try CSVReader.parse("a,\"open\n") }
    #expect(throws: CSVReader.Error.self) { try CSVReader.parse("a,b\"c\n") }
    #expect(throws: CSVReader.Error.self) { try CSVReader.parse("\"closed\"junk\n") }
  }

  @Test func reportsTheLineOfAnError() {
    #expect(throws: CSVReader.Error(line: 4, reason: "quote inside an unquoted field")) {
      try CSVReader.parse("a\n\"x\ny\"\nb\"\n")
    }
  }
}
