import Foundation
import Testing

/// A file name may hold any byte but `/` and NUL. Its control characters
/// (an escape sequence that clears the screen, a carriage return, a bell,
/// a line feed) reached the terminal and the HTML `<title>` raw; now every
/// echo shows them escaped, `\u{1B}`.
@Suite struct ControlCharacterTests {
  static let stem = "evil\u{1B}[2J\u{07}\r\nname"
  static let shown = "evil\\u{1B}[2J\\u{07}\\u{0D}\\u{0A}name"

  /// The bytes of `text` a terminal acts on: C0 controls but the line feed
  /// that ends a line, DEL, and C1 controls.
  static func controls(_ text: String) -> [UInt32] {
    text.unicodeScalars.map(\.value).filter { ($0 < 0x20 && $0 != 0x0A) || (0x7F...0x9F).contains($0) }
  }

  @Test func aDatasetNamedWithControlsIsShownEscaped() throws {
    try withTemporaryFolder { folder in
      try folder.write(Self.stem + ".csv", InputCommand.goodPoints)
      let result = try runBench(
        ["run", "--dataset", Self.stem + ".csv", "--index", "grid", "--workload", "viewport", "--steps", "3",
         "--repeat", "1", "--warmup", "0", "--out", "r.csv"], in: folder.path)
      #expect(result.code == 0, "\(result.stderr)")
      #expect(Self.controls(result.stdout).isEmpty && Self.controls(result.stderr).isEmpty)
      #expect(result.stdout.contains(Self.shown), "\(result.stdout)")
      let page = try #require(text(folder.file("r.html")))
      #expect(Self.controls(page).isEmpty)
      // a points file is named by its path as given
      #expect(page.contains("<title>SpatialBench: \(Self.shown).csv</title>"))
      let report = try #require(text(folder.file("r.csv")))
      #expect(Self.controls(report.replacingOccurrences(of: "\r\n", with: "\n")).isEmpty)
      #expect(report.contains(Self.shown))
    }
  }

  /// An error names the file as given, escaped: a bad row, an output that
  /// is the input, a missing file.
  @Test func errorsNameTheFileEscaped() throws {
    try withTemporaryFolder { folder in
      try folder.write(Self.stem + ".csv", "lat,lon\n91,0\n")
      try folder.write("q.csv", InputCommand.goodQueries)
      let bad = try runBench(
        ["query", "--index", "grid", "--points", Self.stem + ".csv", "--queries", "q.csv"], in: folder.path)
      #expect(bad.code == 65)
      #expect(bad.stderrLines.count == 1 && bad.stderr.hasPrefix("bench: \(Self.shown).csv:2: "), "\(bad.stderr)")
      let same = try runBench(
        ["query", "--index", "grid", "--points", Self.stem + ".csv", "--queries", "q.csv", "--out", Self.stem + ".csv"],
        in: folder.path)
      #expect(same.code == 64 && Self.controls(same.stderr).isEmpty, "\(same.stderr)")
      let missing = try runBench(["run", "--dataset", "gone\u{1B}]0;x\u{07}.csv", "--quiet"], in: folder.path)
      #expect(missing.code == 66 && Self.controls(missing.stderr).isEmpty, "\(missing.stderr)")
      let option = try runBench(["run", "--frob\u{1B}[1m"], in: folder.path)
      #expect(option.code == 64 && Self.controls(option.stderr).isEmpty, "\(option.stderr)")
    }
  }
}
