import BenchHarness
import Testing

/// The markers of a generated table in a guide: where a block is, what its
/// command is, and the guides `bench docs` refuses to touch.
@Suite struct GeneratedBlocksTests {
  static let guide = """
    # Title

    <!-- generated: bench table r.csv --rows index --value median_ns -->
    | old |
    <!-- end generated -->

    Prose.

    <!-- generated: bench table r.csv
      --rows index --value "viewport median=median_ns@workload=viewport" -->
    <!-- end generated -->

    ```markdown
    <!-- generated: bench run -->
    <!-- end generated -->
    ```

    """

  @Test func blocksAndTheirCommands() throws {
    let guide = try MarkdownGuide(parsing: Self.guide, file: "g.md")
    #expect(guide.blocks.map(\.line) == [3, 9])
    #expect(guide.blocks.map(\.command) == [
      "bench table r.csv --rows index --value median_ns",
      "bench table r.csv   --rows index --value \"viewport median=median_ns@workload=viewport\"",
    ])
    #expect(guide.blocks.map(\.text) == ["| old |\n", ""])
    // prose: every line outside the blocks and the fence
    #expect(guide.prose.map { $0 + 1 } == [1, 2, 6, 7, 8, 12])
  }

  @Test func replacingChangesOnlyTheBlocks() throws {
    let guide = try MarkdownGuide(parsing: Self.guide, file: "g.md")
    let text = guide.replacing(["| a |\n|---|\n", "| b |\n"])
    #expect(text == Self.guide
      .replacingOccurrences(of: "| old |\n", with: "| a |\n|---|\n")
      .replacingOccurrences(of: "viewport\" -->\n", with: "viewport\" -->\n| b |\n"))
    // and again: nothing changes
    let again = try MarkdownGuide(parsing: text, file: "g.md")
    #expect(again.blocks.map(\.text) == ["| a |\n|---|\n", "| b |\n"])
    #expect(again.replacing(again.blocks.map(\.text)) == text)
  }

  /// A guide with CRLF line ends: the blocks are found, and the lines
  /// outside them keep their CR.
  @Test func crlfLineEnds() throws {
    let text = "a\r\n<!-- generated: bench table r.csv -->\r\n| old |\r\n<!-- end generated -->\r\nb\r\n"
    let guide = try MarkdownGuide(parsing: text, file: "g.md")
    #expect(guide.blocks.map(\.command) == ["bench table r.csv"])
    #expect(guide.blocks.map(\.line) == [2])
    #expect(guide.replacing(["| new |\n"])
      == "a\r\n<!-- generated: bench table r.csv -->\r\n| new |\n<!-- end generated -->\r\nb\r\n")
    #expect(guide.replacing(guide.blocks.map(\.text)) == text, "its own blocks change nothing")
  }

  /// A marker out of place names the file and the line.
  @Test func misplacedMarkersAreErrors() {
    let cases: [(String, Int, String)] = [
      ("a\n<!-- generated: bench table r.csv -->\n| x |\n", 2, "no <!-- end generated --> after this block"),
      ("a\n\n<!-- end generated -->\n", 3, "without a"),
      ("<!-- generated: bench table a.csv -->\n<!-- generated: bench table b.csv -->\n<!-- end generated -->\n", 1,
       "before the next"),
      ("<!-- generated: bench table a.csv\n--rows index\n", 1, "never closed"),
      ("<!-- generated: bench table a.csv --> tail\n<!-- end generated -->\n", 1, "text after -->"),
    ]
    for (text, line, words) in cases {
      #expect {
        try MarkdownGuide(parsing: text, file: "g.md")
      } throws: { error in
        let e = error as! DocsError
        return e.file == "g.md" && e.line == line && e.reason.message.contains(words) && e.exitCode == 65
      }
    }
  }

  /// A command line in a guide splits as a shell splits it.
  @Test func commandWordsSplitAsAShellDoes() throws {
    #expect(try CommandWords.split(#"bench table  a.csv --value "x y=median_ns@n=1" --label 'n=1:a "b"' c\ d"#)
      == ["bench", "table", "a.csv", "--value", "x y=median_ns@n=1", "--label", #"n=1:a "b""#, "c d"])
    #expect(try CommandWords.split(#"a "q\"t\\" ''"#) == ["a", #"q"t\"#, ""])
    #expect(throws: DocsError.Reason.self) { try CommandWords.split("a 'open") }
    #expect(throws: DocsError.Reason.self) { try CommandWords.split("a \"open") }
  }
}
