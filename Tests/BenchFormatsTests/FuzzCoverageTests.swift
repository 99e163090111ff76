import Foundation
import Testing

/// The fuzz target (`Fuzz/FuzzReaders`) must hand its input to every file
/// reader bench has, including the next one written: this reads the modules
/// that read files (BenchFormats, BenchHarness: command-line arguments are
/// parsed in BenchCommands) for reader entry points (`init(parsing:…)`,
/// `static func parse(…)`) and expects the target to call each of them.
@Suite struct FuzzCoverageTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Type names with a reader entry point in the Swift files under `folder`.
  static func readers(under folder: String) throws -> Set<String> {
    let base = root.appendingPathComponent(folder)
    let files = try #require(FileManager.default.enumerator(atPath: base.path))
    var found: Set<String> = [], protocols: Set<String> = []
    for case let file as String in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
      var current: String? = nil  // the type being declared or extended
      for line in text.split(separator: "\n") {
        let words = line.split(whereSeparator: { " :<{(".contains($0) })
        if let k = words.firstIndex(where: { ["struct", "enum", "extension", "protocol"].contains($0) }),
           k + 1 < words.count, !line.hasPrefix(" ") {
          current = String(words[k + 1])
          if words[k] == "protocol" { protocols.insert(String(words[k + 1])) }
        }
        if let type = current, line.contains("init(parsing") || line.contains("static func parse(") {
          found.insert(type)
        }
      }
    }
    // a protocol's readers are its conforming types', found on their own
    return found.subtracting(protocols)
  }

  @Test func theFuzzTargetCallsEveryReader() throws {
    let target = try String(
      contentsOf: Self.root.appendingPathComponent("Fuzz/FuzzReaders/FuzzReaders.swift"), encoding: .utf8)
    let readers = try Self.readers(under: "Benchmarks/BenchFormats")
      .union(Self.readers(under: "Benchmarks/BenchHarness"))
    // the readers known today are found, so the scan itself works
    #expect(readers.isSuperset(of: ["PointsFile", "QueriesFile", "TapsFile", "GeoJSONPoints", "ReportSchema"]))
    for reader in readers.sorted() {
      #expect(
        target.contains("\(reader)(parsing:") || target.contains("\(reader).parse("),
        "\(reader) has a reader that Fuzz/FuzzReaders does not call")
    }
  }

  /// A report the reader takes goes on to what `bench plot`, `report` and
  /// `compare` do with it, in the fuzz target too: no value the reader
  /// accepts may trap a later command.
  @Test func theFuzzTargetDrawsPagesAndComparesEveryReportItReads() throws {
    let target = try String(
      contentsOf: Self.root.appendingPathComponent("Fuzz/FuzzReaders/FuzzReaders.swift"), encoding: .utf8)
    for call in ["checkReport(try ReportSchema.parse(", "ReportPlots.make(", "HTMLReport(", "Verdict.all(", "Comparison("] {
      #expect(target.contains(call), "Fuzz/FuzzReaders does not call \(call)")
    }
    // and its seeds hold reports, so it starts from ones the reader takes
    let seeds = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Fuzz/corpus").path)
    #expect(seeds.filter { $0.hasPrefix("report-") }.count >= 5)
  }
}
